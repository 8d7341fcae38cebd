"""Issue 33: the ways a round is seated, pure and seeded — Swiss (by standings, a player moved
one table at most to avoid a repeat), interval (one player from each quarter of the standings
at a table), and winds: each player at the wind they have had least."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scoring.errors import ScoringError
from scoring.seating import (
    assign_winds,
    draw_dealer,
    interval,
    meetings,
    repeats,
    seat,
    swiss,
)

PLAYERS = [f"S{i:02d}" for i in range(16)]  # in standings order


def table_of(tables) -> dict[str, int]:
    return {p: i for i, t in enumerate(tables) for p in t}


def test_swiss_keeps_the_standings_and_moves_a_player_one_table_at_most():
    # Last round the standings' tables met already: by standings, every pair would repeat.
    history = meetings([PLAYERS[i : i + 4] for i in range(0, 16, 4)])
    by_standings = seat(PLAYERS, 4, "standings")
    assert repeats(by_standings, history) == 24
    tables = seat(PLAYERS, 4, "swiss", history=history)
    assert repeats(tables, history) < repeats(by_standings, history)
    assert sorted(p for t in tables for p in t) == sorted(PLAYERS)
    where = table_of(tables)
    for rank, player in enumerate(PLAYERS):
        assert abs(where[player] - rank // 4) <= 1  # one table up or down at most


def test_swiss_without_history_is_the_standings():
    assert swiss(PLAYERS, 4, lambda a, b: 0) == seat(PLAYERS, 4, "standings")


def test_interval_spreads_the_standings_over_the_tables():
    tables = interval(PLAYERS, 4)
    assert tables[0] == ["S00", "S04", "S08", "S12"]
    assert tables[3] == ["S03", "S07", "S11", "S15"]
    # A step of 2: two blocks of two tables, each spread over its own.
    stepped = interval(PLAYERS, 4, step=2)
    assert stepped[0] == ["S00", "S02", "S04", "S06"] and stepped[2] == ["S08", "S10", "S12", "S14"]
    assert seat(PLAYERS, 4, "interval") == tables


def test_each_player_takes_the_wind_they_have_had_least():
    table = ["A", "B", "C", "D"]
    had = {"A": [2, 0, 1, 1], "B": [0, 2, 1, 1], "C": [1, 1, 0, 2], "D": [1, 1, 2, 0]}
    # A never sat South, B never East, C never West, D never North.
    assert assign_winds(table, had, random.Random(1)) == ["B", "A", "C", "D"]

    # Over a day the winds even out far better than drawn at random (round by round, a table
    # cannot always give all four what they lack: a whole-day plan balances them exactly).
    def spread(place) -> Counter:
        counts = {p: [0, 0, 0, 0] for p in PLAYERS}
        rng = random.Random(3)
        for _ in range(8):
            for t in seat(PLAYERS, 4, "random", rng=rng):
                for k, p in enumerate(place(t, counts, rng)):
                    counts[p][k] += 1
        return Counter(max(c) - min(c) for c in counts.values())

    def drawn_at_random(table, _counts, rng) -> list:
        order = list(table)
        rng.shuffle(order)
        return order

    least = spread(assign_winds)
    drawn = spread(drawn_at_random)
    assert max(least) <= 2 and least[0] + least[1] > drawn[0] + drawn[1]


def turn_order(table) -> set[tuple[str, str]]:
    """Each seat with the seat on its right (下家): what a kept seating must not change."""
    return {(p, table[(k + 1) % len(table)]) for k, p in enumerate(table)}


def test_keeping_the_seats_draws_only_the_starting_dealer():
    table = ["佐藤", "田中", "高橋", "吉田"]  # the final's first game, East first
    dealers = set()
    for seed in range(20):
        kept = draw_dealer(table, random.Random(seed))
        assert sorted(kept) == sorted(table) and turn_order(kept) == turn_order(table)
        assert draw_dealer(table, random.Random(seed)) == kept  # the seed decides it
        dealers.add(kept[0])
    assert dealers == set(table)  # anyone may deal first: drawn, not the same again
    # A reseat — what seating the final by standings again did: 佐藤 and 田中 changed places.
    assert turn_order(["吉田", "田中", "佐藤", "高橋"]) != turn_order(table)


def test_an_unknown_method_is_named():
    with pytest.raises(ScoringError) as raised:
        seat(PLAYERS, 4, "alphabetical")
    assert raised.value.field == "method"


# --- teams (issue 34): teammates kept apart where possible --------------------------------

# Four teams of four whose members stand next to each other in the standings: by standings,
# each table would be one team.
TEAMS = {p: f"T{i // 4}" for i, p in enumerate(PLAYERS)}


def teammates_together(tables) -> int:
    return sum(
        1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if TEAMS[a] == TEAMS[b]
    )


@pytest.mark.parametrize("method", ["standings", "swiss", "interval", "random"])
def test_every_method_keeps_teammates_apart_where_it_can(method):
    # Interval with a step of 2 puts 1, 3, 5, 7 together: teammates, unless it swaps.
    step = 2 if method == "interval" else None
    plain = seat(PLAYERS, 4, method, rng=random.Random(5), step=step)
    apart = seat(PLAYERS, 4, method, rng=random.Random(5), step=step, teams=TEAMS)
    assert teammates_together(plain) > 0  # the case is a real one
    assert teammates_together(apart) < teammates_together(plain)
    assert sorted(p for t in apart for p in t) == sorted(PLAYERS)
    if method != "interval":  # four teams of four: one of each at every table
        assert teammates_together(apart) == 0


def test_by_standings_teammates_move_no_further_than_it_takes():
    # Two teams of two, each pair side by side in the standings at tables 1 and 3: a swap
    # with the next table parts them; nobody needs to move two tables.
    teams = {"S00": "A", "S01": "A", "S08": "B", "S09": "B"}
    tables = seat(PLAYERS, 4, "standings", teams=teams)
    where = table_of(tables)
    assert where["S00"] != where["S01"] and where["S08"] != where["S09"]
    assert all(abs(where[p] - r // 4) <= 1 for r, p in enumerate(PLAYERS))
    moved = [p for r, p in enumerate(PLAYERS) if where[p] != r // 4]
    assert len(moved) == 4  # two swaps, one per team


def test_teams_scattered_in_the_standings_leave_the_standings_seating_alone():
    teams = {p: f"T{i % 4}" for i, p in enumerate(PLAYERS)}  # no two teammates at a table
    assert seat(PLAYERS, 4, "standings", teams=teams) == seat(PLAYERS, 4, "standings")


def test_a_teammate_weighs_more_than_a_repeat():
    # A and B are teammates; C and D met before. A swap that splits A and B but pairs C and D
    # again is worth making.
    history = meetings([["S00", "S04"]])
    teams = {"S00": "X", "S01": "X"}
    tables = seat(PLAYERS, 4, "swiss", history=history, teams=teams)
    assert table_of(tables)["S00"] != table_of(tables)["S01"]
