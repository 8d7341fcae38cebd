"""League standings: totals, games, top rate, average rank, rank counts, ties."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.standings import GameResult, standings


def game(rnd, players, ranks, points, chips=()):
    return GameResult(rnd, tuple(players), tuple(ranks), tuple(points), tuple(chips))


def test_league_totals_top_rate_average_rank_and_rank_counts():
    games = [
        game(1, "ABCD", (1, 2, 3, 4), (40.5, 10.0, -15.2, -35.3)),
        game(2, "ABCE", (2, 1, 4, 3), (5.0, 30.0, -20.0, -15.0)),
        game(3, "ABDE", (4, 1, 2, 3), (-30.0, 45.1, 0.2, -15.3)),
    ]
    result = standings(games, "league", players="ABCDEF")
    rows = {r.player: r for r in result.rows}
    # F has played nothing yet: 0 is above everyone below 0.
    assert [r.player for r in result.rows] == ["B", "A", "F", "E", "D", "C"]
    assert (str(rows["A"].total), str(rows["B"].total)) == ("15.5", "85.1")
    assert rows["A"].games == 3 and rows["F"].games == 0
    assert rows["B"].top_rate == pytest.approx(2 / 3)
    assert rows["A"].average_rank == pytest.approx(7 / 3)
    assert rows["A"].to_json()["rank_counts"] == [1, 1, 0, 1]
    assert {k: float(v) for k, v in rows["A"].rounds.items()} == {1: 40.5, 2: 5.0, 3: -30.0}
    assert all(r.status == "" for r in result.rows)


def test_totals_are_exact_decimals():
    games = [game(r, "ABCD", (1, 2, 3, 4), (0.1, 0.2, -0.1, -0.2)) for r in range(1, 4)]
    row = {r.player: r for r in standings(games).rows}["A"]
    assert str(row.total) == "0.3"


def test_equal_totals_broken_by_top_rate():
    games = [
        game(1, "ABCD", (1, 2, 3, 4), (20, 10, -10, -20)),
        game(2, "ABCD", (3, 2, 1, 4), (0, 10, 20, -30)),
    ]
    rows = standings(games).rows
    # A and B both have 20; A has a first.
    assert [(r.player, r.rank, r.status) for r in rows] == [
        ("A", 1, ""),
        ("B", 2, ""),
        ("C", 3, ""),
        ("D", 4, ""),
    ]


def test_a_tie_nothing_breaks_shares_the_rank_and_says_tie():
    games = [
        game(1, "ABCD", (1, 2, 3, 4), (20, 10, -10, -20)),
        game(2, "ABCD", (2, 1, 3, 4), (10, 20, -10, -20)),
    ]
    rows = standings(games).rows
    assert [(r.rank, r.status) for r in rows] == [(1, "tie"), (1, "tie"), (3, ""), (4, "")]


def test_a_player_cannot_play_a_round_twice():
    with pytest.raises(ScoringError, match="twice"):
        standings(
            [
                game(1, "ABCD", (1, 2, 3, 4), (1, 0, 0, -1)),
                game(1, "AEFG", (1, 2, 3, 4), (1, 0, 0, -1)),
            ]
        )


def test_unknown_format_is_refused():
    with pytest.raises(ScoringError, match="format"):
        standings([], "swiss")
