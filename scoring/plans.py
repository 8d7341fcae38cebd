"""Whole-day seating plans (CONTRACT §5): every round of an event at once, so that no two
players share a table twice where the numbers allow it, every player's winds are balanced,
and byes fall evenly when the players do not fill the tables. Pure data, seeded, no database.

How a plan is made:
1. Byes: a shuffled order of the players, taken a round's worth at a time and wrapping round,
   so each player's byes differ by at most one.
2. Tables: where the players are a square of a prime-power table size (16 at tables of 4, 9 at
   tables of 3, 25 at tables of 5) and the rounds at most one more than the table size, the
   lines of the affine plane — every pair meets exactly once over its q + 1 rounds (over more
   rounds, whole planes first, each drawn afresh). Otherwise each round is drawn greedily
   against the meetings so far, then the whole day is improved by tabu search (Dotú & Van
   Hentenryck's for the social golfer problem: swap two players of one round, the best swap
   that is not tabu, a swap touching a player who has met someone twice). The cost is the
   number of repeated meetings, Σ m(m−1)/2 over pairs; it stops at the floor no plan can go
   below (`floor_of`), or after a fixed amount of work — it always finishes, and the same seed
   gives the same plan on every machine.
3. Winds: each table's order (East first) is the permutation that gives its players the winds
   they have had least, improved round by round until no player's counts differ by more than
   one (or nothing improves).
"""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import ceil
from typing import Any, NamedTuple

from scoring.messages import fail
from scoring.seating import best_draw

MAX_PLAYERS = 1000
MAX_ROUNDS = 40
SIZES = (3, 4, 5)
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


@dataclass(frozen=True)
class PlannedRound:
    tables: tuple[tuple[str, ...], ...]  # each in seat order: East (the first dealer) first
    byes: tuple[str, ...]


@dataclass(frozen=True)
class Plan:
    rounds: tuple[PlannedRound, ...]
    players: tuple[str, ...]
    size: int

    def meetings(self) -> dict[frozenset[str], int]:
        out: dict[frozenset[str], int] = {}
        for rnd in self.rounds:
            for table in rnd.tables:
                for a, b in combinations(table, 2):
                    key = frozenset((a, b))
                    out[key] = out.get(key, 0) + 1
        return out

    def winds(self) -> dict[str, list[int]]:
        out = {p: [0] * self.size for p in self.players}
        for rnd in self.rounds:
            for table in rnd.tables:
                for k, p in enumerate(table):
                    out[p][k] += 1
        return out

    def report(self) -> dict[str, Any]:
        """CONTRACT §5's report; added: `repeated_pairs` (who met more than once, and how
        often), `repeat_meetings` (the meetings after each pair's first: Σ (m − 1)), the floors
        any plan of these players over these rounds must reach — `best_max_meetings`,
        `best_pairs_met_more_than_once`, `best_repeat_meetings` (sound counting bounds, not
        always reachable: see `floor_of`) — and `byes` (each player's)."""
        met = self.meetings()
        repeated = sorted(
            ([*sorted(pair), count] for pair, count in met.items() if count > 1),
            key=lambda row: (-row[2], row[0], row[1]),
        )
        byes = dict.fromkeys(self.players, 0)
        for rnd in self.rounds:
            for p in rnd.byes:
                byes[p] += 1
        floor = self.floor()
        return {
            "max_meetings": max(met.values(), default=0),
            "pairs_met_more_than_once": len(repeated),
            "winds": self.winds(),
            "repeated_pairs": repeated,
            "repeat_meetings": sum(count - 1 for count in met.values()),
            "best_max_meetings": floor.max_meetings,
            "best_pairs_met_more_than_once": floor.pairs,
            "best_repeat_meetings": floor.repeats,
            "byes": byes,
        }

    def floor(self) -> Floor:
        """The floors for these players over these rounds (`floor_of`), each player counted for
        the rounds they sit at a table (a bye, a cut or an absence is no meeting)."""
        played = dict.fromkeys(self.players, 0)
        full = True
        for rnd in self.rounds:
            for table in rnd.tables:
                full = full and len(table) == self.size
                for p in table:
                    played[p] += 1
        rounds = len(self.rounds)
        full = full and all(count == rounds for count in played.values())
        return floor_of(len(self.players), self.size, list(played.values()), rounds, full)

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": [
                {"tables": [list(t) for t in r.tables], "byes": list(r.byes)} for r in self.rounds
            ],
            "report": self.report(),
        }


