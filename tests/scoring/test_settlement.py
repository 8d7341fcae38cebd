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
