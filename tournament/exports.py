"""One export pipeline (pretix style): `iterate_*` yields a header row, then typed rows;
the renderers turn the same rows into CSV, XLSX or JSON. The pages use the same rows."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any, NamedTuple, overload

from django.utils.translation import gettext_lazy as _

from scoring import Standings
from scoring.standings import Row, StageResult
from scoring.statistics import RATES, STATISTICS
from tournament.models import Event
from tournament.selectors.series import SeriesStandings
from tournament.selectors.standings import published_standings
from tournament.selectors.statistics import event_statistics

# A status in words (the page, the XLSX); the CSV and JSON keep the CONTRACT §2 codes.
STATUS_LABELS = {
    "champion": _("Champion"),
    "finalist": _("Finalist"),
    "qualifier": _("Out at the cut"),
    "tie": _("Tie to settle"),
}

THREE_DECIMALS = ("top_rate", *RATES)  # fractions shown to three decimals
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def format_points(value: float | None, whole: bool) -> str:
    if value is None:
        return ""
    if whole and float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}"


class StandingsRecord(dict[str, Any]):
    """One row as the page and the downloads show it. What ranking already holds (rank,
    total, games, top rate, penalties, status) is set at once; the game-by-game columns
    (each round, places 1st…Nth, average rank) are read from the row's rounds when first
    asked for: a page shows 100 rows of 10,000, and decoding every row's rounds was most of
    the first page after each write."""

    __slots__ = ("_numbers", "_places", "_row", "_stage")

    def __init__(
        self, row: Row, stage: StageResult | None, numbers: Sequence[int], places: range, **kw: Any
    ) -> None:
        super().__init__(kw)
        self._row, self._stage, self._numbers, self._places = row, stage, numbers, places

    def __missing__(self, key: str) -> Any:
        if "average_rank" in self:  # filled already: a key no record has
            raise KeyError(key)
        self.update(_game_columns(self._row, self._stage, self._numbers, self._places))
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:  # dict.get skips __missing__
        try:
            return self[key]
        except KeyError:
            return default


def _games_of(row: Row, stage: StageResult | None) -> list[int]:
    return [n for n in row.rounds if stage is None or stage.stage.counts(n)]


def _game_columns(
    row: Row, stage: StageResult | None, numbers: Sequence[int], places: range
) -> dict[str, Any]:
    detail = row.detail
    rounds, ranks = detail.rounds, detail.round_ranks
    placed = [ranks[n] for n in _games_of(row, stage)]
    columns: dict[str, Any] = {
        "average_rank": sum(placed) / len(placed) if placed else 0.0,
    }
    for k in places:
        columns[f"c{k}"] = placed.count(k)
    for n in numbers:
        points = rounds.get(n)
        columns[f"r{n}"] = None if points is None else float(points)
    return columns


class Figures(NamedTuple):
    """A row's figures as the standings show them, before it is a record. Made for every
    row — a stage's own figures come from its rounds, and a table chooses its columns from
    every row's — while the record itself is made when read (`StandingsRecords`)."""

    rank: int
    row: Row
    status: str
    total: Decimal
    penalties: Decimal
    games: int
    firsts: int


