"""The HTML tables of the public pages (django-tables2): the standings, built from the same
records as the exports, the players' statistics and a season's standings. (Mahjong tables —
the seats of a round — are services/tables.py and selectors/tables.py.)"""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable, Collection, Sequence
from functools import cache
from operator import attrgetter
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableListData

from scoring import Standings
from scoring.standings import StageResult
from tournament.exports import (
    NOW_LABELS,
    STAT_LABELS,
    STATUS_LABELS,
    StandingsRecord,
    format_points,
    half_up,
    standings_records,
)
from tournament.i18n import ordinal, round_heading

DESC_FIRST = {"td": {"class": "num"}, "th": {"class": "num desc-first"}}


def droppable(attrs: dict[str, dict[str, str]], level: int) -> dict[str, dict[str, str]]:
    """A column the venue screen may hide to keep its type large (screen.js: level 1 first —
    the places, then the average rank, then the top rate); every other page shows it."""
    mark = {"data-drop": str(level)}
    return {"th": {**attrs.get("th", {}), **mark}, "td": {**attrs.get("td", {}), **mark}}


class PointsColumn(tables.Column):
    def __init__(
        self, *args: Any, whole: bool = False, blank_zero: bool = False, **kwargs: Any
    ) -> None:
        self.whole = whole
        self.blank_zero = blank_zero  # penalties: only those who have one show a number
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(*args, **kwargs)

    def render(self, value: Any) -> str:
        if self.blank_zero and not value:
            return ""
        return format_points(value, self.whole)


def _escaped(value: Any) -> str:
    """`conditional_escape` without its check for lazy strings on every call (2,000 cells a
    page): a cell is already safe HTML, or text to escape as Django's `escape` does."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


LINK_SLOT = 987654321  # stands for a player's id in the reversed address (body_html)


def _row_class(record: StandingsRecord) -> str:
    """A standings row's class: its status (none: "status-none") and the cut line."""
    status = f"status-{record.status or 'none'}"
    return f"{status} cut" if record.cut else status


def cell_getter(accessor: str) -> Callable[[Any], Any]:
    """What django-tables2's `Accessor(accessor).resolve(record)` reads from a standings
    record — an attribute, or an item of one (`places__0`) — without its checks on every call:
    1.4 µs a cell against 0.05, and a page has 2,000 cells. A test holds the two equal for
    every column of a table."""
    name, _sep, index = accessor.partition("__")
    get = attrgetter(name)
    if not index:
        return get
    position = int(index)
    return lambda record: get(record)[position]


# What a cell's `render` may ask for (body_html passes it by name); django-tables2 offers
# more, which no column of the standings needs.
RENDER_ARGUMENTS = frozenset({"value", "record"})


@cache
def _render_asks(render: Callable[..., Any]) -> frozenset[str]:
    """The arguments a column's render function takes, checked once per function."""
    asked = frozenset(inspect.signature(render).parameters) - {"self"}
    unknown = asked - RENDER_ARGUMENTS
    if unknown:
        raise TypeError(
            f"{render.__qualname__} asks for {', '.join(sorted(unknown))}: a standings column's "
            f"render takes only {' and '.join(sorted(RENDER_ARGUMENTS))}"
        )
    return asked


class StandingsTable(tables.Table):
    player_ids: dict[str, int] = {}  # name → id, for the links (set by standings_table)
    _player_link = ""  # the player page's address with "{}" for the id, once per table
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
    player = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "player"}})
    # More is better: the first tap on these sorts best first (order_by "-…").
    total = PointsColumn(verbose_name=_("Total"), order_by="-total", attrs=DESC_FIRST)
    games = tables.Column(verbose_name=_("Games"), order_by="-games", attrs=DESC_FIRST)
    top_rate = tables.Column(
        verbose_name=_("Top rate"), order_by="-top_rate", attrs=droppable(DESC_FIRST, 3)
    )
    average_rank = tables.Column(
        verbose_name=_("Avg. rank"), attrs=droppable({"td": {"class": "num"}}, 2)
    )

    class Meta:
        template_name = "tournament/_standings_table.html"
        attrs = {"class": "standings", "id": "standings-table"}
        row_attrs = {"class": _row_class}
        empty_text = _("No players yet.")

    def body_html(self) -> SafeString:
        """This page's rows in one pass. The stock template renders each cell through a
        template node and inspects its render method's signature, ~1 ms a row: 100 ms of the
        first page after each write. Same cells, same classes (a test compares the two)."""
        columns = []
        for bound in self.columns:
            render = getattr(self, f"render_{bound.name}", None) or bound.column.render
            asks_record = "record" in _render_asks(getattr(render, "__func__", render))
            td = bound.attrs["td"].as_html()
            get = cell_getter(bound.accessor)
            columns.append((get, bound.column.empty_values, bound.default, td, render, asks_record))
        rows = []
        for row in self.paginated_rows:
            cells = []
            record = row.record
            for get, empty, default, td, render, asks_record in columns:
                value = get(record)
                if value in empty:
                    text = default
                elif asks_record:
                    text = render(value=value, record=record)
                else:
                    text = render(value=value)
                cells.append(f"<td {td}>{_escaped(text)}</td>")
            # The row's class as Meta.row_attrs gives it, without django-tables2 inspecting the
            # lambda's signature for every row.
            parity = row.get_even_odd_css_class()
            rows.append(f'<tr class="{_row_class(record)} {parity}">{"".join(cells)}</tr>')
        return mark_safe("".join(rows))  # every cell escaped above

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

    def render_top_rate(self, value: float) -> str:
        return f"{value:.3f}"

    def render_average_rank(self, value: float) -> str:
        return f"{half_up(value, 2):.2f}" if value else "—"