class Floor(NamedTuple):
    """The least any plan can have (each a sound lower bound; tests/scoring/test_plans.py
    checks them against every plan of small rooms)."""

    max_meetings: int  # the most games one pair shares
    pairs: int  # pairs sharing two games or more
    repeats: int  # meetings after a pair's first, Σ (m − 1) over the pairs that met
    cost: int  # the search's cost, Σ m(m − 1)/2 over pairs


def floor_of(n: int, size: int, played: Sequence[int], rounds: int, full: bool) -> Floor:
    """The floors for `n` players at tables of `size`, player i sitting at a table in
    `played[i]` of the `rounds` (`full`: everyone plays every round at full tables).

    Each player has (size − 1) tablemates a round, s in all, among at most n − 1 others:
    - the meetings beyond the first with each are at least s − (n − 1) (`repeats`: half the
      sum over players, a repeat having two players);
    - Σ C(m, 2) over their tablemates is least when the s meetings are spread evenly (`cost`);
    - one tablemate takes at most (played − 1) of the extra meetings, so at least
      ⌈extra / (played − 1)⌉ of them are met twice (`pairs`, halved likewise).
    Where the room has fewer tables than a table has seats, a table of any round takes its
    players from another round's tables, some of whom sat together there (pigeonhole): at least
    `together` pairs meet again in every two rounds. None of these is always reachable: a plan
    that reaches one has the fewest possible; above it, the floor is a lower bound only."""
    if n < 2:
        return Floor(0, 0, 0, 0)
    others = n - 1
    most = max(played, default=0) * (size - 1)
    best_max = max(1, ceil(most / others)) if most else 0
    over = repeats = cost = 0
    for rounds_played in played:
        slots = rounds_played * (size - 1)
        extra = slots - others
        base, more = divmod(slots, others)
        cost += more * (base + 1) * base // 2 + (others - more) * base * (base - 1) // 2
        if extra > 0:
            repeats += extra
            if rounds_played > 1:
                over += ceil(extra / (rounds_played - 1))
    pairs, repeats, cost = ceil(over / 2), ceil(repeats / 2), ceil(cost / 2)
    if full and rounds > 1:
        tables = n // size
        share, more = divmod(size, tables)
        together = tables * (
            more * (share + 1) * share // 2 + (tables - more) * share * (share - 1) // 2
        )
        if together:
            pairs = max(pairs, together)
            repeats = max(repeats, (rounds - 1) * together)
            cost = max(cost, rounds * (rounds - 1) // 2 * together)
            best_max = max(best_max, 2)
    return Floor(best_max, pairs, repeats, cost)


def plan(players: Sequence[str], rounds: int, size: int = 4, seed: int = 0) -> Plan:
    """Every round for `players` at tables of `size` (see the module's text)."""
    names = list(players)
    if size not in SIZES:
        raise fail("plan.size", "size", sizes=", ".join(map(str, SIZES)))
    if len(names) != len(set(names)):
        raise fail("seating.twice", "players")
    if not size <= len(names) <= MAX_PLAYERS:
        raise fail("plan.players", "players", size=size, most=MAX_PLAYERS)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise fail("plan.rounds", "rounds", most=MAX_ROUNDS)
    rng = _random.Random(seed)
    n = len(names)
    byes_each = n % size
    present = _present(n, rounds, byes_each, rng)
    tables = None if byes_each else _affine(n, size, rounds, rng) or _known(n, size, rounds, rng)
    if tables is None:
        # The search stops where no plan can do better: at the floor of its cost.
        played = [rounds - sum(p not in set(r) for r in present) for p in range(n)]
        floor = floor_of(n, size, played, rounds, full=not byes_each).cost
        tables = _search(n, size, present, rng, floor)
    ordered = _winds(n, size, tables, rng)
    planned = []
    for r in range(rounds):
        playing = set(present[r])
        planned.append(
            PlannedRound(
                tuple(tuple(names[p] for p in t) for t in ordered[r]),
                tuple(names[p] for p in range(n) if p not in playing),
            )
        )
    return Plan(tuple(planned), tuple(names), size)


def _present(n: int, rounds: int, byes: int, rng: _random.Random) -> list[list[int]]:
    """Who plays each round: everyone but the round's byes, taken in turn from one shuffled
    order (so each player's byes differ by at most one)."""
    order = list(range(n))
    rng.shuffle(order)
    out = []
    for r in range(rounds):
        out_now = {order[(r * byes + k) % n] for k in range(byes)}
        out.append([p for p in range(n) if p not in out_now])
    return out


# --- the affine plane ---------------------------------------------------------------------------

# GF(4) = {0, 1, a, a + 1}: addition is XOR of the bit pairs, multiplication by this table.
_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _field(q: int) -> tuple[Any, Any] | None:
    if q in (2, 3, 5):
        return (lambda a, b: (a + b) % q), (lambda a, b: (a * b) % q)
    if q == 4:
        return (lambda a, b: a ^ b), (lambda a, b: _GF4_MUL[a][b])
    return None


def _affine(n: int, size: int, rounds: int, rng: _random.Random) -> list[list[list[int]]] | None:
    """The affine plane of order q = size when n = q² and rounds ≤ q + 1: its parallel classes
    are rounds in which every pair meets at most once over the whole day. None otherwise."""
    q = size
    field = _field(q)
    if field is None or n != q * q or rounds > q + 1:
        return None
    add, mul = field
    classes = [[[c * q + y for y in range(q)] for c in range(q)]]  # x = c
    for m in range(q):  # y = m·x + b
        classes.append([[x * q + add(mul(m, x), b) for x in range(q)] for b in range(q)])
    label = list(range(n))
    rng.shuffle(label)
    rng.shuffle(classes)
    return [[[label[p] for p in line] for line in cls] for cls in classes[:rounds]]


# A schedule from the literature where search alone does not find one in time: 32 players at
# 8 tables of 4 for 9 rounds with no pair meeting twice — the social golfer problem's own
# instance. Source: CSPLib problem 010 (Social Golfers), results/9weeksol.txt,
# https://github.com/csplib/csplib/blob/master/Problems/prob010/results/9weeksol.txt
# (CC BY 4.0); players numbered from 1 there, from 0 here. tests/scoring/test_plans.py
# checks it.
_GOLFERS_32 = """
1 2 3 4|5 6 7 8|9 10 11 12|13 14 15 16|17 18 19 20|21 22 23 24|25 26 27 28|29 30 31 32
1 5 9 13|2 6 10 14|3 7 11 15|4 8 12 16|17 21 25 29|18 22 26 30|19 23 27 31|20 24 28 32
1 6 11 16|2 5 12 15|3 8 9 14|4 7 10 13|17 22 27 32|18 21 28 31|19 24 25 30|20 23 26 29
1 7 17 23|2 8 18 24|3 5 19 21|4 6 20 22|9 15 25 31|10 16 26 32|11 13 27 29|12 14 28 30
1 8 19 22|2 7 20 21|3 6 17 24|4 5 18 23|9 16 27 30|10 15 28 29|11 14 25 32|12 13 26 31
1 10 18 25|2 9 17 26|3 12 20 27|4 11 19 28|5 14 22 29|6 13 21 30|7 16 24 31|8 15 23 32
1 12 21 32|2 11 22 31|3 10 23 30|4 9 24 29|5 16 17 28|6 15 18 27|7 14 19 26|8 13 20 25
1 14 20 31|2 13 19 32|3 16 18 29|4 15 17 30|5 10 24 27|6 9 23 28|7 12 22 25|8 11 21 26
1 15 24 26|2 16 23 25|3 13 22 28|4 14 21 27|5 11 20 30|6 12 19 29|7 9 18 32|8 10 17 31
"""
KNOWN = {
    (32, 4): [
        [[int(p) - 1 for p in table.split()] for table in line.split("|")]
        for line in _GOLFERS_32.strip().splitlines()
    ]
}


def _known(n: int, size: int, rounds: int, rng: _random.Random) -> list[list[list[int]]] | None:
    """A schedule from KNOWN for these players and rounds, its players drawn at random to the
    design's places and its rounds in a random order. None where there is none."""
    design = KNOWN.get((n, size))
    if design is None or rounds > len(design):
        return None
    label = list(range(n))
    rng.shuffle(label)
    chosen = rng.sample(design, rounds)
    return [[[label[p] for p in table] for table in tables] for tables in chosen]


# --- tabu search --------------------------------------------------------------------------------


def _doubled(n: int, size: int, rounds: int, rng: _random.Random) -> list[list[list[int]]]:
    """The first rounds for n = 2q² at tables of q (32 at tables of 4, 18 at tables of 3): the
    affine plane's points twice over (levels 0 and 1); each line's q points split in two, one
    part at level 0 with the other part at level 1, and the other way round. Two points share
    one line only, so nobody meets twice over these q + 1 rounds; what is left of the day is
    drawn against them. Empty when n is not 2q²."""
    q = size
    field = _field(q)
    if field is None or n != 2 * q * q:
        return []
    plane = _affine(q * q, q, q + 1, rng)
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
    if _field(q) is None or n != q * q:
        return []
    out: list[list[list[int]]] = []
    for _ in range(rounds // (q + 1)):
        plane = _affine(n, q, q + 1, rng)
        assert plane is not None
        out += plane
    return out


def _search(
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


# --- winds --------------------------------------------------------------------------------------


def _winds(
    n: int, size: int, day: list[list[list[int]]], rng: _random.Random
) -> list[list[list[int]]]:
    """Each table in seat order with every player's winds balanced over the day (counts
    differing by at most one). A table's seats are the colours of its edges in the bipartite
    graph of players and table-rounds; such a graph always has an equitable colouring (de
    Werra). Reached two winds at a time: for winds a and b, each table holding a player at a
    and one at b is an edge between them; an Euler orientation of those edges (a dummy vertex
    joined to the odd ones) gives every player as many a's as b's, give or take one — the
    tail of each edge sits at a. Repeated over the pairs of winds until no pair is off."""
    out = [[t[:] for t in tables] for tables in day]
    for tables in out:
        for table in tables:
            rng.shuffle(table)
    pairs = list(combinations(range(size), 2))
    for _ in range(60):  # passes; each fix lowers Σ counts², so it settles (cap for safety)
        rng.shuffle(pairs)
        fixed = False
        for a, b in pairs:
            fixed |= _balance_pair(n, out, a, b)
        if not fixed:
            break
    return out


def _balance_pair(n: int, day: list[list[list[int]]], a: int, b: int) -> bool:
    """Winds a and b balanced for every player (the other winds untouched). True if any seat
    moved."""
    count = [0] * n
    for tables in day:
        for t in tables:
            count[t[a]] += 1
            count[t[b]] -= 1
    if all(-1 <= c <= 1 for c in count):
        return False
    tables = [t for ts in day for t in ts]
    dummy = n
    adjacent: list[list[int]] = [[] for _ in range(n + 1)]  # vertex → edge ids
    ends: list[tuple[int, int]] = []
    for t in tables:
        adjacent[t[a]].append(len(ends))
        adjacent[t[b]].append(len(ends))
        ends.append((t[a], t[b]))
    for v in range(n):
        if len(adjacent[v]) % 2:
            adjacent[v].append(len(ends))
            adjacent[dummy].append(len(ends))
            ends.append((v, dummy))
    used = [False] * len(ends)
    tail = [0] * len(ends)  # the vertex each edge leaves
    cursor = [0] * (n + 1)
    for start in [dummy, *range(n)]:
        # Hierholzer, walking edges in the order met: consecutive edges of a walk leave each
        # vertex as often as they enter it; a closed walk balances every vertex on it.
        stack = [start]
        while stack:
            v = stack[-1]
            while cursor[v] < len(adjacent[v]) and used[adjacent[v][cursor[v]]]:
                cursor[v] += 1
            if cursor[v] == len(adjacent[v]):
                stack.pop()
                continue
            e = adjacent[v][cursor[v]]
            used[e] = True
            tail[e] = v
            x, y = ends[e]
            stack.append(y if x == v else x)
    for i, t in enumerate(tables):
        if tail[i] != t[a]:  # the edge leaves the player at b: they take a
            t[a], t[b] = t[b], t[a]
    return True
