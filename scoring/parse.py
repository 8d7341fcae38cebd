"""Reading JSON documents into checked values, every error naming its field path."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.errors import Seat
from scoring.messages import fail
from scoring.names import normalize_name

_MISSING: Any = object()

# No score, point or count is anywhere near a billion; beyond it a number is a typo or an
# attack (PostgreSQL's integer column ends at 2^31, float arithmetic at 1e308).
INT_LIMIT = 10**9
NUMBER_LIMIT = 1e15  # what the JSON reader lets through at all


class Unusable:
    """A JSON number no field can take (NaN, Infinity, beyond ±1e15, thousands of digits).
    The reader leaves this in its place; every type check refuses it, so the error names the
    field it was found in, like any other wrong value."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        if len(self.text) > 20:
            return f"a number of {len(self.text)} characters"
        return self.text


def _parse_int(text: str) -> Any:
    return int(text) if len(text.lstrip("-")) <= 15 else Unusable(text)


def _parse_float(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) and abs(value) <= NUMBER_LIMIT else Unusable(text)


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]')


def _deep_path(text: str, limit: int = 6) -> str:
    """Where a document nests too deeply: the path of its first `limit` levels, then "…"."""
    stack: list[list[Any]] = []  # [kind, key or index]
    key = None
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            if stack and stack[-1][0] == "{":
                stack[-1][1] = key
            stack.append([token, 0 if token == "[" else None])
            if len(stack) > limit:
                break
        elif token in "]}":
            if stack:
                stack.pop()
        elif token == ",":
            if stack and stack[-1][0] == "[":
                stack[-1][1] += 1
        elif token != ":":
            key = json.loads(token)
    parts = ""
    for kind, where in stack[:-1]:
        parts += f"[{where}]" if kind == "[" else f".{where}" if parts else str(where)
    return (parts or "input") + "…"


def load_json(text: str) -> Any:
    """A JSON document, or a ScoringError naming where it is unusable: bad syntax, nesting
    deeper than Python can read, and numbers no field takes (left as `Unusable`)."""
    try:
        return json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=Unusable
        )
    except json.JSONDecodeError as exc:
        raise fail(
            "json.invalid", "input", reason=exc.msg, line=exc.lineno, column=exc.colno
        ) from None
    except RecursionError:
        raise fail("json.deep", _deep_path(text)) from None


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Doc:
    """One JSON object at `path`; its getters check types and ranges and name the field."""

    def __init__(self, data: Any, path: str = "") -> None:
        if not isinstance(data, Mapping):
            raise fail("value.object", path or "input")
        self.data = data
        self.path = path

    def field(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def only(self, *keys: str) -> Doc:
        """Refuse keys this document does not know (a typo would otherwise be ignored)."""
        for key in self.data:
            if key not in keys:
                raise fail("value.unknown_key", self.field(key), known=", ".join(keys))
        return self

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        if self.data.get(key) is None:
            if default is _MISSING:
                raise fail("value.required", self.field(key))
            return default
        return self.data[key]

    def int(
        self, key: str, default: Any = _MISSING, low: int | None = None, high: int | None = None
    ) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        return check_int(value, self.field(key), low, high)

    def number(self, key: str, default: Any = _MISSING, low: float | None = None) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        if not (is_int(value) or isinstance(value, float)) or not math.isfinite(value):
            raise fail("value.number", self.field(key), value=value)
        if low is not None and value < low:
            raise fail("value.min", self.field(key), low=f"{low:g}")
        return value

    def bool(self, key: str, default: bool = False) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise fail("value.bool", self.field(key))
        return value

    def text(self, key: str, choices: Sequence[str] | None = None, default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, str):
            raise fail("value.text", self.field(key))
        if choices is not None and value not in choices:
            raise fail("value.choice", self.field(key), value=value, choices=", ".join(choices))
        return value

    def seat(self, key: str, players: int, default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        return check_seat(value, self.field(key), players)

    def seats(self, key: str, players: int, default: Any = ()) -> tuple[int, ...]:
        value = self.raw(key, default)
        path = self.field(key)
        if not isinstance(value, list | tuple):
            raise fail("seat.list", path)
        seats = tuple(check_seat(v, f"{path}[{i}]", players) for i, v in enumerate(value))
        for i, seat in enumerate(seats):
            if seat in seats[:i]:
                raise fail("seat.twice", f"{path}[{i}]", seat=Seat(seat))
        return seats

    def doc(self, key: str) -> Doc:
        return Doc(self.raw(key), self.field(key))

    def list(self, key: str, default: Any = _MISSING) -> list[Any]:
        value = self.raw(key, default)
        if not isinstance(value, list | tuple):
            raise fail("value.list", self.field(key))
        return list(value)


def check_int(value: Any, path: str, low: int | None = None, high: int | None = None) -> int:
    if not is_int(value):
        raise fail("value.int", path, value=value)
    low = -INT_LIMIT if low is None else low
    high = INT_LIMIT if high is None else high
    if value < low:
        raise fail("value.min", path, low=low)
    if value > high:
        raise fail("value.max", path, high=high)
    return value


def check_seat(value: Any, path: str, players: int) -> int:
    if not is_int(value) or not 0 <= value < players:
        raise fail("seat.unknown", path, value=value, last=players - 1)
    return value


def check_table_names(names: Sequence[Any], path: str) -> list[str]:
    """The players of one table, in seat order: names (in their one spelling), each seated
    once."""
    out: list[str] = []
    for i, raw in enumerate(names):
        name = normalize_name(raw, f"{path}[{i}]")
        if name in out:
            raise fail("name.twice_at_table", f"{path}[{i}]", name=name)
        out.append(name)
    return out
