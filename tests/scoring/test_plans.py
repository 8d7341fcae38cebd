"""Whole-day seating plans, CONTRACT §5 (issue 33): every round at once, nobody meeting twice
where the numbers allow it (each size the issue names), winds balanced (a player's counts
differ by at most one), byes spread evenly, 3-player tables for sanma, the same plan for the
same seed, a clear error for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from itertools import combinations, product

import pytest

from scoring.errors import ScoringError
from scoring.plans import KNOWN, Plan, PlannedRound, floor_of, plan


def names(n: int) -> list[str]:
    return [f"P{i:03d}" for i in range(n)]


def check_shape(result, n: int, rounds: int, size: int) -> None:
    """Every player once a round (at a table or on a bye), tables of `size`, byes spread."""
    assert len(result.rounds) == rounds
    byes = Counter()
    for rnd in result.rounds:
        seated = [p for t in rnd.tables for p in t]
        assert all(len(t) == size for t in rnd.tables)
        assert sorted(seated + list(rnd.byes)) == sorted(names(n))
        assert len(rnd.byes) == n % size
        byes.update(rnd.byes)
    counts = [byes.get(p, 0) for p in names(n)]
    assert max(counts) - min(counts) <= 1


def check_winds(result) -> None:
    for player, counts in result.report()["winds"].items():
        assert max(counts) - min(counts) <= 1, (player, counts)


@pytest.mark.parametrize(
    ("n", "rounds", "size"),
    [
        (16, 5, 4),
        (32, 8, 4),
        (36, 7, 4),
        (64, 8, 4),
        (128, 8, 4),
        (30, 6, 4),  # 7 tables and 2 byes a round
        (9, 4, 3),  # sanma: the affine plane of order 3
        (27, 8, 3),
        (128, 10, 4),
    ],
)
def test_nobody_meets_twice_where_the_numbers_allow_it(n, rounds, size):
    result = plan(names(n), rounds, size, seed=7)
    check_shape(result, n, rounds, size)
    report = result.report()
    assert report["max_meetings"] == 1 and report["pairs_met_more_than_once"] == 0
    assert report["repeated_pairs"] == []
    assert report["best_max_meetings"] == 1 and report["best_pairs_met_more_than_once"] == 0
    check_winds(result)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_other_seeds_plan_the_hard_sizes_too(seed):
    for n, rounds in ((16, 5), (32, 8), (36, 7), (30, 6)):
        report = plan(names(n), rounds, 4, seed=seed).report()
        assert report["pairs_met_more_than_once"] == 0, (n, rounds, seed)


@pytest.mark.parametrize(
    ("n", "rounds", "size"),
    [(4, 3, 4), (5, 5, 4), (13, 9, 4), (8, 3, 4), (20, 6, 4), (7, 6, 3), (50, 12, 4), (11, 7, 5)],
)
def test_any_room_gets_a_whole_plan_balanced_winds_and_an_honest_report(n, rounds, size):
    result = plan(names(n), rounds, size, seed=11)
    check_shape(result, n, rounds, size)
    check_winds(result)
    report = result.report()
    met = result.meetings()
    assert report["max_meetings"] == max(met.values())
    assert report["pairs_met_more_than_once"] == sum(1 for m in met.values() if m > 1)
    assert [[a, b, c] for a, b, c in report["repeated_pairs"]] == report["repeated_pairs"]
    assert {(a, b): c for a, b, c in report["repeated_pairs"]} == {
        tuple(sorted(pair)): count for pair, count in met.items() if count > 1
    }
    # The floor is a floor: no plan does better than the numbers allow.
    assert report["max_meetings"] >= report["best_max_meetings"]
    assert report["pairs_met_more_than_once"] >= report["best_pairs_met_more_than_once"]


def test_the_same_seed_gives_the_same_plan_and_another_a_different_one():
    assert plan(names(36), 7, 4, seed=5) == plan(names(36), 7, 4, seed=5)
    assert plan(names(36), 7, 4, seed=5).rounds != plan(names(36), 7, 4, seed=6).rounds


def test_the_design_from_the_literature_has_no_pair_twice():
    for (n, size), rounds in KNOWN.items():
        met = Counter()
        for tables in rounds:
            assert sorted(p for t in tables for p in t) == list(range(n))
            assert all(len(t) == size for t in tables)
            met.update(frozenset(pair) for t in tables for pair in combinations(t, 2))
        assert max(met.values()) == 1


@pytest.mark.parametrize(
    ("players", "rounds", "size", "field"),
    [
        (["A", "B", "C", "A"], 2, 4, "players"),
        (["A", "B", "C"], 2, 4, "players"),
        (names(8), 0, 4, "rounds"),
        (names(8), 41, 4, "rounds"),
        (names(8), 2, 6, "size"),
    ],
)
def test_a_plan_that_cannot_be_made_names_its_field(players, rounds, size, field):
    with pytest.raises(ScoringError) as raised:
        plan(players, rounds, size)
    assert raised.value.field == field


def run(document: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "seat"],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_command_line_answers_as_contract_5_says():
    done = run({"players": names(16), "rounds": 5, "seed": 7, "size": 4})
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"rounds", "report"}
    assert [set(r) for r in answer["rounds"]] == [{"tables", "byes"}] * 5
    assert answer["report"]["max_meetings"] == 1
    assert answer["report"]["pairs_met_more_than_once"] == 0
    assert answer["report"]["winds"]["P000"] in (
        [1, 1, 1, 2],
        [1, 1, 2, 1],
        [1, 2, 1, 1],
        [2, 1, 1, 1],
    )
    # The size is 4 unless given; the same document, the same plan.
    again = run({"players": names(16), "rounds": 5, "seed": 7})
    assert json.loads(again.stdout) == answer


@pytest.mark.parametrize(
    ("document", "field"),
    [
        ({"players": ["A", "B", "C", "D"], "rounds": 2, "sise": 4}, "sise"),
        ({"players": ["A", "B", "C", "A"], "rounds": 2}, "players"),
        ({"players": ["A", "B", "C", " "], "rounds": 2}, "players[3]"),
        ({"players": names(8), "rounds": "two"}, "rounds"),
        ({"players": names(8), "rounds": 2, "size": 9}, "size"),
    ],
)
def test_bad_input_is_one_line_naming_the_field_and_exit_2(document, field):
    done = run(document)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"{field}:"), done.stderr


# --- the floors: sound lower bounds, checked against every plan of small rooms ---------------


def _partitions(players: list[int], size: int):
    """Every way to seat `players` at tables of `size` (tables unordered)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for mates in combinations(rest, size - 1):
        left = [p for p in rest if p not in mates]
        for tail in _partitions(left, size):
            yield [(first, *mates), *tail]


