"""One export pipeline (pretix style): `iterate_*` yields a header row, then typed rows;
the renderers turn the same rows into CSV, XLSX or JSON. The pages use the same rows."""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property
from typing import Any, NamedTuple, overload

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import Standings
from scoring.standings import Row, StageResult
from scoring.statistics import RATES, STATISTICS
from tournament.i18n import ordinal, round_heading
from tournament.models import Event
from tournament.selectors.ratings import Pool, rating_board
from tournament.selectors.series import SeriesStandings
from tournament.selectors.standings import published_standings
from tournament.selectors.statistics import event_statistics
from tournament.selectors.teams import team_rows

# A status in words (the page, the XLSX); the CSV and JSON keep the CONTRACT §2 codes.
STATUS_LABELS = {
    "champion": _("Champion"),
    "finalist": _("Finalist"),
    "qualifier": _("Out at the cut"),
    # A shared place, once decided: across the cut it is the organizer's to settle (the
    # dashboard asks), below it nothing is — "to settle" misled readers of a 9th shared by two.
    "tie": _("Tied"),
}
# Where the cut of a stage still being played falls now (StageResult.now_of): words that say
# so, never a status (CONTRACT §2) — the page shows them, the downloads do not.
NOW_LABELS = {
    "in": _("In the cut now"),
    "tie": _("Tied at the cut now"),
}

# CONTRACT §4's statistics by name, as the page's columns and the XLSX's headings say them.
STAT_LABELS = {
    "hands": _("Hands"),
    "wins": _("Wins"),
    "tsumo_wins": _("Tsumo wins"),
    "win_rate": _("Win rate"),
    "deal_ins": _("Deal-ins"),
    "deal_in_rate": _("Deal-in rate"),
    "riichi": _("Riichi"),
    "riichi_rate": _("Riichi rate"),
    "dealer_wins": _("Dealer wins"),
    "average_win": _("Avg. win"),
    "average_deal_in": _("Avg. deal-in"),
}

# The XLSX's headings in the reader's language (the CSV and JSON keep the CONTRACT keys);
# numbered columns (r1, rank_1, e1) are named by column_heading.
COLUMN_LABELS = {
    "rank": _("Rank"),
    "player": _("Player"),
    "total": _("Total"),
    "games": _("Games"),
    "top_rate": _("Top rate"),
    "status": _("Status"),
    "average_rank": _("Avg. rank"),
    "penalties": _("Penalties"),
    "events": _("Events played"),
    "counted": _("Events counted"),
    "team": _("Team"),
    "members": _("Members"),
    "rating": _("Rating"),
    "mu": "μ",
    "sigma": "σ",
    **STAT_LABELS,
}
SHEET_TITLES = {
    "standings": _("Standings"),
    "statistics": _("Statistics"),
    "teams": _("Teams"),
    "ratings": _("Ratings"),
}
_NUMBERED = re.compile(r"(r|e|rank_)(\d+)")


def column_heading(name: str) -> str:
    """A column's heading for a reader: 1回戦 for `r1`, 1位 for `rank_1`, 第1戦 for `e1`."""
    if name in COLUMN_LABELS:
        return str(COLUMN_LABELS[name])
    found = _NUMBERED.fullmatch(name)
    if found is None:
        return name
    kind, number = found.group(1), int(found.group(2))
    if kind == "r":
        return round_heading(number)
    if kind == "rank_":
        return ordinal(number)
    return gettext("Event %(number)d") % {"number": number}


THREE_DECIMALS = ("top_rate", *RATES, "mu", "sigma")  # fractions, and a skill's mean and spread
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def half_up(value: float, places: int) -> float:
    """`value` to `places` decimals, halves up as people round (2.125 → 2.13) — what the player
    page's floatformat does; round() and "%.2f" give 2.12 (the float is exactly 2.125, and
    they round halves to even)."""
    step = Decimal(1).scaleb(-places)
    return float(Decimal(repr(value)).quantize(step, rounding=ROUND_HALF_UP))


def format_points(value: float | None, whole: bool) -> str:
    if value is None:
        return ""
    if whole and float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}"


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


def _games_of(row: Row, stage: StageResult | None) -> list[int]:
    return [n for n in row.rounds if stage is None or stage.stage.counts(n)]


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
    now: str = ""  # where the cut being played falls now: in, tie or out (never a status)


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
    selectors.standings.round_progress; a download: every round up to the last); otherwise
    every row's rounds are read to find them."""
    rows = result.rows
    known = set(numbers) if numbers is not None else {n for r in rows for n in r.rounds}
    shown = sorted(known | ({in_progress} if in_progress else set()))
    figures: list[Figures]
    if stage is not None:
        shown = [n for n in shown if stage.stage.counts(n)]
        by_player = {r.player: r for r in rows}  # a stage's order names players
        position = 1
        figures = []
        for group in stage.order:
            for p in group:
                row = by_player[p]
                # A stage's own figures, as its ranking counted them.
                total, games, firsts, penalties = stage.figures_of(row)
                status, now = stage.status_of(row), stage.now_of(p)
                figures.append(Figures(position, row, status, total, penalties, games, firsts, now))
            position += len(group)
    else:
        # The cut being played, if any: until its stage's games are all played nobody is
        # through or out, but the page says where it falls now.
        open_cut = next((s for s in result.stages if s.stage.advance and not s.complete), None)
        now_of = open_cut.now_of if open_cut is not None else (lambda _p: "")
        # Every row of a 10,000-player event passes here: only what ranking holds is read.
        figures = [
            Figures(r.rank, r, r.status, r.total, r.penalties, r.games, r.firsts, now_of(r.player))
            for r in rows
        ]
    last_in = None
    if stage is not None and stage.stage.advance and stage.advancing and not sorted_by_user:
        last_in = stage.advancing[-1]
    elif stage is None and not sorted_by_user:
        if open_cut is not None and open_cut.played:  # the cut as it falls now
            through = open_cut.advancing
        else:
            through = [r.player for r in rows if r.status in ("finalist", "champion")]
        if through and len(through) < len(rows):
            last_in = through[-1]
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
    last = max((r for row in result.rows for r in row.rounds), default=0)
    # Every round up to the last played, a gap included (CONTRACT §2: r1, r2, …).
    every = range(1, last + 1)
    records, numbers = standings_records(result, players_per_table=n, stage=stage, numbers=every)
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
            record.rank,
            record.player,
            record.total,
            record.games,
            round(record.top_rate, 3),
            *record.rounds,
            record.status,
            half_up(record.average_rank, 2) if record.games else None,
            *record.places,
            record.penalties,
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


