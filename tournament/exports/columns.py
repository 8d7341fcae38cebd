"""A table's columns, declared once: the key (CONTRACT §2/§4, never renamed), the heading in
the reader's language and the kind of value. The files (formats.py), the page's
django-tables2 columns (html.py) and the API's answer schema (`answer_schema`) are all made
from the same declaration."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from pydantic import BaseModel, create_model

from tournament.i18n import ordinal, round_heading

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


class Kind(Enum):
    """How a column's values are written: a CSV cell's text, an XLSX cell's number format,
    the API's type."""

    TEXT = "text"  # as it is; a cell a spreadsheet would run as a formula neutralised
    COUNT = "count"  # a whole number: rank, games, hands
    NUMBER = "number"  # a number as it is (a rating)
    POINTS = "points"  # whole or to 0.1, as the venue counts
    FRACTION = "fraction"  # three decimals: a rate, a skill's mean and spread
    AVERAGE_RANK = "average_rank"  # two decimals
    STATUS = "status"  # a CONTRACT §2 code; the XLSX and the page say it in words
    NAMES = "names"  # a list of names: joined by "; " in a file, a list in the API
    COUNTRY = "country"  # an ISO 3166-1 code (CONTRACT §2), in every format

    @property
    def api_type(self) -> Any:
        return API_TYPES.get(self, float)

    def number_format(self, whole: bool) -> str | None:
        """The XLSX cell's number format (None: the cell as it is)."""
        if self is Kind.POINTS:
            return "0" if whole else "0.0"
        return NUMBER_FORMATS.get(self)


API_TYPES: dict[Kind, Any] = {
    Kind.TEXT: str,
    Kind.COUNT: int,
    Kind.STATUS: str,
    Kind.NAMES: list[str],
    Kind.COUNTRY: str,
}  # every other kind: float
NUMBER_FORMATS = {Kind.FRACTION: "0.000", Kind.AVERAGE_RANK: "0.00"}


@dataclass(frozen=True)
class Column:
    """One column of a table. `best_first`: more is better (the page's first tap sorts it
    highest first); `drop`: the venue screen may hide it to keep its type large (screen.js:
    level 1 first), 0 never; `optional`: the value may be missing (None)."""

    key: str
    label: Any  # a lazy translation: said in the reader's language when written
    kind: Kind = Kind.TEXT
    best_first: bool = False
    drop: int = 0
    optional: bool = False
    # A code's words in the reader's language (the XLSX), as a status's are (STATUS_LABELS);
    # the CSV and JSON keep the code. Left out of the comparison: a dict is no key.
    words: Mapping[str, Any] | None = field(default=None, compare=False)

    @property
    def heading(self) -> str:
        return str(self.label)


_round_heading = lazy(round_heading, str)
_ordinal = lazy(ordinal, str)


def _event_heading(number: int) -> str:
    return gettext("Event %(number)d") % {"number": number}


_event_label = lazy(_event_heading, str)


def round_column(number: int) -> Column:
    """A round's points (`r1`: 1回戦), empty where the player did not play it."""
    return Column(f"r{number}", _round_heading(number), Kind.POINTS, optional=True)


def place_column(place: int) -> Column:
    """How many times a player came `place`th at a table (`rank_1`: 1位)."""
    return Column(f"rank_{place}", _ordinal(place), Kind.COUNT, drop=1)


def event_column(number: int) -> Column:
    """A season's event (`e1`: 第1戦): the player's total there, empty where not played."""
    return Column(f"e{number}", _event_label(number), Kind.POINTS, optional=True)


def answer_schema(name: str, columns: tuple[Column, ...]) -> type[BaseModel]:
    """The API's answer for one row of a table, typed from its columns (django-ninja takes a
    pydantic model as a response schema; its field order is the columns')."""
    fields: dict[str, Any] = {
        c.key: (c.kind.api_type | None, None) if c.optional else (c.kind.api_type, ...)
        for c in columns
    }
    return create_model(name, **fields)