def _every_round(n: int, size: int) -> list[list[tuple[int, ...]]]:
    """Every round of n players at tables of `size`, the n % size left over on a bye."""
    out = []
    for byes in combinations(range(n), n % size):
        out += _partitions([p for p in range(n) if p not in byes], size)
    return out


# (players, table size, rounds): every plan of each (round 1 fixed: renaming the players
# changes no count) is counted, then the least each count reaches is compared with the floor.
SMALL_ROOMS = [
    (6, 3, 2),
    (6, 3, 3),
    (6, 3, 4),
    (8, 4, 2),
    (8, 4, 3),
    (9, 3, 2),
    (10, 5, 2),
    (10, 5, 3),
    (12, 4, 2),
    (5, 4, 3),  # a bye every round
    (7, 3, 3),
]


@pytest.mark.parametrize(("n", "size", "rounds"), SMALL_ROOMS)
def test_every_floor_is_a_floor_of_every_plan_of_a_small_room(n, size, rounds):
    every = _every_round(n, size)
    least: dict[str, int] = {}
    for rest in product(every, repeat=rounds - 1):
        day = [every[0], *rest]
        met = Counter(
            frozenset(pair) for tables in day for t in tables for pair in combinations(t, 2)
        )
        played = [sum(p in t for tables in day for t in tables) for p in range(n)]
        floor = floor_of(n, size, played, rounds, full=all(c == rounds for c in played))
        counts = {
            "max_meetings": max(met.values()),
            "pairs": sum(m > 1 for m in met.values()),
            "repeats": sum(m - 1 for m in met.values()),
            "cost": sum(m * (m - 1) // 2 for m in met.values()),
        }
        for key, value in counts.items():
            assert value >= getattr(floor, key), (day, key, floor)
            least[key] = min(least.get(key, value), value)
    if n % size == 0:
        # Everyone plays every round: one floor for every plan, and the search's own (cost)
        # is the least some plan reaches in each of these rooms — the search may stop there.
        assert least["cost"] == floor.cost


def test_sixteen_players_over_six_rounds_are_planned_at_the_floor_at_once():
    # The venue's day (issue 43): an affine plane meets every pair once in 5 rounds; any 6th
    # round repeats its tables' 6 pairs, 24 in all — and no plan can repeat fewer, since each
    # player has 18 tablemates over 6 rounds and only 15 others (3 repeats each, halved).
    result = plan(names(16), 6, 4, seed=7)
    check_shape(result, 16, 6, 4)
    check_winds(result)
    report = result.report()
    met = result.meetings()
    assert report["repeat_meetings"] == sum(m - 1 for m in met.values()) == 24
    assert report["best_repeat_meetings"] == 24
    assert report["max_meetings"] == 2  # nobody meets a third time
    assert floor_of(16, 4, [6] * 16, 6, full=True).repeats == 16 * (18 - 15) // 2


def test_a_pair_floor_is_honest_about_what_it_counts():
    # Fewest pairs meeting twice is not fewest repeats: 8 pairs of friends who sit together
    # all day, meeting a different pair of friends each round (a round robin of the 8 pairs,
    # the circle method), make only 8 pairs that meet twice — a plan nobody wants, and the
    # pair floor allows it. The report's headline is the repeats, whose floor it is far above.
    def friends(k: int) -> tuple[str, str]:
        return f"A{k}", f"B{k}"

    rounds = []
    for r in range(6):
        circle = [7, *((r + i) % 7 for i in range(7))]
        tables = tuple((*friends(circle[i]), *friends(circle[7 - i])) for i in range(4))
        rounds.append(PlannedRound(tables, ()))
    everyone = tuple(p for t in rounds[0].tables for p in t)
    report = Plan(tuple(rounds), everyone, 4).report()
    assert report["pairs_met_more_than_once"] == 8 == report["best_pairs_met_more_than_once"]
    assert report["max_meetings"] == 6
    assert report["repeat_meetings"] == 8 * 5 > report["best_repeat_meetings"] == 24
