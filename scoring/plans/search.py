"""The tabu search for a day with the fewest repeated meetings, where no known design fits
(Dotú & Van Hentenryck's for the social golfer problem; see the package's text)."""

from __future__ import annotations

import random as _random
from itertools import combinations

from scoring.plans.designs import affine, plane_field
from scoring.seating import best_draw

# The tabu search's work: swaps it weighs before it settles for the best plan found. About
# 4 s of Python on one core of the CI machine at most (make bench prints the times).
WORK = 3_000_000
ATTEMPTS = 12  # whole days drawn before the tabu search improves the best of them
NODES = 4000  # tables a round's depth-first search tries before it gives up
SEARCHED_MOST = 160  # players up to which a round's tables of strangers are searched for
STALL = 2000  # steps without a better plan before the search settles for the best found
TENURE = (3, 10)
PATIENCE = 300
SHAKE = 3


def _doubled(n: int, size: int, rounds: int, rng: _random.Random) -> list[list[list[int]]]:
    """The first rounds for n = 2q² at tables of q (32 at tables of 4, 18 at tables of 3): the
    affine plane's points twice over (levels 0 and 1); each line's q points split in two, one
    part at level 0 with the other part at level 1, and the other way round. Two points share
    one line only, so nobody meets twice over these q + 1 rounds; what is left of the day is
    drawn against them. Empty when n is not 2q²."""
    q = size
    field = plane_field(q)
    if field is None or n != 2 * q * q:
        return []
    plane = affine(q * q, q, q + 1, rng)
    assert plane is not None
    h = q // 2
    out = []
    for cls in plane[:rounds]:
        tables = []
        for line in cls:
            line = line[:]
            rng.shuffle(line)
            low, high = line[:h], line[h:]
            tables.append([*low, *(p + q * q for p in high)])
            tables.append([*high, *(p + q * q for p in low)])
        out.append(tables)
    return out


