"""Who a player is ranked against: the stage's totals, a table's players taken out. A tie on
total is not enough: a player reaches rank `target` when fewer than `target` players end at or
above their total (CONTRACT §6)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from decimal import Decimal

from scoring.standings import Player

ANY, NONE, CONTINUES = "any", "none", "continues"  # needs other than a win


class StageField:
    """The stage's totals with this table's players taken out: who ends at or above a total."""

    def __init__(self, standings: Mapping[Player, Decimal], table: Sequence[Player]) -> None:
        seated = set(table)
        self.others = sorted(total for player, total in standings.items() if player not in seated)
        self.base = [standings[player] for player in table]

    def totals(self, points: Sequence[float]) -> list[Decimal]:
        return [b + Decimal(str(p)) for b, p in zip(self.base, points, strict=True)]

    def at_or_above(self, totals: Sequence[Decimal], seat: int) -> int:
        """How many players other than `seat` end at or above its total."""
        mine = totals[seat]
        table = sum(1 for s, t in enumerate(totals) if s != seat and t >= mine)
        return len(self.others) - bisect_left(self.others, mine) + table

    def above(self, totals: Sequence[Decimal], seat: int) -> int:
        """How many players end above `seat`'s total."""
        mine = totals[seat]
        table = sum(1 for t in totals if t > mine)
        return len(self.others) - bisect_right(self.others, mine) + table
