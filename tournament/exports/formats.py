"""One export pipeline (pretix style): a table's `iterate_*` yields its columns (columns.py),
then typed rows; the writers here turn the same rows into CSV, XLSX or JSON. `FORMATS` is
every file the pipeline writes: the download addresses, the command and the pages' links
follow it."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournament.exports.columns import STATUS_LABELS, Column, Kind
from tournament.numbers import format_points

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Sheet:
    """What a file calls its table: the JSON's key for the rows, the XLSX sheet's title, and
    the JSON's key for the lines above the table (`Heading`), where a file has them."""

    key: str
    title: Any  # a lazy translation
    heading_key: str = "heading"


@dataclass(frozen=True)
class Heading:
    """A line above a file's table saying what the table is of (the EMA's results file: the
    tournament's name, date, players…). CSV writes `key,value`, XLSX the label in the
    reader's language and the value, JSON an object of them under the sheet's heading_key."""

    key: str
    label: Any  # a lazy translation
    value: Any


def neutralise(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def file_value(column: Column, value: Any) -> Any:
    """A value as every file holds it: a list of names joined (the API keeps the list)."""
    if column.kind is Kind.NAMES and isinstance(value, list | tuple):
        return "; ".join(value)
    return value


def cell_text(column: Column, value: Any, whole: bool) -> str:
    """A cell as the CSV writes it (and the XLSX measures its width by)."""
    if value is None:
        return ""
    kind = column.kind
    if kind is Kind.POINTS:
        return format_points(value, whole)
    if kind is Kind.FRACTION:
        return f"{value:.3f}"
    if kind is Kind.AVERAGE_RANK:
        return f"{value:.2f}"
    return str(neutralise(file_value(column, value)))


def _cells(header: Sequence[Column], row: Sequence[Any], whole: bool) -> list[str]:
    # A row may be shorter than its header (a seating plan's byes): its cells as they come.
    return [cell_text(header[min(k, len(header) - 1)], v, whole) for k, v in enumerate(row)]


def render_csv(rows: Iterable[Sequence[Any]], whole: bool, heading: Sequence[Heading] = ()) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    # The heading's lines, then an empty line, then the table (its keys first).
    for line in heading:
        writer.writerow([line.key, neutralise(line.value)])
    if heading:
        writer.writerow([])
    iterator = iter(rows)
    header: list[Column] = list(next(iterator))
    writer.writerow([c.key for c in header])
    for row in iterator:
        writer.writerow(_cells(header, row, whole))
    return out.getvalue()


def dump_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


def rows_data(
    rows: Iterable[Sequence[Any]],
    owner: Any,
    key: str = "standings",
    heading: Sequence[Heading] = (),
    heading_key: str = "heading",
) -> dict:
    """The rows as the JSON download (and the API) give them: a record per row, after the
    heading's object where the file has one."""
    iterator = iter(rows)
    header: list[Column] = list(next(iterator))
    data: dict[str, Any] = {"event": owner.slug, "name": owner.name}
    if heading:
        data[heading_key] = {line.key: line.value for line in heading}
    data[key] = [
        {c.key: file_value(c, v) for c, v in zip(header, row, strict=True)} for row in iterator
    ]
    return data


XLSX_WIDEST = 60  # a column's most, in characters: a long team list wraps no wider


def display_width(value: Any) -> int:
    """How many characters wide a cell's text shows: a CJK or full-width one counts two."""
    text = "" if value is None else str(value)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def xlsx_value(column: Column, value: Any) -> Any:
    """A cell as a person reads it: a status in words, not its code. A country stays its ISO
    code: the file goes to a ranking body, which reads it the same whoever downloaded it."""
    if column.kind is Kind.STATUS:
        return str(STATUS_LABELS.get(value, value))
    if column.words is not None:
        return str(column.words.get(value, value))
    return file_value(column, value)


def render_xlsx(
    rows: Iterable[Sequence[Any]], whole: bool, title: str, heading: Sequence[Heading] = ()
) -> bytes:
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    sheet.title = title
    # The heading's lines, then an empty row, then the table. Left out of the columns' widths:
    # a long tournament name runs on into the empty cells beside it.
    for line in heading:
        sheet.append([str(line.label), neutralise(line.value)])
    if heading:
        sheet.append([])
    iterator = iter(rows)
    header: list[Column] = list(next(iterator))
    headings = [c.heading for c in header]  # in the reader's language
    sheet.append(headings)
    widths = [display_width(h) for h in headings]
    formats = [c.kind.number_format(whole) for c in header]
    for row in iterator:
        row = [xlsx_value(c, v) for c, v in zip(header, row, strict=True)]
        sheet.append([neutralise(v) for v in row])
        for cell, number_format in zip(sheet[sheet.max_row], formats, strict=True):
            if number_format:
                cell.number_format = number_format
        shown = _cells(header, row, whole)  # as the numbers show, 12.0 not 12
        widths = [max(w, display_width(text)) for w, text in zip(widths, shown, strict=True)]
    # Each column as wide as its widest cell (Excel's own default cuts 長谷川 真理子 short).
    for k, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(k)].width = min(width + 2, XLSX_WIDEST)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


Rows = Iterator[Sequence[Any]]  # a table's columns first, then its rows


@dataclass(frozen=True)
class ExportFormat:
    """A file the pipeline writes: its address's ending and file name's (`slug`), the link's
    text, what it is served as, and how the rows become it."""

    slug: str
    label: str
    content_type: str
    text: bool  # UTF-8 text (a terminal can show it) rather than bytes
    # rows (columns first), the owner (an event, a series, a pool), the sheet, whole points,
    # the lines above the table (most files have none)
    render: Callable[[Rows, Any, Sheet, bool, Sequence[Heading]], bytes]
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
            lambda rows, owner, sheet, whole, heading: render_csv(rows, whole, heading).encode(
                "utf-8"
            ),
            # Excel reads a UTF-8 CSV without its mark as Shift_JIS: Japanese names garble.
            _("for Excel, take XLSX"),
        ),
        ExportFormat(
            "xlsx",
            "XLSX",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            False,
            lambda rows, owner, sheet, whole, heading: render_xlsx(
                rows, whole, str(sheet.title), heading
            ),
            _("headings in your language, for Excel"),
        ),
        ExportFormat(
            "json",
            "JSON",
            "application/json",
            True,
            lambda rows, owner, sheet, whole, heading: dump_json(
                rows_data(rows, owner, sheet.key, heading, sheet.heading_key)
            ).encode("utf-8"),
        ),
    )
}


def write(
    fmt: str, rows: Rows, owner: Any, sheet: Sheet, whole: bool, heading: Sequence[Heading] = ()
) -> bytes:
    """A table's rows as the file `fmt` (a slug of FORMATS), below `heading`'s lines."""
    return FORMATS[fmt].render(rows, owner, sheet, whole, heading)