def _planes(n: int, size: int, rounds: int, rng: _random.Random) -> list[list[list[int]]]:
    """The first rounds for n = q² at tables of q over more rounds than one affine plane has
    (16 at tables of 4 for 6 rounds or more): whole planes, each drawn afresh, so every pair
    meets once in each — as evenly as the numbers allow, the floor of the search's cost once
    the rest is drawn against them. Empty where there is no plane."""
    q = size
    if plane_field(q) is None or n != q * q:
        return []
    out: list[list[list[int]]] = []
    for _ in range(rounds // (q + 1)):
        plane = affine(n, q, q + 1, rng)
        assert plane is not None
        out += plane
    return out


def search(
    n: int, size: int, present: list[list[int]], rng: _random.Random, floor: int = 0
) -> list[list[list[int]]]:
    meet = [[0] * n for _ in range(n)]
    best_day: list[list[list[int]]] | None = None
    best_start = -1
    everyone = len(present[0]) == n
    # Tables of strangers are searched for where they may exist and the room is small enough
    # for a search to matter (a large room's random draws hardly repeat).
    most = max(len(p) for p in present)
    strangers = n <= SEARCHED_MOST and len(present) * (size - 1) <= most - 1
    for _attempt in range(ATTEMPTS if strangers else 1):  # whole days; the least repeats
        start = _doubled(n, size, len(present), rng) if everyone and strangers else []
        if everyone and not start:
            start = _planes(n, size, len(present), rng)
        day = _draw_day(present, size, meet, rng, start, strangers)
        cost = _recount(meet, day)
        if best_day is None or cost < best_start:
            best_day, best_start = day, cost
        if cost <= floor:
            return day
    assert best_day is not None
    day = best_day
    cost = _recount(meet, day)
    best_cost, best = cost, [[t[:] for t in tables] for tables in day]
    tabu: dict[tuple[int, int], int] = {}
    work = step = since_best = 0
    improved_at = 0
    while cost > floor and work < WORK and step - improved_at < STALL:
        step += 1
        move = None
        move_delta = 0
        for r, tables in enumerate(day):
            for t_index, table in enumerate(tables):
                for p in table:
                    if not any(meet[p][o] > 1 for o in table if o != p):
                        continue  # only a player who has met a tablemate before moves
                    for u_index, other in enumerate(tables):
                        if u_index == t_index:
                            continue
                        for x in other:
                            work += 1
                            delta = 0
                            for a in table:
                                if a != p:
                                    delta += meet[x][a] - (meet[p][a] - 1)
                            for b in other:
                                if b != x:
                                    delta += meet[p][b] - (meet[x][b] - 1)
                            allowed = tabu.get((r, p), 0) < step and tabu.get((r, x), 0) < step
                            if not allowed and cost + delta >= best_cost:
                                continue  # tabu, unless it beats the best (aspiration)
                            if (
                                move is None
                                or delta < move_delta
                                or (delta == move_delta and rng.random() < 0.3)
                            ):
                                move, move_delta = (r, t_index, p, u_index, x), delta
        if move is None:
            break
        r, t_index, p, u_index, x = move
        table, other = day[r][t_index], day[r][u_index]
        for a in table:
            if a != p:
                meet[p][a] -= 1
                meet[a][p] -= 1
                meet[x][a] += 1
                meet[a][x] += 1
        for b in other:
            if b != x:
                meet[x][b] -= 1
                meet[b][x] -= 1
                meet[p][b] += 1
                meet[b][p] += 1
        table[table.index(p)] = x
        other[other.index(x)] = p
        cost += move_delta
        tenure = rng.randint(TENURE[0], TENURE[1])
        tabu[(r, p)] = tabu[(r, x)] = step + tenure
        since_best += 1
        if cost < best_cost:
            best_cost, since_best, improved_at = cost, 0, step
            best = [[t[:] for t in tables] for tables in day]
        elif since_best > PATIENCE:  # stuck: shake a few rounds
            day = [[t[:] for t in tables] for tables in best]
            _recount(meet, day)
            for _ in range(SHAKE):
                r = rng.randrange(len(day))
                i, j = rng.sample(range(len(day[r])), 2) if len(day[r]) > 1 else (0, 0)
                if i != j:
                    a, b = rng.randrange(size), rng.randrange(size)
                    day[r][i][a], day[r][j][b] = day[r][j][b], day[r][i][a]
            cost = _recount(meet, day)
            since_best = 0
    return best


def _draw_day(
    present: list[list[int]],
    size: int,
    meet: list[list[int]],
    rng: _random.Random,
    start: list[list[list[int]]],
    strangers: bool,
) -> list[list[list[int]]]:
    """`start`'s rounds, then each round in turn: tables of players who have not met (a
    depth-first search, most constrained player first, within a node limit; `strangers`), or
    — where none is found, and for every round after it — the draw with the fewest repeats."""
    _recount(meet, start)
    day = [[t[:] for t in tables] for tables in start]
    for players in present[len(start) :]:
        tables = _unmet_round(players, size, meet, rng) if strangers else None
        if tables is None:
            strangers = False
            tables = _greedy_round(players, size, meet, rng)
        for t in tables:
            for a, b in combinations(t, 2):
                meet[a][b] += 1
                meet[b][a] += 1
        day.append(tables)
    return day


def _unmet_round(
    players: list[int], size: int, meet: list[list[int]], rng: _random.Random
) -> list[list[int]] | None:
    """A round in which nobody meets anyone they have met, or None (none found within
    NODES tables tried)."""
    remaining = set(players)
    tables: list[list[int]] = []
    tried = [0]

    def free(p: int) -> list[int]:
        return [q for q in remaining if meet[p][q] == 0]

    def solve() -> bool:
        if not remaining:
            return True
        # The player with the fewest possible tablemates left goes first.
        p = min(remaining, key=lambda v: (sum(meet[v][q] == 0 for q in remaining), rng.random()))
        remaining.discard(p)
        options = free(p)
        rng.shuffle(options)
        for group in combinations(options, size - 1):
            if any(meet[a][b] for a, b in combinations(group, 2)):
                continue
            tried[0] += 1
            if tried[0] > NODES:
                break
            remaining.difference_update(group)
            tables.append([p, *group])
            if solve():
                return True
            tables.pop()
            remaining.update(group)
            if tried[0] > NODES:
                break
        remaining.add(p)
        return False

    return tables if solve() else None


def _recount(meet: list[list[int]], day: list[list[list[int]]]) -> int:
    for row in meet:
        row[:] = [0] * len(row)
    for tables in day:
        for t in tables:
            for a, b in combinations(t, 2):
                meet[a][b] += 1
                meet[b][a] += 1
    return sum(m * (m - 1) // 2 for row in meet for m in row) // 2


def _greedy_round(
    players: list[int], size: int, meet: list[list[int]], rng: _random.Random
) -> list[list[int]]:
    """A round drawn against the meetings so far (seating.best_draw, a few draws)."""
    return best_draw(players, size, lambda a, b: meet[a][b], rng, tries=8)
