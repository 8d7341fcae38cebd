"""Before the last game (CONTRACT §6): for each player at a table and each place there, the
lowest final score with which that place can still bring them to the target."""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from itertools import combinations, permutations, product

from scoring.conditions.field import ANY, NONE, StageField
from scoring.conditions.tables import Context, lowest_chain, place_curves, table_contexts
from scoring.knobs import SCORE_STEP
from scoring.rules import Ruleset
from scoring.settlement import rounded, settle
from scoring.standings import Player


@dataclass
class PlaceNeeds:
    """What a player needs from the last game for each place at the table (CONTRACT §6, "Before
    the last game"): `"any"` when the lowest score that can hold the place is enough, the
    lowest final score that is, or `"none"`. `witnesses[k]`: for a place that can be enough,
    the table's final scores in seat order that make it so (the player's score the answer)."""

    player: Player
    now: int
    places: list[int | str]  # place 1 … n
    witnesses: list[tuple[int, ...] | None] = field(default_factory=list)


def place_needs(
    rules: Ruleset,
    table: Sequence[Player],
    standings: Mapping[Player, Decimal],
    target: int,
) -> list[PlaceNeeds]:
    """For each player at `table` (seat order) and each place, the lowest final score with
    which that place can still bring them to `target` in the stage: over every way the
    tablemates' final scores could fall — multiples of 100, none below zero, summing to the
    table's total, ranked in order with ties by seat — the one most favourable to the player.
    Every other table's players keep their totals."""
    field_ = StageField(standings, table)
    search = _TableSearch(rules, field_, target)
    out = []
    for seat, player in enumerate(table):
        now = 1 + field_.above(field_.base, seat)
        places: list[int | str] = []
        witnesses: list[tuple[int, ...] | None] = []
        for place in range(len(table)):
            lowest, found = search.lowest(seat, place)
            if found is None:
                places.append(NONE)
            else:
                places.append(ANY if found[seat] == lowest else found[seat])
            witnesses.append(found)
        out.append(PlaceNeeds(player, now, places, witnesses))
    return out


# The tablemates' seats in place order, and the contexts (index, context, steps) it can be in.
Order = tuple[list[int], list[tuple[int, Context, list[int]]]]


