"""One export pipeline (pretix style): `iterate_*` yields a header row, then typed rows;
the renderers turn the same rows into CSV, XLSX or JSON. The pages use the same rows."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from tournament.models import Event
from tournament.selectors.standings import published_standings

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


def iterate_standings(event: Event) -> Iterator[list[Any]]:
    """CONTRACT §2 columns: rank, player, total, games, top_rate, r1, r2, …, status."""
    result = published_standings(event)
    rounds = sorted({r for row in result.rows for r in row.rounds})
    last = max(rounds, default=0)
    numbers = list(range(1, last + 1))
    yield ["rank", "player", "total", "games", "top_rate", *[f"r{n}" for n in numbers], "status"]
    for row in result.rows:
        yield [
            row.rank,
            row.player,
            float(row.total),
            row.games,
            round(row.top_rate, 3),
            *[float(row.rounds[n]) if n in row.rounds else None for n in numbers],
            row.status,
        ]


def _is_points(column: str) -> bool:
    """The total and the round columns (r1, r2, …) hold points."""
    return column == "total" or (column.startswith("r") and column[1:].isdigit())


def _text_cells(header: Sequence[str], row: Sequence[Any], whole: bool) -> list[str]:
    cells = []
    for name, value in zip(header, row, strict=True):
        if _is_points(name):
            cells.append(format_points(value, whole))
        elif name == "top_rate":
            cells.append(f"{value:.3f}")
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


def render_json(rows: Iterable[list[Any]], event: Event) -> str:
    iterator = iter(rows)
    header = next(iterator)
    data = {
        "event": event.slug,
        "name": event.name,
        "standings": [dict(zip(header, row, strict=True)) for row in iterator],
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def render_xlsx(rows: Iterable[list[Any]], whole: bool) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "standings"
    iterator = iter(rows)
    header = next(iterator)
    sheet.append(header)
    number_format = "0" if whole else "0.0"
    for row in iterator:
        sheet.append([neutralise(v) for v in row])
        for cell, name in zip(sheet[sheet.max_row], header, strict=True):
            if _is_points(name):
                cell.number_format = number_format
            elif name == "top_rate":
                cell.number_format = "0.000"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def export_standings(event: Event, fmt: str) -> bytes:
    whole = event.rules.whole_points
    rows = iterate_standings(event)
    if fmt == "csv":
        return render_csv(rows, whole).encode("utf-8")
    if fmt == "json":
        return render_json(rows, event).encode("utf-8")
    if fmt == "xlsx":
        return render_xlsx(rows, whole)
    raise ValueError(f"unknown format {fmt!r}")
