"""The standings: an event's ranking, or one stage's. Its columns are declared once below;
the page's table (`standings_table`), the files (`export_standings`) and the API (the JSON
file's body) are made from them and from the same records."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from functools import cached_property
from typing import Any, overload

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring import Standings
from scoring.standings import Row, StageResult
from tournament.exports.columns import Column, Kind, place_column, round_column
from tournament.exports.figures import Figures, RowFigures, table_facts
from tournament.exports.formats import Sheet, write
from tournament.exports.html import LeanTable, RecordsData, table_column
from tournament.i18n import round_heading
from tournament.models import Event
from tournament.numbers import half_up
from tournament.selectors.published import published

RANK = Column("rank", _("Rank"), Kind.COUNT)
PLAYER = Column("player", _("Player"))
# More is better: the first tap on these sorts best first.
TOTAL = Column("total", _("Total"), Kind.POINTS, best_first=True)
GAMES = Column("games", _("Games"), Kind.COUNT, best_first=True)
TOP_RATE = Column("top_rate", _("Top rate"), Kind.FRACTION, best_first=True, drop=3)
# r1, r2, … (round_column) come here
STATUS = Column("status", _("Status"), Kind.STATUS)
# CONTRACT §2 allows columns after status: the page's figures.
AVERAGE_RANK = Column("average_rank", _("Avg. rank"), Kind.AVERAGE_RANK, drop=2, optional=True)
# rank_1 … rank_N (place_column) come here
PENALTIES = Column("penalties", _("Penalties"), Kind.POINTS)
SHEET = Sheet("standings", _("Standings"))


def file_columns(rounds: Sequence[int], players_per_table: int) -> list[Column]:
    """CONTRACT §2 columns: rank, player, total, games, top_rate, r1, r2, …, status; then
    average_rank and rank_1 … rank_N, the counts of 1st to Nth places the page shows, and
    penalties (points given or taken by the organizers, already in the total)."""
    return [
        RANK,
        PLAYER,
        TOTAL,
        GAMES,
        TOP_RATE,
        *(round_column(n) for n in rounds),
        STATUS,
        AVERAGE_RANK,
        *(place_column(k) for k in range(1, players_per_table + 1)),
        PENALTIES,
    ]


def _games_of(row: Row, stage: StageResult | None) -> list[int]:
    return [n for n in row.rounds if stage is None or stage.stage.counts(n)]


class StandingsRecord:
    """One row as the page and the downloads show it. What ranking already holds (rank,
    total, games, top rate, penalties, status, the cut) is set at once; the game-by-game
    columns (each shown round, places 1st…Nth, average rank) are read from the row's rounds
    when one of them is first asked for: a page shows 100 rows of 10,000, and decoding every
    row's rounds was most of the first page after each write."""

    def __init__(
        self,
        figures: Figures,
        stage: StageResult | None,
        numbers: Sequence[int],
        places: range,
        cut: bool,
    ) -> None:
        self.rank = figures.rank
        self.player = figures.row.player
        self.total = float(figures.total)
        self.penalties = float(figures.penalties)
        self.games = figures.games
        self.top_rate = figures.firsts / figures.games if figures.games else 0.0
        self.status = figures.status
        self.now = figures.now
        self.cut = cut
        self._row, self._stage, self._numbers, self._places = figures.row, stage, numbers, places

    @cached_property
    def _placed(self) -> list[int]:
        """The place taken in each game the record counts, in round order."""
        ranks = self._row.detail.round_ranks
        return [ranks[n] for n in _games_of(self._row, self._stage)]

    @cached_property
    def average_rank(self) -> float:
        placed = self._placed
        return sum(placed) / len(placed) if placed else 0.0

    @cached_property
    def places(self) -> tuple[int, ...]:
        """How many times 1st, 2nd, … (as many as a table seats)."""
        placed = self._placed
        return tuple(placed.count(k) for k in self._places)

    @cached_property
    def rounds(self) -> tuple[float | None, ...]:
        """The points of each shown round (the table's round numbers), None where not played."""
        points = self._row.detail.rounds
        return tuple(None if points.get(n) is None else float(points[n]) for n in self._numbers)

    def file_row(self) -> list[Any]:
        """The record as the files hold it, in file_columns' order."""
        return [
            self.rank,
            self.player,
            self.total,
            self.games,
            round(self.top_rate, 3),
            *self.rounds,
            self.status,
            half_up(self.average_rank, 2) if self.games else None,
            *self.places,
            self.penalties,
        ]


