"""Settlement mechanics not tied to one preset."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.hands import YakumanWin
from scoring.presets import BABA, JAN_NIKI
from scoring.settlement import Bust, settle
from tests.scoring.support import rules


def test_leftover_deposits_lost_when_the_venue_says_so():
    lost = rules({"preset": "baba", "leftover_deposits": "lost"})
    result = settle(lost, [40000, 30000, 20000, 8000], deposits=2000)
    assert result.players[0].score == 40000 and result.deposits_lost == 2000
    assert sum(p.points for p in result.players) == pytest.approx(-2.0)


@pytest.mark.parametrize(
    ("tie", "ranks", "points"),
    [
        # Both still at 36,000 and tied: they share 1st and 2nd (+10 +20 oka, +5): 6 + 17.5.
        ("split", [1, 1, 3, 4], [23.5, 23.5, -15.0, -32.0]),
        # Ranked by seat, each with half the sticks: 6 + 10 + 20 and 6 + 5.
        ("seat", [1, 2, 3, 4], [36.0, 11.0, -15.0, -32.0]),
    ],
)
def test_tied_first_places_split_the_leftover_deposits_where_the_venue_says_so(tie, ranks, points):
    knobs = {"preset": "baba", "tie": tie, "leftover_deposits_tie": "split_down"}
    result = settle(rules(knobs), [35000, 35000, 20000, 8000], deposits=2000)
    assert [p.score for p in result.players] == [36000, 36000, 20000, 8000]
    assert [p.rank for p in result.players] == ranks
    assert [p.points for p in result.players] == points
    assert result.deposits_lost == 0
    # The default: all to the seat nearer the starting dealer, who ranks alone first.
    nearest = settle(rules({"preset": "baba", "tie": tie}), [35000, 35000, 20000, 8000], 2000)
    assert [p.score for p in nearest.players] == [37000, 35000, 20000, 8000]
    assert [p.rank for p in nearest.players] == [1, 2, 3, 4]


def test_a_split_of_leftover_deposits_rounds_each_share_down_to_100():
    # 2,000 three ways is 666.7: 600 each, on the 100s every score keeps; 200 go to nobody.
    knobs = {"preset": "baba", "tie": "split", "leftover_deposits_tie": "split_down"}
    result = settle(rules(knobs), [30000, 30000, 30000, 8000], deposits=2000)
    assert [p.score for p in result.players] == [30600, 30600, 30600, 8000]
    assert result.deposits_lost == 200
    assert sum(p.points for p in result.players) == pytest.approx(-0.2)


def test_split_ties_share_uma_and_oka():
    split = rules({"preset": "baba", "tie": "split"})
    result = settle(split, [35000, 35000, 20000, 10000])
    assert [p.rank for p in result.players] == [1, 1, 3, 4]
    # 1st and 2nd places (+10 +20 oka, +5) shared: 17.5 each.
    assert [p.breakdown["uma"] for p in result.players[:2]] == [17.5, 17.5]
    assert sum(p.points for p in result.players) == pytest.approx(0)


def test_bust_prize_needs_a_real_bust():
    with pytest.raises(ScoringError) as err:
        settle(BABA, [40000, 30000, 30000, 0], busts=[Bust(3, (0,))])
    assert err.value.field == "busts[0].seat"


def test_a_bust_with_nobody_to_blame_moves_nothing():
    result = settle(BABA, [45000, 30000, 26000, -1000], busts=[Bust(3, ())])
    assert [p.breakdown["bust"] for p in result.players] == [0.0] * 4


def test_scores_must_be_on_100s():
    with pytest.raises(ScoringError) as err:
        settle(BABA, [25050, 24950, 25000, 25000])
    assert err.value.field == "scores[0]"


def test_pao_does_not_move_chips_unless_the_venue_says_so():
    wins = [YakumanWin(1, "tsumo", 1, pao=3, pao_count=1)]
    assert [p.breakdown["shugi"] for p in settle(JAN_NIKI, [25000] * 4, yakuman=wins).players] == [
        -10.0,
        30.0,
        -10.0,
        -10.0,
    ]
