"""Players' statistics from hand records, exactly as CONTRACT §4 "Statistics" defines them.

A `Tally` is fed one recorded hand at a time for one seat (the hand as entered — CONTRACT §1
hand JSON — with the dealer and the score changes the flow derived) and says how often that
player won, dealt in and declared riichi, and what their wins and deal-ins were worth. Pure: the
web app's selector reads the rows and feeds them here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

STATISTICS = (
    "hands",
    "wins",
    "tsumo_wins",
    "win_rate",
    "deal_ins",
    "deal_in_rate",
    "riichi",
    "riichi_rate",
    "dealer_wins",
    "average_win",
    "average_deal_in",
)
RATES = {"win_rate": "wins", "deal_in_rate": "deal_ins", "riichi_rate": "riichi"}


def winners(result: Mapping[str, Any]) -> list[int]:
    """Who won the hand by ron or tsumo (nagashi is not a win here): several on a double ron.
    The card game's ron names its one winner as `winner`, like a tsumo."""
    kind = result.get("type")
    if kind == "ron" and "wins" in result:
        return [int(w["seat"]) for w in result["wins"]]
    if kind in ("ron", "tsumo"):
        return [int(result["winner"])]
    return []


@dataclass
class Tally:
    hands: int = 0
    wins: int = 0
    tsumo_wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    dealer_wins: int = 0
    won: int = 0  # the winner's score changes, summed over their wins
    lost: int = 0  # the discarder's losses (positive), summed over their deal-ins

    def add(self, seat: int, data: Mapping[str, Any], dealer: int, deltas: Sequence[int]) -> None:
        """One hand of a finished game, from `seat`'s side."""
        result = data.get("result") or {}
        self.hands += 1
        if seat in (data.get("riichi") or ()):
            self.riichi += 1
        if seat in winners(result):
            self.wins += 1
            self.won += deltas[seat]
            if result.get("type") == "tsumo":
                self.tsumo_wins += 1
            if seat == dealer:
                self.dealer_wins += 1
        elif result.get("type") == "ron" and result.get("discarder") == seat:
            self.deal_ins += 1  # a double ron is one deal-in
            self.lost -= deltas[seat]

    def merge(self, other: Tally) -> None:
        for name in ("hands", "wins", "tsumo_wins", "deal_ins", "riichi", "dealer_wins"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.won += other.won
        self.lost += other.lost

    def value(self, name: str) -> int | float | None:
        """One statistic: counts; rates as fractions with three decimals; averages in whole
        points; None where there is nothing to divide by."""
        if name in RATES:
            return round(getattr(self, RATES[name]) / self.hands, 3) if self.hands else None
        if name == "average_win":
            return round(self.won / self.wins) if self.wins else None
        if name == "average_deal_in":
            return round(self.lost / self.deal_ins) if self.deal_ins else None
        return int(getattr(self, name))

    def to_json(self) -> dict[str, Any]:
        return {name: self.value(name) for name in STATISTICS}
