"""A season: several events (a club's league nights) ranked together.

Each event gives every player its total and its number of games; the series' rule says which
events count for a player — every one (`all`), or their best N (`best`, N = `best_of`) — and
`min_games` how many games (over every event of the series) a player needs to be ranked.
Players below it are listed after the ranked ones, without a rank. Equal totals share a rank
(status `tie`), as an event's unresolved tie does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from scoring.messages import fail

RULES = ("all", "best")


@dataclass(frozen=True)
class SeriesRule:
    rule: str = "all"  # all | best
    best_of: int | None = None  # best: how many events count
    min_games: int = 0  # fewer games than this over the series: not ranked

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise fail("value.choice", "rule", value=self.rule, choices=", ".join(RULES))
        if self.rule == "best" and (self.best_of is None or self.best_of < 1):
            raise fail("series.best_of", "best_of")
        if self.min_games < 0:
            raise fail("value.min", "min_games", low=0)


@dataclass(frozen=True)
class EventResult:
    """One player's line in one event: total points and games played."""

    total: Decimal
    games: int


@dataclass
class SeriesRow:
    player: str
    total: Decimal
    games: int
    events: int  # events played
    results: dict[int, EventResult] = field(default_factory=dict)  # by event index
    counted: set[int] = field(default_factory=set)  # the events whose total counts
    rank: int | None = None
    status: str = ""


def rank_series(rule: SeriesRule, events: Sequence[Mapping[str, EventResult]]) -> list[SeriesRow]:
    """Every player of any event, ranked: counted totals highest first, then by name."""
    rows: dict[str, SeriesRow] = {}
    for index, results in enumerate(events):
        for player, result in results.items():
            row = rows.setdefault(player, SeriesRow(player, Decimal(0), 0, 0))
            row.results[index] = result
            row.games += result.games
            row.events += 1
    for row in rows.values():
        played = sorted(row.results, key=lambda i: (-row.results[i].total, i))
        if rule.rule == "best":
            played = played[: rule.best_of]
        row.counted = set(played)
        row.total = sum((row.results[i].total for i in played), Decimal(0))
    ranked = sorted(
        (r for r in rows.values() if r.games >= rule.min_games), key=lambda r: (-r.total, r.player)
    )
    for position, row in enumerate(ranked):
        if position and row.total == ranked[position - 1].total:
            row.rank = ranked[position - 1].rank
            row.status = ranked[position - 1].status = "tie"
        else:
            row.rank = position + 1
    unranked = sorted(
        (r for r in rows.values() if r.games < rule.min_games), key=lambda r: (-r.total, r.player)
    )
    return [*ranked, *unranked]
