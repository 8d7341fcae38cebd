"""Whole days known to repeat no meeting: the affine plane of a prime-power table size, and
schedules from the literature (KNOWN)."""

from __future__ import annotations

import random as _random
from typing import Any

_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def plane_field(q: int) -> tuple[Any, Any] | None:
    if q in (2, 3, 5):
        return (lambda a, b: (a + b) % q), (lambda a, b: (a * b) % q)
    if q == 4:
        return (lambda a, b: a ^ b), (lambda a, b: _GF4_MUL[a][b])
    return None


def affine(n: int, size: int, rounds: int, rng: _random.Random) -> list[list[list[int]]] | None:
    """The affine plane of order q = size when n = q² and rounds ≤ q + 1: its parallel classes
    are rounds in which every pair meets at most once over the whole day. None otherwise."""
    q = size
    field = plane_field(q)
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


def known(n: int, size: int, rounds: int, rng: _random.Random) -> list[list[list[int]]] | None:
    """A schedule from KNOWN for these players and rounds, its players drawn at random to the
    design's places and its rounds in a random order. None where there is none."""
    design = KNOWN.get((n, size))
    if design is None or rounds > len(design):
        return None
    label = list(range(n))
    rng.shuffle(label)
    chosen = rng.sample(design, rounds)
    return [[[label[p] for p in table] for table in tables] for tables in chosen]
