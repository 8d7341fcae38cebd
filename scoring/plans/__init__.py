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

from scoring.plans.day import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    SIZES,
    Floor,
    Plan,
    PlannedRound,
    floor_of,
    plan,
)
from scoring.plans.designs import KNOWN

__all__ = [
    "KNOWN",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "SIZES",
    "Floor",
    "Plan",
    "PlannedRound",
    "floor_of",
    "plan",
]