class StandingsRecords(Sequence[StandingsRecord]):
    """The standings' records in order, each made when first read: a page shows 100 rows of
    10,000, and making every row's record was most of its table after each write (a download
    reads them all). `figures`: every row's, for what is decided over the whole table."""

    def __init__(
        self,
        figures: Sequence[Figures],
        stage: StageResult | None,
        shown: list[int],
        places: range,
        last_in: str | None,
    ) -> None:
        self.figures = figures
        self._stage, self._shown, self._places, self._last_in = stage, shown, places, last_in
        self._made: dict[int, StandingsRecord] = {}

    def __len__(self) -> int:
        return len(self.figures)

    @overload
    def __getitem__(self, index: int) -> StandingsRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[StandingsRecord]: ...

    def __getitem__(self, index: int | slice) -> StandingsRecord | list[StandingsRecord]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.figures)))]
        index = range(len(self.figures))[index]  # a negative index, or IndexError
        record = self._made.get(index)
        if record is None:
            figures = self.figures[index]
            cut = figures.row.player == self._last_in
            record = StandingsRecord(figures, self._stage, self._shown, self._places, cut)
            self._made[index] = record
        return record

    def __iter__(self) -> Iterator[StandingsRecord]:
        return (self[i] for i in range(len(self.figures)))


def standings_records(
    result: Standings,
    *,
    players_per_table: int,
    stage: StageResult | None = None,
    in_progress: int | None = None,
    sorted_by_user: bool = False,
    numbers: Sequence[int] | None = None,
) -> tuple[StandingsRecords, list[int]]:
    """The rows of the overall standings, or of one stage (its rounds, its order, its cut),
    and the round numbers they show: what the page's table and every download hold.
    `numbers`: the rounds to show, when the caller knows them (the page: those with a result,
    selectors.published.round_progress; a download: every round up to the last); otherwise
    every row's rounds are read to find them."""
    rows = result.rows
    known = set(numbers) if numbers is not None else {n for r in rows for n in r.rounds}
    shown = sorted(known | ({in_progress} if in_progress else set()))
    figures: Sequence[Figures]
    if stage is not None:
        shown = [n for n in shown if stage.stage.counts(n)]
        by_player = {r.player: r for r in rows}  # a stage's order names players
        position = 1
        made: list[Figures] = []
        for group in stage.order:
            for p in group:
                row = by_player[p]
                # A stage's own figures, as its ranking counted them.
                total, games, firsts, penalties = stage.figures_of(row)
                status, now = stage.status_of(row), stage.now_of(p)
                made.append(Figures(position, row, status, total, penalties, games, firsts, now))
            position += len(group)
        figures = made
    else:
        # The cut being played, if any: until its stage's games are all played nobody is
        # through or out, but the page says where it falls now.
        open_cut = next((s for s in result.stages if s.stage.advance and not s.complete), None)
        now_of = open_cut.now_of if open_cut is not None else (lambda _p: "")
        # Every row of a 10,000-player event is here: each row's figures made when read.
        figures = RowFigures(rows, now_of)
    # The cut line under the last player through — none where it falls inside a tie (helper-52:
    # twelve players yet to play tied at 0.0 across Baba's top-4 cut; a line under rank 2 read
    # as "two go through").
    last_in = None
    if stage is not None and stage.stage.advance and stage.advancing and not sorted_by_user:
        if not stage.tied_at_cut:
            last_in = stage.advancing[-1]
    elif stage is None and not sorted_by_user:
        if open_cut is not None and open_cut.tied_at_cut:
            through = []
        elif open_cut is not None and open_cut.played:  # the cut as it falls now
            through = open_cut.advancing
        else:
            through = [r.player for r in rows if r.status in ("finalist", "champion")]
        if through and len(through) < len(rows):
            last_in = through[-1]
    places = range(1, players_per_table + 1)
    return StandingsRecords(figures, stage, shown, places, last_in), shown


# --- the files ----------------------------------------------------------------------------


def iterate_standings(event: Event, stage_name: str = "") -> Iterator[list[Any]]:
    """file_columns, then a row per player. `stage_name`: one stage's ranking."""
    result = published(event).standings
    stage = result.stage(stage_name)
    n = event.rules.players
    last = max((r for row in result.rows for r in row.rounds), default=0)
    # Every round up to the last played, a gap included (CONTRACT §2: r1, r2, …).
    every = range(1, last + 1)
    records, numbers = standings_records(result, players_per_table=n, stage=stage, numbers=every)
    yield file_columns(numbers, n)
    for record in records:
        yield record.file_row()


def export_standings(event: Event, fmt: str, stage: str = "") -> bytes:
    """The standings file (`stage`: that stage's ranking, as its tab on the page shows it)."""
    return write(fmt, iterate_standings(event, stage), event, SHEET, event.rules.whole_points)


# --- the page -----------------------------------------------------------------------------

LINK_SLOT = 987654321  # stands for a player's id in the reversed address (render_player)


