"""Published cases, each priced by its preset as the rule owner priced it (issue 30). Each case
cites its source; where the rules are applied by hand, the arithmetic is in the comment.

E1 §4.3: EMA Riichi Competition Rules 2016, "Scoring examples", read at
https://ooyamaneko.net/en/mahjong/bookcmp/view.php?book=RCR_2016_en&rbook=RCR_2012_en&diff=1&chap=4.3
and in the EMA's own PDF (http://mahjong-europe.org/portal/images/docs/Riichi-rules-2016-EN.pdf,
SHA-256 1bcfe2a0…6530, copy in realliance/RiichiRoyale `docs/Riichi-rules-2016-EN.pdf`).
E25: the EMA's "Rules for Japanese Mahjong, 2025 edition" (EMA Riichi Rule Committee, August
2025), http://mahjong-europe.org/portal/images/docs/Riichi-rules-2025-EN.pdf, read whole from the
copy in ldekerg/European-Mahjong (`app/static/docs/Riichi-rules-2025-EN.pdf`, commit ce5172c).
E3: the EMA's announcement of the 2016 rules (docs/rulesets.md), "Differences to World
Championship Rules 2015: … 4-30 is not rounded to mangan payment".
"""

from __future__ import annotations

import pytest

from scoring.flow import GameFlow
from scoring.hands import parse_hand
from scoring.presets import EMA, EMA2025, MAHJONGSOUL, MLEAGUE, WRC
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


def test_ema_example_8_four_fan_thirty_minipoints_tsumo():
    # "The hand value is 4 fan, 30 minipoints and it scores 3,900 from each (a total of 11,700)
    # if the winner is East, and it scores 3,900 from East and 2,000 from the two other
    # opponents otherwise (a total of 7,900)." (2025 prices the same hand a mangan: below.)
    tsumo = {"type": "tsumo", "winner": 0, "han": 4, "fu": 30}
    assert deltas(EMA, tsumo) == [11700, -3900, -3900, -3900]
    tsumo = {"type": "tsumo", "winner": 1, "han": 4, "fu": 30}
    assert deltas(EMA, tsumo) == [-3900, 7900, -2000, -2000]


def test_ema_winner_bonus_example_two_tied_for_first():
    # E1 §3.6.1: "if two players are tied at the first position, each gets a bonus of 10,000
    # points" — (15,000 + 5,000) / 2.
    result = settle(EMA, [40000, 40000, 25000, 15000])
    assert [p.breakdown["uma"] for p in result.players] == [10.0, 10.0, -5.0, -15.0]


# --- EMA 2025, its own scoring examples (E25 §4.3) ------------------------------------------
# The text counts the han and minipoints; the engine prices them. Each cell of the text's table
# is one assertion: East first, then a non-East winner.


def test_ema2025_example_1_five_han_is_a_mangan_tsumo():
    # "5 han. … mangan and it scores 4,000 from each if the winner is East; a total of 12,000
    # points. If the winner is not East, they receive 4,000 from East and 2,000 from each of the
    # other opponents; a total of 8,000 points."
    assert deltas(EMA2025, {"type": "tsumo", "winner": 0, "han": 5}) == [12000, -4000, -4000, -4000]
    assert deltas(EMA2025, {"type": "tsumo", "winner": 1, "han": 5}) == [-4000, 8000, -2000, -2000]


def test_ema2025_example_2_four_han_thirty_minipoints_ron_is_rounded_up_to_mangan():
    # "4 han, 30 minipoints, which is rounded up to mangan. The hand scores 12,000 from the
    # discarder if the winner is East. If the winner is not East, the hand scores 8,000."
    # (2016's example 2, the same hand: 11,600 / 7,700.)
    assert deltas(EMA2025, ron(0, 2, 4, 30)) == [12000, 0, -12000, 0]
    assert deltas(EMA2025, ron(1, 2, 4, 30)) == [0, 8000, -8000, 0]


