"""Seating a round: who plays at which table, and the seat winds. Pure data, no database.

- `random`: a random draw that keeps players apart who have met before, as far as it can
  (many random draws, each improved by swaps, scored by the number of repeat pairings);
- `standings`: players in standings order, 1–4 together, 5–8, …;
- `swiss`: by standings, then swaps between neighbouring tables (a player moves one table up
  or down at most) while a swap lowers the repeat pairings;
- `interval`: players 1, 1+k, 1+2k, … together (k the step, the number of tables unless
  given), the strong spread over the tables;
- a round of a whole-day plan (scoring/plans.py) is seated as the plan says;
- `draw_dealer`: the last round's tables kept as they sat — the same players in the same turn
  order — and only each table's starting dealer drawn (a Baba final's seats are drawn once,
  before hanchan 7; the services choose it as the method "same").
Then `assign_winds` orders each table: the first seat is East, the starting dealer (起家), and
each player takes the wind they have had least (at a table with no history, drawn at random).
Byes go to whoever has sat out least (then, by standings, the lowest placed; randomly else).

Teams (issue 34): given each player's team, every method keeps teammates apart where it can —
a teammate at one's table costs more than any repeat meeting (TEAMMATE), so it goes first.
`standings` and `swiss` do it by swaps between neighbouring tables, then — only while teammates
still sit together — two tables apart, three, … (each player moved as few tables as it takes),
`interval` by swapping players next to each other in the standings, a random draw by its swaps.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import combinations, pairwise, permutations
from typing import Any

from scoring.messages import fail

Player = Hashable
METHODS = ("random", "standings", "swiss", "interval")
# A teammate at one's table weighs more than meeting someone a hundred times: a seating never
# trades a teammate apart for a repeat avoided.
TEAMMATE = 100


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
    step: int | None = None,
    teams: Mapping[Player, Hashable] | None = None,
) -> list[list[Player]]:
    """Split `players` (a multiple of `size`) into tables; for `standings`, `swiss` and
    `interval`, `players` are in standings order. `teams`: each player's team (a player not
    in it plays for themselves), teammates kept apart where possible."""
    if method not in METHODS:
        raise fail("seating.method", "method", method=method, known=", ".join(METHODS))
    if size < 2:
        raise fail("seating.size", "size")
    if len(players) % size:
        raise fail("seating.fill", "players", players=len(players), size=size)
    if len(set(players)) != len(players):
        raise fail("seating.twice", "players")
    rng = rng or _random.Random()
    history = history or {}
    team_of = teams or {}

    def teammates(a: Player, b: Player) -> int:
        team = team_of.get(a)
        return TEAMMATE if team is not None and team == team_of.get(b) else 0

    def met(a: Player, b: Player) -> int:
        return history.get(pair(a, b), 0) + teammates(a, b)

    if method == "standings":
        return swiss(players, size, teammates, teammates if team_of else None)
    if method == "swiss":
        return swiss(players, size, met, teammates if team_of else None)
    if method == "interval":
        return rank_swaps(interval(players, size, step), players, teammates)
    return best_draw(players, size, met, rng, tries)


def best_draw(
    players: Sequence[Any],
    size: int,
    met: Callable[[Any, Any], int],
    rng: _random.Random,
    tries: int,
) -> list[list[Any]]:
    """The best of `tries` random draws, each improved by swaps (swap_descent), scored by
    Σ met(a, b) over tablemates; the first with none wins at once."""
    best: list[list[Any]] | None = None
    best_cost = -1
    for _ in range(max(1, tries)):
        order = list(players)
        rng.shuffle(order)
        tables = [order[i : i + size] for i in range(0, len(order), size)]
        cost = swap_descent(tables, met)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost == 0:
            break
    assert best is not None
    return best


def swiss(
    players: Sequence[Player],
    size: int,
    met: Callable[[Player, Player], int],
    apart: Callable[[Player, Player], int] | None = None,
) -> list[list[Player]]:
    """Tables by standings, then the best swap between two neighbouring tables while one lowers
    Σ met(a, b) over tablemates (repeat pairings, teammates): a player moves one table at
    most, so the strong still meet the strong, and nobody meets again where such a swap
    avoids it. Then, if `apart` (teammates) still finds pairs, swaps reach two tables, three,
    … while one lowers Σ apart(a, b): teammates are kept apart wherever it is possible, each
    player moved as few tables as it takes."""
    tables = [list(players[i : i + size]) for i in range(0, len(players), size)]
    home = {p: i // size for i, p in enumerate(players)}  # the table the standings give
    _swaps(tables, home, met, 1)
    if apart is not None:
        for reach in range(2, len(tables)):
            if not _swaps(tables, home, apart, reach):
                break
    return tables


def _swaps(
    tables: list[list[Player]],
    home: Mapping[Player, int],
    met: Callable[[Player, Player], int],
    reach: int,
) -> int:
    """The best swap between two tables up to `reach` apart, keeping everyone within `reach`
    tables of `home`, while one lowers Σ met(a, b) over tablemates; in place. What is left."""
    size = len(tables[0]) if tables else 0

    def cost(t: Sequence[Player]) -> int:
        return sum(met(a, b) for a, b in combinations(t, 2))

    costs = [cost(t) for t in tables]
    for _ in range(len(tables) * size * size * reach):  # each swap lowers the total: a bound
        best = None
        for i in range(len(tables)):
            for j in range(i + 1, min(i + reach + 1, len(tables))):
                before = costs[i] + costs[j]
                if not before:
                    continue
                here, there = tables[i], tables[j]
                for a in range(size):
                    for b in range(size):
                        if abs(home[here[a]] - j) > reach or abs(home[there[b]] - i) > reach:
                            continue  # never further from where the standings put them
                        ti, tj = here[:], there[:]
                        ti[a], tj[b] = tj[b], ti[a]
                        ci, cj = cost(ti), cost(tj)
                        gain = before - ci - cj
                        if gain > 0 and (best is None or gain > best[0]):
                            best = (gain, i, j, ti, tj, ci, cj)
        if best is None:
            break
        _gain, i, j, tables[i], tables[j], costs[i], costs[j] = best
    return sum(costs)


def interval(players: Sequence[Player], size: int, step: int | None = None) -> list[list[Player]]:
    """Players 1, 1+k, 1+2k, … at one table, 2, 2+k, … at the next (k = `step`, the number of
    tables unless given): standings order in blocks of k tables, each block spread across
    its tables. A last block too short for k tables spreads over the tables it fills."""
    count = len(players) // size
    k = count if not step else max(1, min(step, count))
    tables: list[list[Player]] = []
    for start in range(0, len(players), k * size):
        block = players[start : start + k * size]
        width = len(block) // size
        tables += [list(block[j::width]) for j in range(width)]
    return tables


def rank_swaps(
    tables: list[list[Player]], players: Sequence[Player], met: Callable[[Player, Player], int]
) -> list[list[Player]]:
    """Swap two players next to each other in the standings, at different tables, while a
    swap lowers Σ met(a, b) over tablemates: each moves one place in the order a method
    seated by, no further. Changes `tables` in place; returns them."""
    where = {p: (t, k) for t, table in enumerate(tables) for k, p in enumerate(table)}

    def cost(t: Sequence[Player]) -> int:
        return sum(met(a, b) for a, b in combinations(t, 2))

    improved = True
    while improved:
        improved = False
        for a, b in pairwise(players):
            (ta, ka), (tb, kb) = where[a], where[b]
            if ta == tb:
                continue
            before = cost(tables[ta]) + cost(tables[tb])
            if not before:
                continue
            tables[ta][ka], tables[tb][kb] = b, a
            if cost(tables[ta]) + cost(tables[tb]) < before:
                where[a], where[b] = (tb, kb), (ta, ka)
                improved = True
            else:
                tables[ta][ka], tables[tb][kb] = a, b
    return tables


def assign_winds(
    table: Sequence[Player],
    winds_so_far: Mapping[Player, Sequence[int]],
    rng: _random.Random,
) -> list[Player]:
    """The table in seat order, East first: each player at the wind they have had least — the
    order with the least Σ (times at that wind)², ties drawn at random."""
    orders = list(permutations(range(len(table))))
    rng.shuffle(orders)

    def had(p: Player, k: int) -> int:
        counts = winds_so_far.get(p, ())
        return counts[k] if k < len(counts) else 0

    best = min(orders, key=lambda o: sum(had(table[j], k) ** 2 for k, j in enumerate(o)))
    return [table[j] for j in best]


def swap_descent(tables: list[list[Any]], met: Callable[[Any, Any], int]) -> int:
    """Swap two players of two tables while a swap lowers Σ met(a, b) over the pairs at each
    table; the tables are changed in place; returns what is left. (Random seating here, and
    each round a whole-day plan draws, scoring/plans.py.)"""

    def table_cost(t: Sequence[Any]) -> int:
        return sum(met(a, b) for a, b in combinations(t, 2))

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


def draw_dealer(table: Sequence[Player], rng: _random.Random) -> list[Player]:
    """The table in the same turn order, a drawn seat first as its starting dealer (起家): a
    rotation, so everyone keeps the players on their left and right (each seat's 下家 stays
    theirs) and only who deals first is chosen."""
    if not table:
        return []
    start = rng.randrange(len(table))
    return [*table[start:], *table[:start]]