def _row_class(record: StandingsRecord) -> str:
    """A standings row's class: its status (none: "status-none") and the cut line."""
    status = f"status-{record.status or 'none'}"
    return f"{status} cut" if record.cut else status


class StandingsTable(LeanTable):
    player_ids: dict[str, int] = {}  # name → id, for the links (set by standings_table)
    _player_link = ""  # the player page's address with "{}" for the id, once per table
    rank = table_column(RANK)
    player = table_column(PLAYER)
    total = table_column(TOTAL)
    games = table_column(GAMES)
    top_rate = table_column(TOP_RATE)
    average_rank = table_column(AVERAGE_RANK)

    class Meta:
        template_name = "tournament/_standings_table.html"
        attrs = {"class": "standings", "id": "standings-table"}
        row_attrs = {"class": _row_class}
        empty_text = _("No players yet.")

    def row_class(self, record: StandingsRecord) -> str:
        return _row_class(record)

    def render_player(self, value: str) -> str:
        player_id = self.player_ids.get(value)
        if player_id is None:
            return value
        # Every link from one reversed address: reverse() per row was a tenth of the first
        # page after a write.
        if not self._player_link:
            self._player_link = reverse("player-detail", args=[LINK_SLOT]).replace(
                str(LINK_SLOT), "{}"
            )
        return format_html('<a href="{}">{}</a>', self._player_link.format(player_id), value)


def standings_sort_keys(players_per_table: int) -> frozenset[str]:
    """Every `?sort=` a standings table answers: its orderable columns, either way round (the
    places' counts c1… as many as a table seats). Anything else is no page
    (views/query.py)."""
    names = [
        *(n for n, c in StandingsTable.base_columns.items() if c.orderable is not False),
        *(f"c{k}" for k in range(1, players_per_table + 1)),
    ]
    return frozenset(n for name in names for n in (name, f"-{name}"))


def _round_header(number: int, in_progress: int | None) -> Any:
    header = round_heading(number)
    if number != in_progress:
        return header
    return format_html(
        '{} <span class="live" title="{}" aria-label="{}">●</span>',
        header,
        _("in progress"),
        _("in progress"),
    )


def standings_table(
    result: Standings,
    *,
    players_per_table: int,
    whole: bool,
    stage: StageResult | None = None,
    in_progress: int | None = None,
    sorted_by_user: bool = False,
    player_ids: dict[str, int] | None = None,
    rounds: Sequence[int] | None = None,
    fractions: Collection[int] | None = None,
) -> StandingsTable:
    """The overall standings, or one stage's ranking (its rounds, its order, its cut): the
    records of the files, so the page and the downloads show the same.

    `rounds` (the rounds with a result) and `fractions` (those where a result has a fraction
    of a point) let the columns be chosen without reading every row's rounds, so only the
    rows shown are (selectors/published.py: `progress`, `fractions`); without them,
    every row is read."""
    records, numbers = standings_records(
        result,
        players_per_table=players_per_table,
        stage=stage,
        in_progress=in_progress,
        sorted_by_user=sorted_by_user,
        numbers=rounds,
    )
    extra: list[tuple[str, tables.Column]] = [
        (f"c{k}", table_column(place_column(k), accessor=f"places__{k - 1}"))
        for k in range(1, players_per_table + 1)
    ]
    for position, n in enumerate(numbers):
        # A venue of whole points shows a column whole only if every value in it is: totals
        # of 50 and 50.5 read as 50.0 and 50.5, not a mix of styles.
        if fractions is not None:
            round_whole = whole and n not in fractions
        else:
            round_whole = whole and all(
                r.rounds[position] is None or r.rounds[position].is_integer() for r in records
            )
        column = table_column(
            round_column(n),
            orderable=False,
            verbose_name=_round_header(n, in_progress),
            accessor=f"rounds__{position}",
            whole=round_whole,
            default="—",
        )
        extra.append((f"r{n}", column))
    # Decided over every row, without making every row's record (StandingsRecords).
    facts = table_facts(records.figures, whole)
    if facts.penalties:  # only where someone has one
        penalties = table_column(
            PENALTIES,
            orderable=False,
            whole=facts.penalties_whole,
            blank_zero=True,
            default="",
        )
        extra.append(("penalties", penalties))
    has_status = facts.status
    if has_status:
        extra.append(("status", table_column(STATUS, orderable=False)))
    # Status right after the total: on a phone it is on the first screen, not off to the side.
    sequence = ["rank", "player", "total", *(["status"] if has_status else []), "..."]
    table = StandingsTable(RecordsData(records), extra_columns=extra, sequence=sequence)
    table.player_ids = player_ids or {}
    # The venue decides: whole points or 0.1 (and 0.1 for all once one total has a half).
    table.columns["total"].column.whole = facts.totals_whole
    return table