class StandingsRecords(Sequence[StandingsRecord]):
    """The standings' records in order, each made when first read: a page shows 100 rows of
    10,000, and making every row's record was most of its table after each write (a download
    reads them all). `figures`: every row's, for what is decided over the whole table."""

    def __init__(
        self,
        figures: list[Figures],
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
            rank, row, status, total, penalties, games, firsts = self.figures[index]
            record = self._made[index] = StandingsRecord(
                row,
                self._stage,
                self._shown,
                self._places,
                rank=rank,
                player=row.player,
                total=float(total),
                penalties=float(penalties),
                games=games,
                top_rate=firsts / games if games else 0.0,
                status=status,
                cut=row.player == self._last_in,
            )
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
    `numbers`: the rounds with a result, when the caller knows them (selectors.standings.
    round_progress); otherwise every row's rounds are read to find them."""
    rows = result.rows
    by_player = {r.player: r for r in rows}
    known = set(numbers) if numbers is not None else {n for r in rows for n in r.rounds}
    shown = sorted(known | ({in_progress} if in_progress else set()))
    figures: list[Figures]
    if stage is not None:
        shown = [n for n in shown if stage.stage.counts(n)]
        position = 1
        figures = []
        for group in stage.order:
            for p in group:
                row = by_player[p]
                if p in stage.tied_at_cut:
                    status = "tie"
                elif stage.stage.advance is None:
                    status = row.status
                else:
                    status = "finalist" if p in stage.advancing else "qualifier"
                # A stage's own figures: its rounds (the ranking read them already).
                games_in = _games_of(row, stage)
                penalties = row.penalties_in(stage.stage)
                total = sum((row.rounds[n] for n in games_in), start=penalties)
                firsts = sum(row.round_ranks[n] == 1 for n in games_in)
                games = len(games_in)
                figures.append(Figures(position, row, status, total, penalties, games, firsts))
            position += len(group)
    else:
        # Every row of a 10,000-player event passes here: only what ranking holds is read.
        figures = [
            Figures(r.rank, r, r.status, r.total, r.penalties, r.games, r.firsts) for r in rows
        ]
    last_in = None
    if stage is not None and stage.stage.advance and stage.advancing and not sorted_by_user:
        last_in = stage.advancing[-1]
    elif stage is None and not sorted_by_user:
        finalists = [r.player for r in rows if r.status in ("finalist", "champion")]
        if finalists and len(finalists) < len(rows):
            last_in = finalists[-1]
    places = range(1, players_per_table + 1)
    return StandingsRecords(figures, stage, shown, places, last_in), shown


def iterate_standings(event: Event, stage_name: str = "") -> Iterator[list[Any]]:
    """CONTRACT §2 columns: rank, player, total, games, top_rate, r1, r2, …, status; then
    (added after status, as the contract allows) average_rank and rank_1 … rank_N, the
    counts of 1st to Nth places the page shows, and penalties (points given or taken by the
    organizers, already in the total). `stage_name`: one stage's ranking."""
    result = published_standings(event)
    stage = next((s for s in result.stages if s.stage.name == stage_name), None)
    n = event.rules.players
    records, _numbers = standings_records(result, players_per_table=n, stage=stage)
    last = max((r for row in result.rows for r in row.rounds), default=0)
    numbers = [k for k in range(1, last + 1) if stage is None or stage.stage.counts(k)]
    places = [f"rank_{k}" for k in range(1, n + 1)]
    yield [
        "rank",
        "player",
        "total",
        "games",
        "top_rate",
        *[f"r{k}" for k in numbers],
        "status",
        "average_rank",
        *places,
        "penalties",
    ]
    for record in records:
        yield [
            record["rank"],
            record["player"],
            record["total"],
            record["games"],
            round(record["top_rate"], 3),
            *[record.get(f"r{k}") for k in numbers],
            record["status"],
            round(record["average_rank"], 2) if record["games"] else None,
            *[record[f"c{k}"] for k in range(1, n + 1)],
            record["penalties"],
        ]


def _is_points(column: str) -> bool:
    """The total, penalties, the round columns (r1, r2, …) and a season's event columns (e1,
    e2, …) hold points."""
    return column in ("total", "penalties") or (column[:1] in "re" and column[1:].isdigit())


def _text_cells(header: Sequence[str], row: Sequence[Any], whole: bool) -> list[str]:
    cells = []
    for name, value in zip(header, row, strict=True):
        if _is_points(name):
            cells.append(format_points(value, whole))
        elif name in THREE_DECIMALS:
            cells.append("" if value is None else f"{value:.3f}")
        elif name == "average_rank":
            cells.append("" if value is None else f"{value:.2f}")
        else:
            cells.append("" if value is None else str(neutralise(value)))
    return cells


def render_csv(rows: Iterable[list[Any]], whole: bool) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    iterator = iter(rows)
    header = next(iterator)
    writer.writerow(header)
    for row in iterator:
        writer.writerow(_text_cells(header, row, whole))
    return out.getvalue()


def rows_data(rows: Iterable[list[Any]], event: Any, key: str = "standings") -> dict[str, Any]:
    """The rows as the JSON download (and the API) give them: a record per row."""
    iterator = iter(rows)
    header = next(iterator)
    return {
        "event": event.slug,
        "name": event.name,
        key: [dict(zip(header, row, strict=True)) for row in iterator],
    }


def render_json(rows: Iterable[list[Any]], event: Any, key: str = "standings") -> str:
    return json.dumps(rows_data(rows, event, key), ensure_ascii=False, indent=1)


def render_xlsx(rows: Iterable[list[Any]], whole: bool, title: str = "standings") -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = title
    iterator = iter(rows)
    header = next(iterator)
    sheet.append(header)
    number_format = "0" if whole else "0.0"
    status = header.index("status") if "status" in header else None
    for row in iterator:
        row = list(row)
        if status is not None:  # in words, not codes
            row[status] = str(STATUS_LABELS.get(row[status], row[status]))
        sheet.append([neutralise(v) for v in row])
        for cell, name in zip(sheet[sheet.max_row], header, strict=True):
            if _is_points(name):
                cell.number_format = number_format
            elif name in THREE_DECIMALS:
                cell.number_format = "0.000"
            elif name == "average_rank":
                cell.number_format = "0.00"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def iterate_statistics(event: Event) -> Iterator[list[Any]]:
    """CONTRACT §4 statistics, a row per player who sat at a finished game: `player`, then
    each statistic by its contract name (rates as fractions, averages in score points)."""
    yield ["player", *STATISTICS]
    for stats in event_statistics(event):
        yield [stats.player, *(stats.tally.value(name) for name in STATISTICS)]


def iterate_series(result: SeriesStandings) -> Iterator[list[Any]]:
    """A season's standings, as an event's: rank, player, total, games, a column per event
    (`e1`, `e2`, … its total there; empty where not played), status; then `events` (how many
    played) and `counted` (which of them count: 1 3 4)."""
    numbers = range(1, len(result.events) + 1)
    yield ["rank", "player", "total", "games", *[f"e{k}" for k in numbers], "status", "events",
           "counted"]  # fmt: skip
    for row in result.rows:
        yield [
            row.rank,
            row.player,
            float(row.total),
            row.games,
            *[float(row.results[k - 1].total) if k - 1 in row.results else None for k in numbers],
            row.status,
            row.events,
            " ".join(str(k + 1) for k in sorted(row.counted)),
        ]


def _render(rows: Iterator[list[Any]], event: Any, fmt: str, key: str, whole: bool) -> bytes:
    if fmt == "csv":
        return render_csv(rows, whole).encode("utf-8")
    if fmt == "json":
        return render_json(rows, event, key).encode("utf-8")
    if fmt == "xlsx":
        return render_xlsx(rows, whole, key)
    raise ValueError(f"unknown format {fmt!r}")


def export_standings(event: Event, fmt: str, stage: str = "") -> bytes:
    """The standings file (`stage`: that stage's ranking, as its tab on the page shows it)."""
    return _render(
        iterate_standings(event, stage), event, fmt, "standings", event.rules.whole_points
    )


def export_statistics(event: Event, fmt: str) -> bytes:
    """The players' statistics file, through the same renderers as the standings."""
    return _render(iterate_statistics(event), event, fmt, "statistics", event.rules.whole_points)


def export_series(result: SeriesStandings, fmt: str) -> bytes:
    """A season's standings file, through the same renderers."""
    whole = all(e.rules.whole_points for e in result.events)
    return _render(iterate_series(result), result.series, fmt, "standings", whole)
