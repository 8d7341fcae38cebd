"""A whole day's plan (CONTRACT §5): the records, the floors no plan can go below, and
`plan`, which draws the byes and puts the day together from designs.py, search.py and
winds.py (the steps are described in the package's text)."""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import ceil
from typing import Any, NamedTuple

from scoring.messages import fail
from scoring.plans.designs import affine, known
from scoring.plans.search import search
from scoring.plans.winds import balanced_winds

MAX_PLAYERS = 1000
MAX_ROUNDS = 40
SIZES = (3, 4, 5)


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
    tables = None if byes_each else affine(n, size, rounds, rng) or known(n, size, rounds, rng)
    if tables is None:
        # The search stops where no plan can do better: at the floor of its cost.
        played = [rounds - sum(p not in set(r) for r in present) for p in range(n)]
        floor = floor_of(n, size, played, rounds, full=not byes_each).cost
        tables = search(n, size, present, rng, floor)
    ordered = balanced_winds(n, size, tables, rng)
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
