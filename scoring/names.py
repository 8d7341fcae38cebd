"""Names as people type them, in one normal form: the one function every entrance uses (the
engine's tables, the organizer forms, event files, the admin).

NFKC folds what looks the same into one spelling (full-width ｖｉｃｔｉｍ1 is victim1, half-width
ｶﾅ is カナ), whitespace is trimmed and collapsed, and control characters are refused: a NUL
cannot be stored by PostgreSQL, a BEL breaks spreadsheets, and neither is ever meant.

Format characters — zero-width spaces and joiners, the byte-order mark a spreadsheet puts at a
paste's start, bidi controls such as U+202E that turn the text around — are removed: invisible,
they would make `PA1` and `PA1`+U+200B two players who look the same. A name left with nothing
visible is refused.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from scoring.messages import fail

NAME_MAX = 100  # a player's name (the database column's length)
EVENT_NAME_MAX = 200
# Tabs and line breaks inside a name are whitespace a paste or a spreadsheet brought in: they
# are collapsed like spaces. Every other control character (C0, DEL, C1) and lone surrogates
# (which UTF-8 cannot encode) are refused.
_WHITESPACE_CONTROLS = frozenset("\t\n\r")


def _control(text: str) -> str | None:
    for char in text:
        if char in _WHITESPACE_CONTROLS:
            continue
        if unicodedata.category(char) in ("Cc", "Cs"):
            return char
    return None


def normalize_name(
    value: Any, field: str = "name", *, max_length: int = NAME_MAX, event: bool = False
) -> str:
    """The name in its one spelling, or a ScoringError naming `field` and what to fix.
    `event`: an event's name (the message says so), not a player's."""
    empty = "name.event_empty" if event else "name.player_empty"
    if not isinstance(value, str):
        raise fail(empty, field)
    bad = _control(value)
    if bad is not None:
        raise fail("name.control", field, char=f"U+{ord(bad):04X}")
    folded = unicodedata.normalize("NFKC", value)
    name = " ".join("".join(c for c in folded if unicodedata.category(c) != "Cf").split())
    if not name:
        if value.strip():  # something was typed, all of it invisible
            raise fail("name.invisible", field)
        raise fail(empty, field)
    if len(name) > max_length:
        raise fail("name.long", field, length=len(name), max=max_length)
    return name


def name_key(text: str) -> str:
    """A name as a search compares and sorts it: one spelling (NFKC), any case, no spaces —
    鈴木花子 is 鈴木 花子, ｓｕｚｕｋｉ is Suzuki. "Find your seat" looks for it inside a name,
    check-in compares it whole."""
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())