class _TableSearch:
    """The search behind `place_needs`, for one table. For a score S of the player in a place,
    the tablemates are given the other places in every order, under each kind of table the
    ruleset pays differently (`table_contexts`); there each place's points are read off its curve,
    so a tablemate stays below the player's total up to a score looked up at once, and the
    question is whether one chain of scores — in order, each within its bounds — with as few
    tablemates at or above the player as the target allows sums to the table's total. A chain
    found is settled by the ruleset itself before it counts, so every answer comes with a
    table that proves it.

    Where the top's points depend on the others' too (a rounding the top takes the rest of),
    the points are read off the settled chain and the chain is looked for again, a few times."""

    def __init__(self, rules: Ruleset, field_: StageField, target: int) -> None:
        self.rules, self.field_, self.target = rules, field_, target
        self.n = n = len(field_.base)
        self.total = rules.start * n
        self.contexts = table_contexts(rules, n)
        self.curves = place_curves(rules, n)
        # Where the top takes the rest of a rounding, its points are its score's unrounded
        # ones and the others' remainders: up to half a point each, either way.
        self.top_slack = Decimal(0) if rules.rounding == "exact" else Decimal(n - 1) / 2
        top = place_curves(replace(rules, rounding="exact"), n) if self.top_slack else None
        # Per context, each place's curve as the search reads it: the top's unrounded where a
        # rounding gives it the rest (made once here, not on every score tried).
        self.search_curves = [
            [top[index][0], *places[1:]] if top else places
            for index, places in enumerate(self.curves)
        ]
        # Each place's scores it can be held with, in any context (the scan's range).
        self.holding = [
            [
                units * SCORE_STEP
                for units in range(self.total // SCORE_STEP + 1)
                if any(c[place].by_score[units] is not None for c in self.curves)
            ]
            for place in range(n)
        ]
        self.roundings: dict[tuple[int, int], tuple[int, int]] = {}

    def lowest(self, seat: int, place: int) -> tuple[int, tuple[int, ...] | None]:
        """The lowest score that can hold `place` at all, and the settled table (seat order)
        with the lowest score of the player's that brings them to the target (None: none)."""
        holding = self.holding[place]
        orders = self._orders(seat, place)
        lowest = next((s for s in holding if self._holds(orders, place, s)), None)
        if lowest is None or self._hopeless(seat, place):
            return (lowest or 0), None
        for score in holding:
            if score < lowest:
                continue
            found = self._reaches(orders, seat, place, score)
            if found is not None:
                return lowest, found
        return lowest, None

    def _orders(
        self, seat: int, place: int
    ) -> list[tuple[list[int], list[tuple[int, Context, list[int]]]]]:
        """Each way the tablemates can fill the other places (seats in place order), with the
        contexts it can be in and their steps."""
        n = self.n
        out = []
        for order in permutations([s for s in range(n) if s != seat]):
            seats = [*order[:place], seat, *order[place:]]
            by_seat = [SCORE_STEP if seats[q] > seats[q + 1] else 0 for q in range(n - 1)]
            usable = []
            for index, context in enumerate(self.contexts):
                if any(by_seat[q] for q in context.ties):
                    continue  # a later seat cannot tie above an earlier one
                steps = list(context.steps) if context.steps is not None else by_seat
                steps = [max(a, b) for a, b in zip(steps, by_seat, strict=True)]
                usable.append((index, context, steps))
            out.append((seats, usable))
        return out

    def _holds(self, orders: list[Order], place: int, score: int) -> bool:
        return any(
            lowest_chain(self.total, steps, place, score, context) is not None
            for _seats, usable in orders
            for _index, context, steps in usable
        )

    def _hopeless(self, seat: int, place: int) -> bool:
        """Whether even the player's best points in `place` leave `target` players or more at
        or above them whatever the table does (a quick "none" for the field's tail)."""
        if self.rules.rounding != "exact":
            return False  # the top's points are not on its curve
        best = max(
            (p for c in self.curves for p in c[place].by_score if p is not None), default=None
        )
        if best is None:
            return True
        total = self.field_.base[seat] + best
        others = self.field_.others
        count = len(others) - bisect_left(others, total)
        least = min(p for c in self.curves for curve in c for p in curve.points[:1])
        count += sum(1 for s, b in enumerate(self.field_.base) if s != seat and b + least >= total)
        return count >= self.target

    def _reaches(
        self, orders: list[Order], seat: int, place: int, score: int
    ) -> tuple[int, ...] | None:
        """A settled table that brings the player to the target with `score` in `place`."""
        n, base = self.n, self.field_.base
        others = self.field_.others
        for seats, usable in orders:
            for index, context, steps in usable:
                curves = self.search_curves[index]
                points = curves[place].by_score[score // SCORE_STEP]
                if points is None:
                    continue
                # The top's points as best they can be for the player (`top_slack`): the
                # settlement below says what they are.
                total = base[seat] + points + (self.top_slack if place == 0 else 0)
                room = self.target - (len(others) - bisect_left(others, total))
                if room <= 0:
                    continue
                caps = {
                    q: curves[q].under(total - base[seats[q]] + (self.top_slack if q == 0 else 0))
                    for q in range(n)
                    if q != place
                }
                chain = self._capped(steps, place, score, context, caps, room)
                if chain is None:
                    continue
                found = self._settled(seats, steps, place, score, context, chain)
                if found is not None:
                    return found
        return None

    def _capped(
        self,
        steps: list[int],
        place: int,
        score: int,
        context: Context,
        caps: dict[int, int],
        room: int,
    ) -> list[int] | None:
        """A chain with fewer than `room` tablemates above their caps (fewest first)."""
        mates = [q for q in range(self.n) if q != place]
        for dangerous in range(min(room, self.n)):
            for chosen in combinations(mates, dangerous):
                bounds = dict(context.bounds)
                for q, cap in caps.items():
                    if q not in chosen:
                        lo, hi = bounds.get(q, (0, self.total))
                        bounds[q] = (lo, min(hi, cap))
                capped = Context(bounds, context.ties, context.steps)
                chain = lowest_chain(self.total, steps, place, score, capped)
                if chain is not None:
                    return chain
        return None

    def _settled(
        self,
        seats: list[int],
        steps: list[int],
        place: int,
        score: int,
        context: Context,
        chain: list[int],
    ) -> tuple[int, ...] | None:
        """The chain's table in seat order if its settlement brings the player to the target.
        If not (the top's rounding), the caps are read off this settlement — a place's points
        move with its own score by the point value — and a chain looked for again, a few times."""
        n, seat = self.n, seats[place]
        others, base = self.field_.others, self.field_.base
        pv = self.rules.point_value
        seen: set[tuple[int, ...]] = set()
        for _round in range(4):
            table = [0] * n
            for q, s in enumerate(seats):
                table[s] = chain[q]
            key = tuple(table)
            if key in seen:
                return None
            seen.add(key)
            points = [Decimal(str(p.points)) for p in settle(self.rules, table).players]
            totals = [b + p for b, p in zip(base, points, strict=True)]
            if self.field_.at_or_above(totals, seat) < self.target:
                return key
            if self.top_slack:
                shifted = self._shifted(seats, steps, place, context, chain)
                if shifted is not None:
                    return shifted
            total = totals[seat]
            room = self.target - (len(others) - bisect_left(others, total))
            if room <= 0:
                return None
            caps = {
                q: chain[q]
                + (math.ceil((total - totals[seats[q]]) * pv / SCORE_STEP) - 1) * SCORE_STEP
                for q in range(n)
                if q != place
            }
            found = self._capped(steps, place, score, context, caps, room)
            if found is None:
                return None
            chain = found
        return None

    def _shifted(
        self, seats: list[int], steps: list[int], place: int, context: Context, chain: list[int]
    ) -> tuple[int, ...] | None:
        """The chain with its tablemates moved within and across their roundings, settled:
        where the top takes the rest of a rounding, which side of a rounding the others end on
        moves the top's points by up to half a point each. Each tablemate is kept to its
        rounding, the one below or the one above, and the scores found again within them."""
        mates = [q for q in range(self.n) if q != place]
        for shifts in product((0, -1, 1), repeat=len(mates)):
            bounds = dict(context.bounds)
            for q, shift in zip(mates, shifts, strict=True):
                lo, hi = self._rounding(chain[q], shift)
                b_lo, b_hi = bounds.get(q, (0, self.total))
                bounds[q] = (max(lo, b_lo), min(hi, b_hi))
            trial = lowest_chain(
                self.total, steps, place, chain[place], context._replace(bounds=bounds)
            )
            if trial is not None:
                found = self._proves(seats, place, trial)
                if found is not None:
                    return found
        return None

    def _rounding(self, score: int, shift: int) -> tuple[int, int]:
        """The lowest and highest scores that round as `score` does, or as the rounding
        `shift` (±1) away from it. Kept: the search asks the same few many times."""
        key = (score, shift)
        if key not in self.roundings:
            self.roundings[key] = self._rounding_made(score, shift)
        return self.roundings[key]

    def _rounding_made(self, score: int, shift: int) -> tuple[int, int]:
        unit = self.rules.point_value
        level = rounded(self.rules, score) + shift * unit
        lo = hi = max(0, score + shift * unit)
        while rounded(self.rules, lo) > level:
            lo -= SCORE_STEP
        while rounded(self.rules, hi) < level:
            hi += SCORE_STEP
        while lo - SCORE_STEP >= 0 and rounded(self.rules, lo - SCORE_STEP) == level:
            lo -= SCORE_STEP
        while rounded(self.rules, hi + SCORE_STEP) == level:
            hi += SCORE_STEP
        return lo, hi

    def _proves(self, seats: list[int], place: int, chain: list[int]) -> tuple[int, ...] | None:
        """The chain's table in seat order if its settlement brings the player to the target."""
        table = [0] * self.n
        for q, s in enumerate(seats):
            table[s] = chain[q]
        points = settle(self.rules, table).players
        base = self.field_.base
        totals = [b + Decimal(str(p.points)) for b, p in zip(base, points, strict=True)]
        return tuple(table) if self.field_.at_or_above(totals, seats[place]) < self.target else None
