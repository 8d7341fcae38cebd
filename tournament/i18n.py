"""Errors in the reader's language. The engine and the services raise a code with params
beside their English (scoring.messages, services/errors.py); here the same template is looked
up in the active language's translations and filled in, with seats named as the table sees
them ("北 鈴木", never "seat 3") and stages by their label (予選)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from scoring.errors import ScoringError, Seat
from tournament.services.errors import ServiceError, StageName, template

SEAT_WINDS = ("東", "南", "西", "北", "5")
STAGE_LABELS = {
    "qualifier": gettext_lazy("Qualifier"),
    "final": gettext_lazy("Final"),
    "league": gettext_lazy("League"),
}


def stage_label(name: str) -> str:
    return str(STAGE_LABELS.get(name, name))


def seat_label(position: int, name: str = "") -> str:
    """A seat as the table says it: its wind (seat 0 is East, the first dealer), then the name."""
    wind = SEAT_WINDS[position] if 0 <= position < len(SEAT_WINDS) else str(position + 1)
    return f"{wind} {name}".strip()


def _param(value: Any, names: Sequence[str]) -> Any:
    if isinstance(value, Seat):
        seat = int(value)
        return seat_label(seat, names[seat] if 0 <= seat < len(names) else "")
    if isinstance(value, StageName):
        return stage_label(value)
    if isinstance(value, ServiceError | ScoringError):
        text = error_text(value, names)
        return f"{value.field}: {text}" if value.field else text
    return value


def error_text(exc: ServiceError | ScoringError, names: Sequence[str] = ()) -> str:
    """The error's sentence in the active language. `names`: the table's players in seat
    order, so a seat reads "北 鈴木" (without them, its wind alone)."""
    if not exc.code:
        return exc.message
    params = {key: _param(value, names) for key, value in exc.params.items()}
    try:
        return gettext(template(exc.code)).format(**params)
    except (KeyError, IndexError, ValueError):  # a translation naming a param it lacks
        return template(exc.code).format(**params)
