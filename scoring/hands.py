"""Hand values, one import away: a hand's types (`hand_types`), its parsing from JSON
(`hand_parse`), what a win is worth (`prices`), what each seat pays (`payments`) and who went
bust (`busts`). RULES.md §1. Each lives in its own module; this one gathers their public names
for callers that want one place to import from."""

from __future__ import annotations

from scoring.busts import busted_by, busts_after, is_bust
from scoring.hand_parse import parse_hand, parse_result
from scoring.hand_types import (
    MAX_HAN,
    MAX_YAKUMAN,
    RESULT_TYPES,
    Abort,
    Bust,
    Chombo,
    Draw,
    EmperorWin,
    Hand,
    HandOutcome,
    Nagashi,
    Payment,
    Result,
    Ron,
    Tsumo,
    Win,
    YakumanWin,
    turn_order,
)
from scoring.payments import price_hand
from scoring.prices import Price, basic_points, mangan_price, price, round_up

__all__ = [
    "MAX_HAN",
    "MAX_YAKUMAN",
    "RESULT_TYPES",
    "Abort",
    "Bust",
    "Chombo",
    "Draw",
    "EmperorWin",
    "Hand",
    "HandOutcome",
    "Nagashi",
    "Payment",
    "Price",
    "Result",
    "Ron",
    "Tsumo",
    "Win",
    "YakumanWin",
    "basic_points",
    "busted_by",
    "busts_after",
    "is_bust",
    "mangan_price",
    "parse_hand",
    "parse_result",
    "price",
    "price_hand",
    "round_up",
    "turn_order",
]
