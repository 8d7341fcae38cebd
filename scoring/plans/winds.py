"""Each table's seat order, every player's winds balanced over the day."""

from __future__ import annotations

import random as _random
from itertools import combinations


def balanced_winds(
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