def test_ema2025_example_3_two_han_thirty_minipoints_ron():
    # "2 han, 30 minipoints, and it scores 2,900 from the discarder if the winner is East. If the
    # winner is not East, they receive 2,000."
    assert deltas(EMA2025, ron(0, 3, 2, 30))[0] == 2900
    assert deltas(EMA2025, ron(1, 3, 2, 30))[1] == 2000


def test_ema2025_example_4_yakuman_tsumo():
    # Four Concealed Triplets by self-draw: "If the winner is East, they receive 16,000 from
    # each; a total of 48,000. If the winner is not East, they receive 16,000 from East and 8,000
    # from each of the other opponents; a total of 32,000."
    tsumo = {"type": "tsumo", "winner": 0, "yakuman": 1}
    assert deltas(EMA2025, tsumo) == [48000, -16000, -16000, -16000]
    tsumo = {"type": "tsumo", "winner": 1, "yakuman": 1}
    assert deltas(EMA2025, tsumo) == [-16000, 32000, -8000, -8000]


def test_ema2025_example_5_eight_han_is_a_baiman_ron():
    # "a total of 8 han. This is the limit hand called baiman, and it scores 24,000 points from
    # the discarder if the winner is East. If the winner is not East, they receive 16,000".
    assert deltas(EMA2025, ron(0, 1, 8, 40))[0] == 24000
    assert deltas(EMA2025, ron(2, 1, 8, 40))[2] == 16000


def test_ema2025_example_6_six_han_is_a_haneman_tsumo():
    # "Total: 6 han. This is the limit hand called haneman, and it scores 6,000 from each if the
    # winner is East; a total of 18,000 points. If the winner is not East, they receive 6,000
    # from East and 3,000 from each of the other opponents; a total of 12,000 points."
    tsumo = {"type": "tsumo", "winner": 0, "han": 6}
    assert deltas(EMA2025, tsumo) == [18000, -6000, -6000, -6000]
    tsumo = {"type": "tsumo", "winner": 3, "han": 6}
    assert deltas(EMA2025, tsumo) == [-6000, -3000, -3000, 12000]


def test_ema2025_example_7_seven_pairs_two_han_twenty_five_minipoints_ron():
    # "2 han, 25 minipoints, and it scores 2,400 points from the discarder if the winner is East
    # and 1,600 points otherwise."
    assert deltas(EMA2025, ron(0, 1, 2, 25))[0] == 2400
    assert deltas(EMA2025, ron(3, 1, 2, 25))[3] == 1600


def test_ema2025_example_8_four_han_thirty_minipoints_tsumo_is_a_mangan():
    # "4 han, 30 minipoints, equivalent to a mangan in payment, and it scores 4,000 from each if
    # the winner is East; a total of 12,000. If the winner is not East, they receive 4,000 from
    # East and 2,000 from each of the other opponents; a total of 8,000." (2016's example 8, the
    # same hand: 3,900 each / 3,900 and 2,000.)
    tsumo = {"type": "tsumo", "winner": 0, "han": 4, "fu": 30}
    assert deltas(EMA2025, tsumo) == [12000, -4000, -4000, -4000]
    tsumo = {"type": "tsumo", "winner": 1, "han": 4, "fu": 30}
    assert deltas(EMA2025, tsumo) == [-4000, 8000, -2000, -2000]


def test_ema2025_example_9_six_han_east_ron():
    # "The player is East in an east round. … The hand value is 6 han. The winner scores 18,000
    # from the discarder."
    assert deltas(EMA2025, ron(0, 2, 6, 40)) == [18000, 0, -18000, 0]


def test_ema2025_example_10_four_han_forty_minipoints_tsumo_by_south():
    # "The player is South. … 4 han, 40 minipoints, equivalent to a mangan in payment: 4,000
    # from East and 2,000 from the others for a total of 8,000 points."
    tsumo = {"type": "tsumo", "winner": 1, "han": 4, "fu": 40}
    assert deltas(EMA2025, tsumo) == [-4000, 8000, -2000, -2000]


