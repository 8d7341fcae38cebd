"""What a ruleset's knobs may hold: each knob's choices, declared once as a `Literal` (the
field's type in rules.Ruleset, and what validation checks a value against), the fixed payment
table's row, and the readers that turn a JSON value (lists, string keys) into plain data with
an error naming the knob. The knobs themselves, each with its comment and source, are the
fields of `rules.Ruleset`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal, get_args

from scoring.messages import fail
from scoring.parse import INT_LIMIT, is_int

SCORE_STEP = 100  # every payment is a multiple of this, and every score unless …
HALF_STEP = 50  # … a tsumo's honba splits into fifties among the payers (Ruleset.score_step)
WINDS = "ESWN"

# Each knob's choices, declared once: the field's type is the alias, and validation checks a
# value against `get_args(alias)` (in this order, which is also the order an error lists them).
Game = Literal["riichi", "emperor"]
Rounding = Literal["exact", "gosha_rokunyu", "half_up"]
Tie = Literal["seat", "split"]
LeftoverDeposits = Literal["top", "lost"]
LeftoverDepositsTie = Literal["nearest_dealer", "split_down"]
MultipleRonHonba = Literal["each", "nearest"]
MultipleRonSticks = Literal["nearest", "own"]
NagashiRule = Literal[None, "mangan", "yakuman"]
NagashiMultiple = Literal["first", "all"]
NagashiDeposits = Literal["winner", "table"]
NagashiFlow = Literal["win", "draw"]
AbortReason = Literal["kyuushu", "suufon", "suukaikan", "suucha", "sanchahou"]
AbortRule = Literal["repeat", "pass", "draw"]
ChomboRule = Literal["reverse_mangan", "fixed", "result_penalty"]
PaoRonHonba = Literal["discarder", "split", "pao"]
RenchanRule = Literal["tenpai", "always", "never"]
AgariYame = Literal["never", "always", "if_top", "auto"]
Bust = Literal["below_zero", "zero_or_below", "never"]
BustAttribution = Literal["receivers", "sequential"]
SanmaTsumo = Literal["loss", "split"]
# The yakuman some rulesets count double (ダブル役満), named as the knob `double_yakuman` lists
# them: 国士無双十三面待ち, 四暗刻単騎, 純正九蓮宝燈, 大四喜.
DoubleYakuman = Literal["kokushi_13", "suuankou_tanki", "junsei_chuuren", "daisuushii"]

GAMES: tuple[Game, ...] = get_args(Game)
ABORT_REASONS: tuple[AbortReason, ...] = get_args(AbortReason)
ABORT_RULES: tuple[AbortRule, ...] = get_args(AbortRule)
RENCHAN_RULES: tuple[RenchanRule, ...] = get_args(RenchanRule)
DOUBLE_YAKUMAN: tuple[DoubleYakuman, ...] = get_args(DoubleYakuman)
ABORT_NAMES = {
    "kyuushu": "九種九牌",
    "suufon": "四風連打",
    "suukaikan": "四開槓",
    "suucha": "四家立直",
    "sanchahou": "三家和",
}


@dataclass(frozen=True)
class PaymentRow:
    """One row of a fixed payment table (a parlour's 1000-point table, for instance)."""

    han: int  # the row applies from this many han up to the next row
    ron: int  # non-dealer winner, paid by the discarder
    tsumo_child: int  # non-dealer winner's tsumo: what each other non-dealer pays
    tsumo_dealer: int  # non-dealer winner's tsumo: what the dealer pays
    dealer_ron: int
    dealer_tsumo: int  # dealer winner's tsumo: what each other player pays

    @classmethod
    def from_json(cls, data: Any, path: str) -> PaymentRow:
        if not isinstance(data, Mapping):
            raise fail("rules.payment_row", path)
        known = {"han", "ron", "tsumo", "dealer_ron", "dealer_tsumo"}
        for key in data:
            if key not in known:
                raise fail("value.unknown_key", f"{path}.{key}", known=", ".join(sorted(known)))
        tsumo = data.get("tsumo")
        if not (isinstance(tsumo, list | tuple) and len(tsumo) == 2):
            raise fail("rules.payment_tsumo", f"{path}.tsumo")
        values = {
            "han": data.get("han", 0),
            "ron": data.get("ron"),
            "tsumo_child": tsumo[0],
            "tsumo_dealer": tsumo[1],
            "dealer_ron": data.get("dealer_ron"),
            "dealer_tsumo": data.get("dealer_tsumo"),
        }
        for key, value in values.items():
            if not is_int(value) or value < 0:
                raise fail("value.whole_nonneg", f"{path}.{key}")
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        return {
            "han": self.han,
            "ron": self.ron,
            "tsumo": [self.tsumo_child, self.tsumo_dealer],
            "dealer_ron": self.dealer_ron,
            "dealer_tsumo": self.dealer_tsumo,
        }


def is_number(value: Any) -> bool:
    # Bounded: no knob is near a billion points, and 1e308 in an uma overflows the arithmetic.
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and abs(value) <= INT_LIMIT
    )


def frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))


def to_json(value: Any) -> Any:
    if isinstance(value, PaymentRow):
        return value.to_json()
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    return value


# --- reading JSON-ish values into plain data (made frozen by rules_check.normalise) -----------


def read_ints(value: Any, name: str) -> list[int]:
    if not isinstance(value, list | tuple) or not all(is_int(v) for v in value):
        raise fail("rules.ints", f"ruleset.{name}")
    return list(value)


def read_names(value: Any, name: str, known: tuple[str, ...]) -> tuple[str, ...]:
    """A list of names, each one of `known` (an error names the first that is not), kept in
    `known`'s order so that two spellings of one set are one ruleset."""
    if not isinstance(value, list | tuple):
        raise fail("rules.names", f"ruleset.{name}", known=", ".join(known))
    for i, item in enumerate(value):
        if item not in known:
            raise fail("value.choice", f"ruleset.{name}[{i}]", value=item, choices=", ".join(known))
    return tuple(k for k in known if k in value)


def read_key_int(key: Any, name: str) -> int:
    try:
        return int(key)
    except (TypeError, ValueError):
        raise fail("rules.key_int", f"ruleset.{name}", key=key) from None


def read_table_map(value: Any, name: str, players: int | None) -> dict[int, tuple[float, ...]]:
    # A bare list is the table for the ruleset's usual table size (uma only).
    if isinstance(value, list | tuple) and players is not None:
        value = {players: value}
    if not isinstance(value, Mapping):
        raise fail("rules.table_map", f"ruleset.{name}")
    out = {}
    for key, table in value.items():
        k = read_key_int(key, name)
        if not isinstance(table, list | tuple) or not all(is_number(v) for v in table):
            raise fail("rules.rank_list", f"ruleset.{name}.{k}")
        out[k] = tuple(table)
    return out


def read_str_map(value: Any, name: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(isinstance(v, str) for v in value.values()):
        raise fail("rules.str_map", f"ruleset.{name}")
    return {str(k): v for k, v in value.items()}


def read_int_map(value: Any, name: str) -> dict[int, int]:
    if not isinstance(value, Mapping) or not all(is_int(v) for v in value.values()):
        raise fail("rules.int_map", f"ruleset.{name}")
    return {read_key_int(k, name): v for k, v in value.items()}


def read_limits(value: Any) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list | tuple) or not value:
        raise fail("rules.limits", "ruleset.limits")
    rows = []
    for i, row in enumerate(value):
        if not (isinstance(row, list | tuple) and len(row) == 2 and all(is_int(v) for v in row)):
            raise fail("rules.limit_row", f"ruleset.limits[{i}]")
        rows.append((row[0], row[1]))
    return tuple(rows)


def check_uma_table(table: tuple[float, ...], players: int, path: str) -> None:
    """An uma table has a value per rank and sums to zero."""
    if len(table) != players:
        raise fail("rules.uma_length", path, players=players)
    if abs(sum(table)) > 1e-9:
        raise fail("rules.uma_sum", path, total=f"{sum(table):g}")
