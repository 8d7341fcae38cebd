"""Seating a round: who plays at which table, and the seat winds. Pure data, no database.

- `random`: a random draw that keeps players apart who have met before, as far as it can
  (many random draws, each improved by swaps, scored by the number of repeat pairings);
- `standings`: players in standings order, 1–4 together, 5–8, …
Then `draw_winds` shuffles each table: the first seat is East, the starting dealer (起家).
Byes go to whoever has sat out least (then, by standings, the lowest placed; randomly else).
"""

from __future__ import annotations

import random as _random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import combinations

from scoring.messages import fail

Player = Hashable
METHODS = ("random", "standings")


def pair(a: Player, b: Player) -> frozenset[Player]:
    return frozenset((a, b))


def meetings(tables: Iterable[Sequence[Player]]) -> dict[frozenset[Player], int]:
    """How many times each pair of players sat at one table (the history `seat` avoids)."""
    out: dict[frozenset[Player], int] = {}
    for table in tables:
        for a, b in combinations(table, 2):
            out[pair(a, b)] = out.get(pair(a, b), 0) + 1
    return out


def repeats(tables: Sequence[Sequence[Player]], history: Mapping[frozenset[Player], int]) -> int:
    """Repeat pairings in a seating: for each pair at one table, how often they met before."""
    return sum(history.get(pair(a, b), 0) for t in tables for a, b in combinations(t, 2))


def choose_byes(
    players: Sequence[Player],
    count: int,
    byes_so_far: Mapping[Player, int],
    rng: _random.Random,
    *,
    ranked: bool = False,
) -> list[Player]:
    """Who sits out: fewest byes so far first; then the lowest placed (`ranked`, players in
    standings order) or a random draw."""
    if count <= 0:
        return []
    tiebreak = {p: (-i if ranked else rng.random()) for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (byes_so_far.get(p, 0), tiebreak[p]))[:count]


def seat(
    players: Sequence[Player],
    size: int,
    method: str = "random",
    *,
    history: Mapping[frozenset[Player], int] | None = None,
    rng: _random.Random | None = None,
    tries: int = 60,
) -> list[list[Player]]:
    """Split `players` (a multiple of `size`) into tables; for `standings`, in the order given."""
    if method not in METHODS:
        raise fail("seating.method", "method", method=method, known=", ".join(METHODS))
    if size < 2:
        raise fail("seating.size", "size")
    if len(players) % size:
        raise fail("seating.fill", "players", players=len(players), size=size)
    if len(set(players)) != len(players):
        raise fail("seating.twice", "players")
    rng = rng or _random.Random()
    if method == "standings":
        return [list(players[i : i + size]) for i in range(0, len(players), size)]
    history = history or {}
    best: list[list[Player]] | None = None
    best_cost = -1
    for _ in range(max(1, tries)):
        order = list(players)
        rng.shuffle(order)
        tables = [order[i : i + size] for i in range(0, len(order), size)]
        cost = _improve(tables, history)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost == 0:
            break
    assert best is not None
    return best


def _improve(tables: list[list[Player]], history: Mapping[frozenset[Player], int]) -> int:
    """Swap players between tables while a swap lowers the repeat count (a local search)."""

    def table_cost(t: Sequence[Player]) -> int:
        return sum(history.get(pair(a, b), 0) for a, b in combinations(t, 2))

    costs = [table_cost(t) for t in tables]
    improved = True
    while improved and sum(costs):
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            if costs[i] + costs[j] == 0:
                continue
            for a in range(len(tables[i])):
                for b in range(len(tables[j])):
                    ti, tj = tables[i][:], tables[j][:]
                    ti[a], tj[b] = tj[b], ti[a]
                    ci, cj = table_cost(ti), table_cost(tj)
                    if ci + cj < costs[i] + costs[j]:
                        tables[i], tables[j], costs[i], costs[j] = ti, tj, ci, cj
                        improved = True
    return sum(costs)


def draw_winds(table: Sequence[Player], rng: _random.Random) -> list[Player]:
    """The table in seat order after drawing winds: East (the starting dealer) first."""
    order = list(table)
    rng.shuffle(order)
    return order
