"""The tables a ruleset pays differently, for the search before the last game (before.py):
each kind of table (`Context`), each place's points at each score under it (`Curve`), and the
lowest chain of scores in place order that sums to the table's total (`lowest_chain`)."""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from decimal import Decimal
from itertools import combinations
from typing import NamedTuple

from scoring.knobs import SCORE_STEP
from scoring.rules import Ruleset
from scoring.settlement import settle

Bounds = dict[int, tuple[int, int]]  # a place → its lowest and highest score


class Context(NamedTuple):
    """A kind of table under which each place's points move with its own score only: bounds
    (place → lowest, highest), the places tied to the next one, and each place's distance to
    the next (`None`: as the seats allow, 0 where an earlier seat sits above)."""

    bounds: Bounds
    ties: frozenset[int]
    steps: tuple[int, ...] | None


def table_contexts(rules: Ruleset, n: int) -> list[Context]:
    """Every kind of table the ruleset pays differently: one where points depend on a seat's
    own score and place; one per number of players floating (uma by the number floating); one
    per way the places tie, the others one step apart (tied players share uma and oka)."""
    total = rules.start * n
    if rules.uma_floating is not None:
        line = rules.return_points
        return [
            Context(
                {q: (line, total) if q < k else (0, line - SCORE_STEP) for q in range(n)},
                frozenset(),
                None,
            )
            for k in range(n + 1)
        ]
    if rules.tie == "split":
        gaps = range(n - 1)
        return [
            Context({}, frozenset(ties), tuple(0 if q in ties else SCORE_STEP for q in gaps))
            for size in range(n)
            for ties in combinations(gaps, size)
        ]
    return [Context({}, frozenset(), None)]


class Curve(NamedTuple):
    """One place's points in one context: by score (None where the place cannot be held), and
    sorted by points with the highest score up to each (what "the highest score still under a
    total" looks up)."""

    by_score: list[Decimal | None]
    points: list[Decimal]
    highest: list[int]

    def under(self, bar: Decimal) -> int:
        """The highest score whose points stay below `bar` (−1: none)."""
        below = bisect_left(self.points, bar)
        return self.highest[below - 1] if below else -1


_CURVES: dict[tuple[str, int], list[list[Curve]]] = {}


def place_curves(rules: Ruleset, n: int) -> list[list[Curve]]:
    """Each context's points of each place at each score, from one settled table apiece: the
    same for every table of a ruleset, so made once per process."""
    key = (repr(rules), n)
    if key not in _CURVES:
        total = rules.start * n
        seats = list(range(n))
        out = []
        for context in table_contexts(rules, n):
            steps = list(context.steps or (0,) * (n - 1))
            places = []
            for place in range(n):
                by_score: list[Decimal | None] = []
                for units in range(total // SCORE_STEP + 1):
                    chain = lowest_chain(total, steps, place, units * SCORE_STEP, context)
                    if chain is None:
                        by_score.append(None)
                        continue
                    points = settle(rules, [chain[q] for q in seats]).players[place].points
                    by_score.append(Decimal(str(points)))
                pairs = sorted((p, u * SCORE_STEP) for u, p in enumerate(by_score) if p is not None)
                highest, best = [], -1
                for _points, score in pairs:
                    best = max(best, score)
                    highest.append(best)
                places.append(Curve(by_score, [p for p, _ in pairs], highest))
            out.append(places)
        _CURVES[key] = out
    return _CURVES[key]


def lowest_chain(
    total: int, steps: Sequence[int], place: int, score: int, context: Context
) -> list[int] | None:
    """Scores in place order — `score` in `place`, each place at least the next one plus its
    step (equal to it where the context ties them), each within the context's bounds, none below
    zero — summing to `total`: the lowest such chain, raised from the top down. None when there
    is none."""
    n = len(steps) + 1
    groups: list[list[int]] = []  # places tied together, best first
    for q in range(n):
        if q - 1 in context.ties:
            if steps[q - 1]:
                return None  # a later seat cannot tie above an earlier one
            groups[-1].append(q)
        else:
            groups.append([q])
    low, high, weight, gaps = [], [], [], []
    for members in groups:
        lo, hi = 0, total
        for q in members:
            b_lo, b_hi = (score, score) if q == place else context.bounds.get(q, (0, total))
            lo, hi = max(lo, b_lo), min(hi, b_hi)
        low.append(lo)
        high.append(hi)
        weight.append(len(members))
        gaps.append(steps[members[-1]] if members[-1] < n - 1 else 0)
    k = len(groups)
    for g in range(k - 2, -1, -1):
        low[g] = max(low[g], low[g + 1] + gaps[g])
    for g in range(1, k):
        high[g] = min(high[g], high[g - 1] - gaps[g - 1])
    if any(lo > hi for lo, hi in zip(low, high, strict=True)):
        return None
    excess = total - sum(w * lo for w, lo in zip(weight, low, strict=True))
    if excess < 0:
        return None
    raising = excess
    values = list(low)
    for g in range(k):
        raise_by = min(high[g] - values[g], excess // (weight[g] * SCORE_STEP) * SCORE_STEP)
        values[g] += raise_by
        excess -= raise_by * weight[g]
    in_order = all(values[g] >= values[g + 1] + gaps[g] for g in range(k - 1))
    if excess or not in_order:
        # Tied places raise together, so the greedy pass can leave a remainder they cannot
        # take, or hand it to a place below one that stopped short: search the chain out.
        found = _raised(low, high, weight, gaps, raising)
        if found is None:
            return None
        values = found
    return [values[g] for g, members in enumerate(groups) for _q in members]


def _raised(
    low: list[int], high: list[int], weight: list[int], gaps: list[int], excess: int
) -> list[int] | None:
    """The groups' scores, each from `low` up to `high` and at least the next group's plus its
    gap, raised by `excess` in all (each group's raise counted `weight` times), the highest
    groups raised most: a depth-first search, best first. None when no raise fits."""
    k = len(low)
    cap = [(hi - lo) // SCORE_STEP for lo, hi in zip(low, high, strict=True)]
    # How much more than the next group a group's raise leaves room for, in order.
    slack = [(low[g] - low[g + 1] - gaps[g]) // SCORE_STEP for g in range(k - 1)]
    divisor = [0] * (k + 1)  # the raises of groups g… sum to a multiple of this
    for g in range(k - 1, -1, -1):
        divisor[g] = math.gcd(divisor[g + 1], weight[g])
    seen: set[tuple[int, int, int]] = set()

    def most(g: int, limit: int) -> int:
        total = 0
        for h in range(g, k):
            limit = min(cap[h], limit)
            total += weight[h] * limit
            if h < k - 1:
                limit += slack[h]
        return total

    def search(g: int, limit: int, left: int) -> list[int] | None:
        if g == k:
            return [] if left == 0 else None
        limit = min(cap[g], limit)
        if left % divisor[g] or left > most(g, limit) or (g, limit, left) in seen:
            return None
        seen.add((g, limit, left))
        for units in range(min(limit, left // weight[g]), -1, -1):
            rest = search(g + 1, units + slack[g] if g < k - 1 else 0, left - units * weight[g])
            if rest is not None:
                return [units, *rest]
        return None

    raises = search(0, cap[0] if k else 0, excess // SCORE_STEP)
    if raises is None:
        return None
    return [lo + units * SCORE_STEP for lo, units in zip(low, raises, strict=True)]
