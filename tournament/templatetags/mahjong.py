"""The templates' helpers (`{% load mahjong %}`): words for the domain's values in the reader's
language — seat winds, stage and status labels, hand summaries, round headings, points as people
read them — and the statistics' and conditions' rows as the pages draw them."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.encoding import uri_to_iri
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from scoring.rules import Ruleset
from tournament import i18n
from tournament.exports.columns import STATUS_LABELS, Column
from tournament.exports.formats import FORMATS, ExportFormat
from tournament.exports.statistics import HAND_STAT_COLUMNS
from tournament.forms.hands import SEAT_MARK
from tournament.numbers import format_points
from tournament.selectors import games

register = template.Library()


@register.filter
def stage_label(name: str) -> str:
    return i18n.stage_label(name)


@register.filter
def status_label(status: str) -> str:
    """A standings status in words (the page's and the XLSX's), not its code."""
    return str(STATUS_LABELS.get(status, status))


@register.filter
def seat_score(seat: Any, game: Any) -> int | None:
    return games.seat_score(seat, game)


@register.filter
def ordinal(place: int) -> str:
    return i18n.ordinal(place)


@register.filter
def wind(position: int) -> str:
    """A seat's wind in the reader's words (i18n.wind_name: 西, West). Seat 0 is East, the
    starting dealer (起家)."""
    return i18n.wind_name(position)


@register.filter
def wind_marked(position: int) -> str:
    """A seat's wind as a player finds it at the table, by its markers (i18n.wind_marked: 西,
    "West 西"): the seating, a seat's slip, find your seat."""
    return i18n.wind_marked(position)


@register.filter
def wind_short(position: int) -> str:
    """A seat's wind where a printed column is narrow (the round sheet on paper): the marker
    alone, as Japanese shows it (西), the English word's initial beside it ("W 西")."""
    name, marked = i18n.wind_name(position), i18n.wind_marked(position)
    return marked if marked == name else f"{name[0]} {i18n.SEAT_MARKERS[position]}"


@register.filter
def hand_summary(data: dict, names: list[str]) -> str:
    """One line for the hand log: who won what from whom (the input, as recorded)."""
    return i18n.hand_summary(data, names)


@register.filter
def json_pretty(value: object) -> str:
    """Stored data as JSON (what an event file holds), not a Python repr."""
    return json.dumps(value, ensure_ascii=False, indent=2)


@register.filter
def stat(tally: Any, name: str) -> Any:
    """One statistic of a player's tally (scoring/statistics.py): rates to three decimals,
    "—" where there is none."""
    value = tally.value(name) if tally is not None else None
    if value is None:
        return "—"
    return f"{value:.3f}" if name.endswith("_rate") else value


@register.simple_tag
def hand_stat_columns() -> tuple[Column, ...]:
    """The statistics a player's page shows, labelled as the statistics' table and files label
    them: `{% hand_stat_columns as columns %}`, then `column.label`, `tally|stat:column.key`."""
    return HAND_STAT_COLUMNS


@register.simple_tag
def export_formats() -> list[ExportFormat]:
    """The files a page offers, in order (FORMATS): `{% export_formats as formats %}`."""
    return list(FORMATS.values())


@register.filter
def hand_label(label: str) -> str:
    """A hand's label in the reader's language (東1局 0本場 / E1-0)."""
    return i18n.hand_label(label)


@register.filter
def rules_name(rules: Ruleset) -> str:
    """A ruleset's name in the reader's language (天鳳 四人打ち東南戦 / Tenhou 4-player …)."""
    return i18n.rules_name(rules)


@register.filter
def points(value: Any, whole: bool = False) -> str:
    """Points as the downloads write them: whole where the venue keeps whole points."""
    return format_points(value, bool(whole))


@register.filter
def round_heading(number: int) -> str:
    """A round as its column heads it: R1, 1回戦."""
    return i18n.round_heading(number)


@register.filter
def series_cells(row: Any, events: list[Any]) -> list[dict[str, Any]]:
    """A season row's cell per event: its result there (None: not played) and whether it
    counts under the series' rule."""
    return [{"result": row.results.get(k), "counted": k in row.counted} for k in range(len(events))]


@register.filter
def condition_rows(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """A table's conditions (selectors/conditions.py) as the panel lists them: each seat by
    wind and name, where it stands, then tsumo and ron from each other seat in words."""
    names = [seat["player"] for seat in answer["seats"]]
    rows = []
    for position, seat in enumerate(answer["seats"]):
        ways = [(gettext("Tsumo"), seat["tsumo"])]
        for other, need in seat["ron"].items():
            source = i18n.seat_label(int(other), names[int(other)])
            ways.append((gettext("from %(seat)s") % {"seat": source}, need))
        rows.append(
            {
                "seat": i18n.seat_label(position, names[position]),
                "now": seat["now"],
                "ways": [
                    {
                        "way": way,
                        "text": i18n.win_text(need),
                        "points": need.get("points") if isinstance(need, dict) else None,
                        "kind": need if isinstance(need, str) else "win",
                    }
                    for way, need in ways
                ],
            }
        )
    return rows


@register.filter
def place_text(need: Any) -> str:
    return i18n.place_text(need)


# A printed A4 sheet (site.css, @media print) sets its type by how much it holds — the fewer
# tables or names, the larger — so four tables fill the page as sixteen do, and forty go a
# page at a time. Each size's upper bound: tables (the seating for the wall, the round sheet)
# or names (the seating by name).
PRINT_SIZES = {
    "tables": ((2, "xl"), (4, "l"), (6, "m"), (9, "s"), (12, "xs"), (16, "xxs")),
    "names": ((8, "xl"), (16, "l"), (32, "m"), (48, "ms"), (72, "s")),
}


@register.filter
def print_size(count: int, kind: str) -> str:
    """The class of a printed sheet's type size (`print-l`…) for `count` tables or names;
    past the last bound, `print-pages` (the smallest, a page at a time)."""
    for most, size in PRINT_SIZES[kind]:
        if count <= most:
            return f"print-{size}"
    return "print-pages"


@register.filter
def readable_address(uri: str) -> str:
    """An address as a person reads and types it (/events/秋の大会/checkin/, not %E7%A7%8B…)."""
    return uri_to_iri(uri)


@register.filter(is_safe=True)
def with_seat_names(html: str, names: list[str]) -> str:
    """Kept hand-form buttons (HandForm.stand_in's) with this table's seat names in place of
    their marks, each escaped as the form would have drawn it."""
    for i, name in enumerate(names):
        html = html.replace(SEAT_MARK.format(i), conditional_escape(name))
    return mark_safe(html)


@register.filter
def lists_game(states: list[Any], game_id: int | None) -> bool:
    """Whether the dashboard's tables (selectors.tables.TableState) hold the game `game_id`:
    the table on stream is marked on its row, else (an earlier round's, done) under them."""
    return any(state.game.pk == game_id for state in states)