class StatusColumn(tables.Column):
    def render(self, value: str, record: Any) -> str:
        label = STATUS_LABELS.get(value)
        if label:
            return format_html('<span class="badge status-{}">{}</span>', value, label)
        # Not decided yet: where the cut falls now, in words that say so, drawn apart.
        now = NOW_LABELS.get(getattr(record, "now", ""))
        return format_html('<span class="badge status-now">{}</span>', now) if now else ""


class RecordsData(TableListData):
    """The standings' records as django-tables2's list data, left as they are (the stock
    container copies them into a list, making every row's record): a page makes the
    records of the rows it shows. A table sorted by the reader's choice sorts them all."""

    def order_by(self, aliases: Any) -> None:
        self.data = list(self.data)
        super().order_by(aliases)


def standings_sort_keys(players_per_table: int) -> frozenset[str]:
    """Every `?sort=` a standings table answers: its orderable columns, either way round (the
    places' counts c1… as many as a table seats). Anything else is no page
    (views/query.py)."""
    names = [
        *(n for n, c in StandingsTable.base_columns.items() if c.orderable is not False),
        *(f"c{k}" for k in range(1, players_per_table + 1)),
    ]
    return frozenset(n for name in names for n in (name, f"-{name}"))


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
    rows of tournament.exports, so the page and the downloads show the same.

    `rounds` (the rounds with a result) and `fractions` (those where a result has a fraction
    of a point) let the columns be chosen without reading every row's rounds, so only the
    rows shown are (selectors.standings.round_progress / fraction_rounds); without them,
    every row is read."""
    records, numbers = standings_records(
        result,
        players_per_table=players_per_table,
        stage=stage,
        in_progress=in_progress,
        sorted_by_user=sorted_by_user,
        numbers=rounds,
    )
    extra: list[tuple[str, tables.Column]] = []
    for k in range(1, players_per_table + 1):
        place = tables.Column(
            verbose_name=ordinal(k),
            accessor=f"places__{k - 1}",
            attrs=droppable({"td": {"class": "num"}}, 1),
        )
        extra.append((f"c{k}", place))
    for position, n in enumerate(numbers):
        header = round_heading(n)
        # A venue of whole points shows a column whole only if every value in it is: totals
        # of 50 and 50.5 read as 50.0 and 50.5, not a mix of styles.
        if fractions is not None:
            round_whole = whole and n not in fractions
        else:
            round_whole = whole and all(
                r.rounds[position] is None or r.rounds[position].is_integer() for r in records
            )
        if n == in_progress:
            header = format_html(
                '{} <span class="live" title="{}" aria-label="{}">●</span>',
                header,
                _("in progress"),
                _("in progress"),
            )
        extra.append(
            (
                f"r{n}",
                PointsColumn(
                    verbose_name=header,
                    accessor=f"rounds__{position}",
                    whole=round_whole,
                    orderable=False,
                    default="—",
                ),
            )
        )
    # Decided over every row from their figures, without making every row's record
    # (exports.StandingsRecords).
    figures = records.figures
    if any(f.penalties for f in figures):  # only where someone has one
        extra.append(
            (
                "penalties",
                PointsColumn(
                    verbose_name=_("Penalties"),
                    whole=whole and all(f.penalties % 1 == 0 for f in figures),
                    blank_zero=True,
                    orderable=False,
                    default="",
                ),
            )
        )
    has_status = any(f.status or f.now in NOW_LABELS for f in figures)
    if has_status:
        extra.append(
            (
                "status",
                StatusColumn(
                    verbose_name=_("Status"), orderable=False, empty_values=(), default=""
                ),
            )
        )
    # Status right after the total: on a phone it is on the first screen, not off to the side.
    sequence = [
        "rank",
        "player",
        "total",
        *(["status"] if has_status else []),
        "...",
    ]
    table = StandingsTable(RecordsData(records), extra_columns=extra, sequence=sequence)
    table.player_ids = player_ids or {}
    # The venue decides: whole points or 0.1 (and 0.1 for all once one total has a half).
    table.columns["total"].column.whole = whole and all(f.total % 1 == 0 for f in figures)
    return table


# --- players' statistics (CONTRACT §4) ------------------------------------------------------

# Lower is better for these: their first tap sorts lowest first.
LOWER_IS_BETTER = ("deal_ins", "deal_in_rate", "average_deal_in")


class StatColumn(tables.Column):
    """A statistic: counts as they are, rates to three decimals, "—" where there is none."""

    def __init__(self, name: str) -> None:
        best_first = "" if name in LOWER_IS_BETTER else "-"
        th = "num" if name in LOWER_IS_BETTER else "num desc-first"
        super().__init__(
            verbose_name=STAT_LABELS[name],
            order_by=f"{best_first}{name}_key",  # None sorts last, never compared with a number
            attrs={"td": {"class": "num"}, "th": {"class": th}},
            default="—",
        )
        self.rate = name.endswith("_rate")

    def render(self, value: Any) -> str:
        return f"{value:.3f}" if self.rate else str(value)


class StatisticsTable(tables.Table):
    player = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "player"}})

    class Meta:
        attrs = {"class": "standings statistics"}
        empty_text = _("Nobody has played enough hands yet.")

    def render_player(self, value: str, record: dict[str, Any]) -> SafeString:
        return format_html(
            '<a href="{}">{}</a>', reverse("player-detail", args=[record["id"]]), value
        )


def statistics_records(rows: list[Any]) -> list[dict[str, Any]]:
    """One record per player: each statistic, and a sort key beside it (None below all)."""
    records = []
    for row in rows:
        record: dict[str, Any] = {"player": row.player, "id": row.player_id}
        for name in STAT_LABELS:
            value = row.tally.value(name)
            record[name] = value
            missing = float("inf") if name in LOWER_IS_BETTER else float("-inf")
            record[f"{name}_key"] = missing if value is None else value
        records.append(record)
    return records


def statistics_table(rows: list[Any]) -> StatisticsTable:
    extra = [(name, StatColumn(name)) for name in STAT_LABELS]
    return StatisticsTable(statistics_records(rows), extra_columns=extra)


# --- a season (series of events) ------------------------------------------------------------


class SeriesTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}}, default="—")
    player = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "player"}})
    total = PointsColumn(verbose_name=_("Total"))
    games = tables.Column(verbose_name=_("Games"), attrs={"td": {"class": "num"}})
    status = StatusColumn(verbose_name=_("Status"), empty_values=(), default="")

    class Meta:
        attrs = {"class": "standings series"}
        orderable = False
        empty_text = _("No event in this series has results yet.")

    def render_player(self, value: str) -> SafeString:
        return format_html('<a href="{}">{}</a>', reverse("player-by-name", args=[value]), value)


class EventTotalColumn(tables.Column):
    """A player's total in one event of the season; one that does not count is struck out."""

    def __init__(self, index: int, name: str, whole: bool) -> None:
        self.index, self.whole = index, whole
        super().__init__(
            verbose_name=name,
            empty_values=(),
            attrs={"td": {"class": "num"}, "th": {"class": "num"}},
        )

    def render(self, record: Any) -> str:
        result = record["row"].results.get(self.index)
        if result is None:
            return "—"
        text = format_points(result.total, self.whole)
        if self.index in record["row"].counted:
            return text
        return format_html('<s title="{}">{}</s>', _("does not count"), text)


def series_table(result: Any) -> SeriesTable:
    whole = all(e.rules.whole_points for e in result.events)
    records = [
        {
            "row": row,
            "rank": row.rank,
            "player": row.player,
            "total": row.total,
            "games": row.games,
            "status": row.status,
        }
        for row in result.rows
    ]
    extra = [
        (f"e{k + 1}", EventTotalColumn(k, event.name, whole))
        for k, event in enumerate(result.events)
    ]
    table = SeriesTable(
        records, extra_columns=extra, sequence=["rank", "player", "total", "...", "status"]
    )
    table.columns["total"].column.whole = whole
    return table
