"""What a win is worth: basic points from han and fu (or a venue's payment table), the
limits, and the ron/tsumo payments rounded to the venue's unit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.rules import Ruleset

# --- prices -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Price:
    """What a win is worth, payer by payer, before honba."""

    ron: int
    tsumo_child: int  # each non-dealer payer of a tsumo
    tsumo_dealer: int  # the dealer, paying a non-dealer's tsumo


def round_up(value: float, unit: int) -> int:
    return int(-(-value // unit) * unit)


def basic_points(rules: Ruleset, han: int | None, fu: int | None, yakuman: float | None) -> float:
    """b in RULES.md §1 (formula rulesets)."""
    if yakuman is not None:
        return 8000 * yakuman
    assert han is not None
    if rules.kazoe_han is not None and han >= rules.kazoe_han:
        return 8000
    for limit_han, value in reversed(rules.limits):
        if han >= limit_han:
            return value
    fu = 30 if fu is None else fu
    mangan = rules.mangan_value()
    if rules.kiriage and (fu, han) in ((30, 4), (60, 3)):
        return mangan
    return min(fu * 2 ** (han + 2), mangan)


def price(
    rules: Ruleset,
    *,
    dealer_wins: bool,
    han: int | None = None,
    fu: int | None = None,
    yakuman: float | None = None,
) -> Price:
    unit = rules.unit
    if rules.payment_table is not None:
        row, k = _table_row(rules, han, yakuman)
        if dealer_wins:
            each = round_up(row.dealer_tsumo * k, unit)
            return Price(round_up(row.dealer_ron * k, unit), each, each)
        return Price(
            round_up(row.ron * k, unit),
            round_up(row.tsumo_child * k, unit),
            round_up(row.tsumo_dealer * k, unit),
        )
    b = basic_points(rules, han, fu, yakuman)
    if dealer_wins:
        each = round_up(2 * b, unit)
        return Price(round_up(6 * b, unit), each, each)
    return Price(round_up(4 * b, unit), round_up(b, unit), round_up(2 * b, unit))


def _table_row(rules: Ruleset, han: int | None, yakuman: float | None) -> tuple[Any, float]:
    assert rules.payment_table is not None and rules.payment_table_yakuman is not None
    if yakuman is not None:
        return rules.payment_table_yakuman, yakuman
    assert han is not None
    if rules.kazoe_han is not None and han >= rules.kazoe_han:
        return rules.payment_table_yakuman, 1
    row = rules.payment_table[0]
    for candidate in rules.payment_table:
        if han >= candidate.han:
            row = candidate
    return row, 1


def mangan_price(rules: Ruleset, *, dealer_wins: bool) -> Price:
    return price(rules, dealer_wins=dealer_wins, han=rules.mangan_han, fu=30)
