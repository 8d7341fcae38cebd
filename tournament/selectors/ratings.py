"""Reads for ratings (issue 34, CONTRACT §4): a pool's leaderboard, a player's rating and its
history. Each is one query (the leaderboard's page: its rows, and their count). Whether a pool
waits for its replay (issue 46: services/ratings.py) rides on the board's rows."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, QuerySet

from scoring.ratings import shown
from tournament.models import Rating, RatingDue, RatingStep, Series

MIN_GAMES_DEFAULT = 5  # on the leaderboard: one lucky night is not a rating yet
MIN_GAMES_CHOICES = (0, 1, 5, 10, 20, 50)


@dataclass(frozen=True)
class Pool:
    """A rating pool as the downloads and pages name it: the site's, or a series'."""

    series: Series | None
    slug: str
    name: str

    @property
    def series_id(self) -> int | None:
        return self.series.pk if self.series else None


def pool_of(series: Series | None, site_name: str) -> Pool:
    if series is None:
        return Pool(None, "ratings", site_name)
    return Pool(series, f"{series.slug}-ratings", series.name)


BOARD_FIELDS = ("player__name", "player_id", "rating", "mu", "sigma", "games")


def rating_board(pool: Pool, min_games: int = 0) -> QuerySet[Rating]:
    """The pool's ratings, best first (then by name), of players with `min_games` or more:
    rows of BOARD_FIELDS, sliced by the page that shows them."""
    return (
        Rating.objects.filter(series_id=pool.series_id, games__gte=min_games)
        .order_by("-rating", "player__name", "player_id")
        .values_list(*BOARD_FIELDS)
    )


def board_and_due(pool: Pool, min_games: int = 0) -> QuerySet[Rating]:
    """The board's rows, each ending with whether the pool waits for a replay (a results write
    marked it, its task has not run): the page says so from the rows it reads anyway."""
    due = RatingDue.objects.filter(series_id=pool.series_id)
    return rating_board(pool, min_games).annotate(due=Exists(due))


def ratings_due(pool: Pool) -> bool:
    """Whether the pool waits for a replay; one query (for a board with no row to carry it)."""
    return RatingDue.objects.filter(series_id=pool.series_id).exists()


@dataclass(frozen=True)
class HistoryPoint:
    event_name: str
    event_slug: str
    game_id: int
    place: int
    rating: float  # after the game, as the site shows it


def rating_history(player_id: int, series_id: int | None = None) -> list[HistoryPoint]:
    """A player's rating after each of their games in a pool, in the order of play. One
    query."""
    steps = (
        RatingStep.objects.filter(player_id=player_id, series_id=series_id)
        .order_by("key")
        .values_list("event__name", "event__slug", "game_id", "place", "mu", "sigma")
    )
    return [
        HistoryPoint(name, slug, game_id, place, shown(mu, sigma))
        for name, slug, game_id, place, mu, sigma in steps
    ]
