"""A standings row's figures before it is a record (exports/standings.py): a stage's made for
every row, the overall standings' each when read — and what a table decides over every row
(`table_facts`), read off the rows themselves where they are the figures."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import NamedTuple, overload

from scoring.standings import Player, Row
from tournament.exports.columns import NOW_LABELS


class Figures(NamedTuple):
    """A row's figures as the standings show them, before it is a record (made when read:
    exports/standings.StandingsRecords). A stage's are made for every row, from its rounds;
    the overall standings' each when read (`RowFigures`)."""

    rank: int
    row: Row
    status: str
    total: Decimal
    penalties: Decimal
    games: int
    firsts: int
    now: str = ""  # where the cut being played falls now: in, tie or out (never a status)


class RowFigures(Sequence[Figures]):
    """The overall standings' figures, each made from its row when read, as the records are:
    the venue screen's window of 20 rows of 10,000 reads 20 (making every row's took ~12 ms
    after each result). What a table decides over every row (`table_facts`) reads the rows."""

    def __init__(self, rows: list[Row], now_of: Callable[[Player], str]) -> None:
        self.rows, self.now_of = rows, now_of

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, index: int) -> Figures: ...

    @overload
    def __getitem__(self, index: slice) -> list[Figures]: ...

    def __getitem__(self, index: int | slice) -> Figures | list[Figures]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.rows)))]
        r = self.rows[index]
        return Figures(
            r.rank, r, r.status, r.total, r.penalties, r.games, r.firsts, self.now_of(r.player)
        )


class TableFacts(NamedTuple):
    """What a standings table decides over every row: a penalties column (and whether it is
    whole), a status column, whether the totals are whole."""

    penalties: bool
    penalties_whole: bool
    status: bool
    totals_whole: bool


def table_facts(figures: Sequence[Figures], whole: bool) -> TableFacts:
    """`TableFacts` of these figures — for the overall standings read off the rows themselves,
    no row's figures made (`RowFigures`); a stage's, made already, off its figures. `whole`:
    the venue keeps whole points (else nothing is whole, and no total need be looked at)."""
    if isinstance(figures, RowFigures):
        rows, now_of = figures.rows, figures.now_of
        totals = (r.total for r in rows)
        penalties = [r.penalties for r in rows if r.penalties]
        status = any(r.status for r in rows) or any(now_of(r.player) in NOW_LABELS for r in rows)
    else:
        totals = (f.total for f in figures)
        penalties = [f.penalties for f in figures if f.penalties]
        status = any(f.status or f.now in NOW_LABELS for f in figures)
    return TableFacts(
        bool(penalties),
        whole and all(p % 1 == 0 for p in penalties),
        status,
        whole and all(t % 1 == 0 for t in totals),
    )