# --- EMA 2025, the payments and settlements its text spells out ---------------------------


@pytest.mark.parametrize(
    ("tenpai", "expected"),
    [
        # E25 §3.4.2: "If three players are tenpai, the noten player pays 1,000 to each. If two
        # players are tenpai, they each receive 1,500 points from a noten player. If only one
        # player is tenpai, they receive 1,000 points from each of the noten players. If none or
        # all players are tenpai, no points are exchanged."
        ([0, 1, 2], [1000, 1000, 1000, -3000]),
        ([1, 3], [-1500, 1500, -1500, 1500]),
        ([2], [-1000, -1000, 3000, -1000]),
        ([], [0, 0, 0, 0]),
        ([0, 1, 2, 3], [0, 0, 0, 0]),
    ],
)
def test_ema2025_noten_payments(tenpai, expected):
    assert deltas(EMA2025, {"type": "draw", "tenpai": tenpai}) == expected


def test_ema2025_counters():
    # E25 §3.4.4: "Each counter on the table increases the value of a winning hand by 300 points.
    # In case of a win by self-draw … each opponent pays 100 points for each counter … In case of
    # multiple winners, the discarder pays 300 for each counter to every winner." Two counters.
    def with_two_counters(result):
        flow = GameFlow(EMA2025, 4)
        flow.honba = 2
        return flow.play(parse_hand({"result": result}, EMA2025, 4)).deltas

    assert with_two_counters(ron(1, 0, 1, 30)) == [-1600, 1600, 0, 0]  # 1,000 + 600
    tsumo = {"type": "tsumo", "winner": 1, "han": 1, "fu": 30}
    assert with_two_counters(tsumo) == [-700, 1700, -500, -500]  # 500 / 300 each, + 200 each
    wins = [{"seat": 1, "han": 1, "fu": 30}, {"seat": 3, "han": 1, "fu": 30}]
    two = {"type": "ron", "discarder": 0, "wins": wins}
    assert with_two_counters(two) == [-3200, 1600, 0, 1600]  # 1,600 to each winner


def test_ema2025_chombo_outside_a_tournament_is_a_reverse_mangan():
    # E25 §3.4.6: "Outside tournaments, the chombo penalty is a reverse mangan payment: 4,000 to
    # East, 2,000 to other players. If the offending player is East, 4,000 is paid to each of the
    # other players." The preset is the tournament's (20 off the result); a club's knob:
    club = EMA2025.replace(chombo="reverse_mangan")
    assert deltas(club, {"type": "chombo", "offender": 2}) == [4000, 2000, -8000, 2000]
    assert deltas(club, {"type": "chombo", "offender": 0}) == [-12000, 4000, 4000, 4000]


@pytest.mark.parametrize(
    ("scores", "uma"),
    [
        # E25 §3.7.1, winner bonus example 1: "If two players tie for 1st place, the 1st place
        # bonus (+15,000 points) and 2nd place bonus (+5,000 points) are combined, resulting in
        # 20,000 points. Each of the tied players receives half of that total, or 10,000 points."
        ([40000, 40000, 25000, 15000], [10.0, 10.0, -5.0, -15.0]),
        # Example 2: "If three players tie for 2nd place, the bonus for 2nd (+5,000) and the
        # penalties for 3rd (-5,000) and 4th (-15,000) are added together to get -15,000 points,
        # and each tied player receives a third of that, or -5,000 points."
        ([45000, 25000, 25000, 25000], [15.0, -5.0, -5.0, -5.0]),
    ],
)
def test_ema2025_winner_bonus_examples(scores, uma):
    assert [p.breakdown["uma"] for p in settle(EMA2025, scores).players] == uma


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
