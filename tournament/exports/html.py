"""The pages' HTML tables (django-tables2), made from the same column declarations as the
files (columns.py): `table_column` turns one into django-tables2's column — its heading, its
cells' classes, how a cell is written, which way its first tap sorts."""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import Any

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django_tables2.data import TableListData

from tournament.exports.columns import NOW_LABELS, STATUS_LABELS, Column, Kind
from tournament.numbers import format_points, half_up

NUMERIC = (Kind.COUNT, Kind.NUMBER, Kind.POINTS, Kind.FRACTION, Kind.AVERAGE_RANK)


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


class FractionColumn(tables.Column):
    """A rate or a skill: three decimals."""

    def render(self, value: float) -> str:
        return f"{value:.3f}"


class AverageRankColumn(tables.Column):
    """Two decimals, halves up as people round; "—" before any game."""

    def render(self, value: float) -> str:
        return f"{half_up(value, 2):.2f}" if value else "—"


class StatusColumn(tables.Column):
    def render(self, value: str, record: Any) -> str:
        label = STATUS_LABELS.get(value)
        if label:
            return format_html('<span class="badge status-{}">{}</span>', value, label)
        # Not decided yet: where the cut falls now, in words that say so, drawn apart.
        now = NOW_LABELS.get(getattr(record, "now", ""))
        return format_html('<span class="badge status-now">{}</span>', now) if now else ""


CLASSES: dict[Kind, type[tables.Column]] = {
    Kind.POINTS: PointsColumn,
    Kind.FRACTION: FractionColumn,
    Kind.AVERAGE_RANK: AverageRankColumn,
    Kind.STATUS: StatusColumn,
}


def cell_attrs(column: Column, orderable: bool = True) -> dict[str, dict[str, str]]:
    """A column's th and td attributes: numbers are "num" (the player's name "player", the
    status "status"), a
    column whose first tap sorts highest first "desc-first" (site.css draws its arrow the
    other way), and `data-drop` where the venue screen may hide it."""
    numeric = column.kind in NUMERIC
    td = {"class": "num"} if numeric else {"class": "player"} if column.key == "player" else {}
    if column.kind is Kind.STATUS:  # site.css lets a status wrap on a phone (issue 66)
        td = {"class": "status"}
    th_classes = ["num"] if numeric else []
    if orderable and column.best_first:
        th_classes.append("desc-first")
    th = {"class": " ".join(th_classes)} if th_classes else {}
    if column.drop:
        mark = {"data-drop": str(column.drop)}
        td, th = {**td, **mark}, {**th, **mark}
    return {"th": th, "td": td}


def table_column(column: Column, *, orderable: bool = True, **kwargs: Any) -> tables.Column:
    """django-tables2's column for a declared one (`kwargs`: anything a page sets itself —
    an accessor, a default, `whole`)."""
    kind = CLASSES.get(column.kind, tables.Column)
    kwargs.setdefault("verbose_name", column.label)
    kwargs.setdefault("attrs", cell_attrs(column, orderable))
    if not orderable:
        kwargs["orderable"] = False
    elif column.best_first:  # more is better: the first tap sorts best first
        kwargs.setdefault("order_by", f"-{column.key}")
    if column.kind is Kind.STATUS:
        kwargs.setdefault("empty_values", ())
        kwargs.setdefault("default", "")
    return kind(**kwargs)


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


class RecordsData(TableListData):
    """Records as django-tables2's list data, left as they are (the stock container copies
    them into a list, making every row's record): a page makes the records of the rows it
    shows. A table sorted by the reader's choice sorts them all."""

    def order_by(self, aliases: Any) -> None:
        self.data = list(self.data)
        super().order_by(aliases)


def _escaped(value: Any) -> str:
    """`conditional_escape` without its check for lazy strings on every call (2,000 cells a
    page): a cell is already safe HTML, or text to escape as Django's `escape` does."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


# What a cell's `render` may ask for (body_html passes it by name); django-tables2 offers
# more, which no column of a lean table needs.
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


class LeanTable(tables.Table):
    """A table whose body is written in one pass (its template: `{{ table.body_html }}` in
    the stock table's body block). The stock template renders each cell through a template
    node and inspects its render method's signature, ~1 ms a row: 100 ms of the first
    standings page after each write. Same cells, same classes (a test compares the two)."""

    def row_class(self, record: Any) -> str:
        """The row's own class (django-tables2 adds odd or even)."""
        return ""

    def body_html(self) -> SafeString:
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
            # The row's class as Meta.row_attrs gives it, without django-tables2 inspecting a
            # lambda's signature for every row.
            parity = row.get_even_odd_css_class()
            rows.append(f'<tr class="{self.row_class(record)} {parity}">{"".join(cells)}</tr>')
        return mark_safe("".join(rows))  # every cell escaped above
