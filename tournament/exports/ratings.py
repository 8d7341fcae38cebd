"""A rating pool's leaderboard (issue 34, CONTRACT §4): its columns declared once; the files,
the API's answer and the page's rows (templates/tournament/ratings.html) are the same
records, ranked the same way."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournament.exports.columns import Column, Kind, answer_schema
from tournament.exports.formats import Sheet, write
from tournament.selectors.ratings import Pool, rating_board

COLUMNS = (
    Column("rank", _("Rank"), Kind.COUNT),  # equal ratings share one
    Column("player", _("Player")),
    Column("rating", _("Rating"), Kind.NUMBER),  # the rating the site shows
    Column("mu", "μ", Kind.FRACTION),  # openskill's Plackett–Luce mean and spread
    Column("sigma", "σ", Kind.FRACTION),
    Column("games", _("Games"), Kind.COUNT),
)
SHEET = Sheet("ratings", _("Ratings"))
RatingOut = answer_schema("RatingOut", COLUMNS)


@dataclass(frozen=True)
class RatingRecord:
    rank: int
    player: str
    player_id: int  # the page links the name
    rating: float
    mu: float
    sigma: float
    games: int

    def answer(self) -> dict[str, Any]:
        """The record by its columns' keys, as the API gives it (μ and σ unrounded)."""
        return {c.key: getattr(self, c.key) for c in COLUMNS}

    def file_row(self) -> list[Any]:
        return [self.rank, self.player, self.rating, round(self.mu, 3), round(self.sigma, 3),
                self.games]  # fmt: skip


def ranked(
    rows: Iterable[tuple[str, int, float, float, float, int]],
    pool: Pool,
    min_games: int = 0,
    offset: int = 0,
) -> list[RatingRecord]:
    """Records for rows of the board (selectors.ratings.rating_board) from `offset` on: equal
    ratings share a rank, counted across pages — a page after the first asks how many rate
    above its first row (one query)."""
    records = []
    rank, last = 0, None
    for i, (name, player_id, rating, mu, sigma, games) in enumerate(rows):
        if rating != last:
            if i == 0 and offset:
                rank = rating_board(pool, min_games).filter(rating__gt=rating).count() + 1
            else:
                rank = offset + i + 1
            last = rating
        records.append(RatingRecord(rank, name, player_id, rating, mu, sigma, games))
    return records


def iterate_ratings(pool: Pool, min_games: int = 0) -> Iterator[list[Any]]:
    """The pool's players with `min_games` or more, best first."""
    yield list(COLUMNS)
    for record in ranked(rating_board(pool, min_games), pool, min_games):
        yield record.file_row()


def export_ratings(pool: Pool, fmt: str, min_games: int = 0) -> bytes:
    """The leaderboard file."""
    return write(fmt, iterate_ratings(pool, min_games), pool, SHEET, False)