XLSX_WIDEST = 60  # a column's most, in characters: a long team list wraps no wider


def display_width(value: Any) -> int:
    """How many characters wide a cell's text shows: a CJK or full-width one counts two."""
    text = "" if value is None else str(value)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def render_xlsx(rows: Iterable[list[Any]], whole: bool, title: str = "standings") -> bytes:
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    sheet.title = str(SHEET_TITLES.get(title, title))
    iterator = iter(rows)
    header = next(iterator)
    headings = [column_heading(name) for name in header]
    sheet.append(headings)
    widths = [display_width(h) for h in headings]
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
        shown = _text_cells(header, row, whole)  # as the numbers show, 12.0 not 12
        widths = [max(w, display_width(text)) for w, text in zip(widths, shown, strict=True)]
    # Each column as wide as its widest cell (Excel's own default cuts 長谷川 真理子 short).
    for k, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(k)].width = min(width + 2, XLSX_WIDEST)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def iterate_teams(event: Event) -> Iterator[list[Any]]:
    """CONTRACT §2's team standings: rank, team, total, games, members (joined by "; " in the
    order the event lists them)."""
    yield ["rank", "team", "total", "games", "members"]
    for row in team_rows(event):
        yield [row.rank, row.team, float(row.total), row.games, "; ".join(row.members)]


def export_teams(event: Event, fmt: str) -> bytes:
    """The team standings file, through the same renderers."""
    return FORMATS[fmt].render(iterate_teams(event), event, "teams", event.rules.whole_points)


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


@dataclass(frozen=True)
class ExportFormat:
    """A file the pipeline writes: its address's ending and file name's (`slug`), the link's
    text, what it is served as, and how the rows become it."""

    slug: str
    label: str
    content_type: str
    text: bool  # UTF-8 text (a terminal can show it) rather than bytes
    # rows (header first), the owner (an event or a series), the data's name, whole points
    render: Callable[[Iterator[list[Any]], Any, str, bool], bytes]
    note: Any = ""  # said beside the link (a lazy translation): who the file is for


# Every format, in the order the pages offer them. The download addresses accept these slugs
# and no other (converters.ExportFormatConverter), the command its choices, the pages draw
# a link for each (templates/tournament/_downloads.html).
FORMATS: dict[str, ExportFormat] = {
    f.slug: f
    for f in (
        ExportFormat(
            "csv",
            "CSV",
            "text/csv; charset=utf-8",
            True,
            lambda rows, owner, key, whole: render_csv(rows, whole).encode("utf-8"),
            # Excel reads a UTF-8 CSV without its mark as Shift_JIS: Japanese names garble.
            _("for Excel, take XLSX"),
        ),
        ExportFormat(
            "xlsx",
            "XLSX",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            False,
            lambda rows, owner, key, whole: render_xlsx(rows, whole, key),
            _("headings in your language, for Excel"),
        ),
        ExportFormat(
            "json",
            "JSON",
            "application/json",
            True,
            lambda rows, owner, key, whole: render_json(rows, owner, key).encode("utf-8"),
        ),
    )
}


def export_standings(event: Event, fmt: str, stage: str = "") -> bytes:
    """The standings file (`stage`: that stage's ranking, as its tab on the page shows it)."""
    rows = iterate_standings(event, stage)
    return FORMATS[fmt].render(rows, event, "standings", event.rules.whole_points)


def export_statistics(event: Event, fmt: str) -> bytes:
    """The players' statistics file, through the same renderers as the standings."""
    rows = iterate_statistics(event)
    return FORMATS[fmt].render(rows, event, "statistics", event.rules.whole_points)


def export_series(result: SeriesStandings, fmt: str) -> bytes:
    """A season's standings file, through the same renderers."""
    whole = all(e.rules.whole_points for e in result.events)
    return FORMATS[fmt].render(iterate_series(result), result.series, "standings", whole)


def iterate_ratings(pool: Pool, min_games: int = 0) -> Iterator[list[Any]]:
    """A rating pool's leaderboard (CONTRACT §4's keys): rank (equal ratings share one),
    player, rating, mu, sigma, games — players with `min_games` or more."""
    yield ["rank", "player", "rating", "mu", "sigma", "games"]
    rank, last = 0, None
    for i, (name, _pk, rating, mu, sigma, games) in enumerate(rating_board(pool, min_games)):
        if rating != last:
            rank, last = i + 1, rating
        yield [rank, name, rating, round(mu, 3), round(sigma, 3), games]


def export_ratings(pool: Pool, fmt: str, min_games: int = 0) -> bytes:
    """The leaderboard file, through the same renderers."""
    return FORMATS[fmt].render(iterate_ratings(pool, min_games), pool, "ratings", False)
