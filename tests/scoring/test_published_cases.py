"""Published cases, each priced by its preset as the rule owner priced it (issue 30). Each case
cites its source; where the rules are applied by hand, the arithmetic is in the comment.

E1 §4.3: EMA Riichi Competition Rules 2016, "Scoring examples", read at
https://ooyamaneko.net/en/mahjong/bookcmp/view.php?book=RCR_2016_en&rbook=RCR_2012_en&diff=1&chap=4.3
E3: the EMA's announcement of the 2016 rules (docs/rulesets.md), "Differences to World
Championship Rules 2015: … 4-30 is not rounded to mangan payment".
"""

from __future__ import annotations

import pytest

from scoring.flow import GameFlow
from scoring.hands import parse_hand
from scoring.presets import EMA, MAHJONGSOUL, MLEAGUE, WRC
from scoring.settlement import settle


def deltas(rules, result, dealer=0):
    flow = GameFlow(rules, 4)
    flow.dealer = dealer
    return flow.play(parse_hand({"result": result}, rules, 4)).deltas


def ron(winner, discarder, han, fu):
    return {"type": "ron", "discarder": discarder, "wins": [{"seat": winner, "han": han, "fu": fu}]}


# --- EMA 2016, its own scoring examples (E1 §4.3) -------------------------------------------


def test_ema_example_1_five_fan_is_a_mangan_tsumo():
    # "5 fan is the limit hand called Mangan and it scores 4000 from each if the winner is
    # East; a total of 12000 points. If the winner is not East, he receives 4000 from East and
    # 2000 from each of the other opponents; a total of 8000 points."
    tsumo = {"type": "tsumo", "winner": 0, "han": 5}
    assert deltas(EMA, tsumo) == [12000, -4000, -4000, -4000]
    tsumo = {"type": "tsumo", "winner": 1, "han": 5}
    assert deltas(EMA, tsumo) == [-4000, 8000, -2000, -2000]


def test_ema_example_2_four_fan_thirty_minipoints_ron():
    # "the hand value is 4 fan, 30 minipoints, and it scores 11600 from the discarder if the
    # winner is East. If the winner is not East, he receives 7700."
    assert deltas(EMA, ron(0, 2, 4, 30))[0] == 11600
    assert deltas(EMA, ron(1, 2, 4, 30))[1] == 7700


def test_ema_example_3_two_fan_thirty_minipoints_ron():
    # "The hand value is 2 fan, 30 minipoints, and it scores 2900 from the discarder if the
    # winner is East. If the winner is not East, he receives 2000."
    assert deltas(EMA, ron(0, 3, 2, 30))[0] == 2900
    assert deltas(EMA, ron(1, 3, 2, 30))[1] == 2000


# --- WRC: the same hands where the WRC differs (E3: 4-30 is rounded to mangan there) ---------


def test_wrc_prices_the_ema_example_2_as_a_mangan():
    # 4 fan 30 fu: 30 × 2^(4+2) = 1,920 basic points, rounded up to 2,000 (kiriage): a mangan,
    # 12,000 from the discarder for East, 8,000 for another seat.
    assert deltas(WRC, ron(0, 2, 4, 30))[0] == 12000
    assert deltas(WRC, ron(1, 2, 4, 30))[1] == 8000
    # Below it nothing changes: 2 fan 30 fu is 2,900 / 2,000 as in EMA.
    assert deltas(WRC, ron(1, 3, 2, 30))[1] == 2000


# --- Results ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "scores", "points", "source"),
    [
        # W2: "a table score of 40,000 points and … the best ranked at the table, his session
        # score will be 25": (40,000 − 30,000) / 1,000 + 15 = 25.
        (WRC, [40000, 30000, 28000, 22000], [25.0, 5.0, -7.0, -23.0], "W2"),
        # M.League, a real game of 18 May (https://subculture-fighting.com/4138):
        # (37,000 − 30,000) / 1,000 + 50 = 57.0; −2.7 + 10 = 7.3; −6.2 − 10 = −16.2;
        # −18.1 − 30 = −48.1.
        (MLEAGUE, [37000, 27300, 23800, 11900], [57.0, 7.3, -16.2, -48.1], "M.League"),
        # Mahjong Soul (issue 30, from the room's settings): (32,700 − 25,000) / 1,000 = +7.7,
        # + 15 = 22.7; 2.3 + 5 = 7.3; −3 − 5 = −8; −7 − 15 = −22.
        (MAHJONGSOUL, [32700, 27300, 22000, 18000], [22.7, 7.3, -8.0, -22.0], "S2"),
    ],
)
def test_published_results(rules, scores, points, source):
    assert [p.points for p in settle(rules, scores).players] == points, source
