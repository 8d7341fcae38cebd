"""The `ema2025` preset (issue 48; docs/rulesets.md, "`ema2025`"): the EMA's rules as revised in
2025, read from Pantheon's EMA 2025 template (P1) — the EMA's own 2025 text could not be found.
P1 changes two settings of its EMA 2016 ruleset: kiriage, and a chombo in the last hand once
time is up ending the game (the WRC rule book's §8.2, W3). A test per difference from `ema`,
the rest held equal, and the 2016 book's worked examples (E1 §4.3) priced the 2025 way.

E1 §4.3: EMA Riichi Competition Rules 2016, "Scoring examples", read at
https://ooyamaneko.net/en/mahjong/bookcmp/view.php?book=RCR_2016_en&rbook=RCR_2012_en&diff=1&chap=4.3
"""

from __future__ import annotations

import pytest

from scoring.flow import GameFlow
from scoring.hands import parse_hand
from scoring.presets import EMA, EMA2025, PRESETS, WRC, ruleset_from_json


def play(rules, *hands):
    flow = GameFlow(rules, 4)
    for hand in hands:
        flow.play(parse_hand(hand, rules, 4))
    return flow


def deltas(rules, result, dealer=0):
    flow = GameFlow(rules, 4)
    flow.dealer = dealer
    return flow.play(parse_hand({"result": result}, rules, 4)).deltas


def ron(winner, discarder, han, fu):
    return {"type": "ron", "discarder": discarder, "wins": [{"seat": winner, "han": han, "fu": fu}]}


def test_ema2025_is_a_preset_named_in_both_languages():
    assert PRESETS["ema2025"] is EMA2025
    assert ruleset_from_json("ema2025") is EMA2025
    assert ruleset_from_json({"preset": "ema2025", "winds": 1}).kiriage is True
    assert EMA2025.name_in("en") == "EMA Riichi Competition Rules (2025)"
    assert EMA2025.name_in("ja") == "EMA リーチ麻雀競技ルール (2025)"
    assert EMA.name_in("ja") != EMA2025.name_in("ja")  # a reader can tell the editions apart


# --- kiriage: the one scoring knob 2025 changes (P1 `withKiriageMangan: true`) ----------------


@pytest.mark.parametrize(("han", "fu"), [(4, 30), (3, 60)])
def test_ema2025_rounds_4_han_30_fu_and_3_han_60_fu_up_to_mangan_where_2016_does_not(han, fu):
    # fu × 2^(han+2) = 1,920 basic points: 2016 pays it (7,700 from the discarder for a
    # non-dealer, 11,600 for the dealer); 2025 rounds it up to the mangan's 2,000 (8,000 / 12,000).
    assert deltas(EMA2025, ron(1, 0, han, fu))[1] == 8000
    assert deltas(EMA2025, ron(0, 2, han, fu))[0] == 12000
    assert deltas(EMA, ron(1, 0, han, fu))[1] == 7700
    assert deltas(EMA, ron(0, 2, han, fu))[0] == 11600


def test_ema2025_kiriage_on_a_tsumo_and_with_counters():
    # A non-dealer's tsumo at 4 han 30 fu: 2016 pays 1,920 and 3,840 rounded up to 100 (2,000
    # from each non-dealer, 3,900 from the dealer: 7,900); 2025 a mangan, 2,000 / 4,000 (8,000).
    tsumo = {"type": "tsumo", "winner": 1, "han": 4, "fu": 30}
    assert deltas(EMA, tsumo) == [-3900, 7900, -2000, -2000]
    assert deltas(EMA2025, tsumo) == [-4000, 8000, -2000, -2000]
    # Counters add on top as before: 1 honba on a ron is 300 more, from the discarder.
    flow = GameFlow(EMA2025, 4)
    flow.honba = 1
    record = flow.play(parse_hand({"result": ron(1, 3, 4, 30)}, EMA2025, 4))
    assert record.deltas == [0, 8300, 0, -8300]


def test_ema2025_leaves_the_hands_below_and_above_alone():
    # 3 han 30 fu (3,900 / 5,800) and 4 han 40 fu (a mangan already) price as in 2016.
    for han, fu in ((3, 30), (4, 40), (2, 70)):
        assert deltas(EMA2025, ron(1, 0, han, fu)) == deltas(EMA, ron(1, 0, han, fu))
        assert deltas(EMA2025, ron(0, 2, han, fu)) == deltas(EMA, ron(0, 2, han, fu))


# --- a chombo in the last hand once time is up ends the game (P1 `chomboEndsGame: true`) -------


def test_ema2025_a_chombo_in_the_last_hand_after_time_ends_the_game():
    # W3 §8.2 (the WRC's own words, the rule P1's EMA 2025 takes): "In case of chonbo during the
    # last hand, the hand is not re-dealt." The table marks the hand in which time ran out
    # (`time_up`); a chombo there is the game's last hand: no redeal, the penalty stands.
    win = {"result": ron(1, 0, 4, 30)}  # E1: seat 1 takes a kiriage mangan, 8,000 from seat 0
    chombo = {"riichi": [3], "result": {"type": "chombo", "offender": 2}, "time_up": True}
    flow = play(EMA2025, win, chombo)
    assert flow.over
    assert flow.records[-1].deltas == [0, 0, 0, 0]  # no payment; seat 3's stick goes back
    result = flow.settlement()
    # 22,000 / 38,000 / 30,000 / 30,000: seat 1 first, +8 + 15 = 23; seat 0 last, −8 − 15 = −23;
    # seats 2 and 3 tie for second and share its and third's uma, (5 − 5) / 2 = 0 each; seat 2
    # then loses its 20 points for the chombo, after the ranking.
    assert [p.points for p in result.players] == [-23.0, 23.0, -20.0, 0.0]
    assert [p.breakdown["penalty"] for p in result.players] == [0.0, 0.0, -20.0, 0.0]


def test_ema2025_a_chombo_before_time_is_up_is_still_re_dealt():
    # Without the time mark nothing changes from 2016: the same hand is dealt again.
    flow = play(EMA2025, {"result": {"type": "chombo", "offender": 2}})
    assert not flow.over
    assert (flow.label, flow.dealer, flow.honba) == ("E1-0", 0, 0)
    assert [p.points for p in flow.settlement().players] == [0.0, 0.0, -20.0, 0.0]


# --- everything else is 2016's -----------------------------------------------------------------


def test_ema2025_keeps_every_other_knob_of_2016():
    # P1's `ema2025.php` is its `ema.php` with two settings changed; one of them is a knob here.
    same = {"slug": EMA.slug, "name": EMA.name, "names": EMA.names}
    assert EMA2025.replace(kiriage=False, **same) == EMA
    # …and it is not the WRC's: multiple ron, leftover sticks to the winner, riichi needs 1,000.
    assert (EMA2025.max_ron_winners, WRC.max_ron_winners) == (3, 1)
    assert (EMA2025.leftover_deposits, WRC.leftover_deposits) == ("top", "lost")
    assert EMA2025.kiriage == WRC.kiriage


# --- the 2016 book's worked examples (E1 §4.3), priced the 2025 way ---------------------------
# No 2025 worked example was found; the 2016 examples are repriced with the 2025 kiriage where it
# changes them, the arithmetic beside each.


def test_ema_2016_example_1_five_fan_is_still_a_mangan_tsumo():
    # "5 fan … scores 4000 from each if the winner is East … If the winner is not East, he
    # receives 4000 from East and 2000 from each of the other opponents" — no rounding involved.
    assert deltas(EMA2025, {"type": "tsumo", "winner": 0, "han": 5}) == [12000, -4000, -4000, -4000]
    assert deltas(EMA2025, {"type": "tsumo", "winner": 1, "han": 5}) == [-4000, 8000, -2000, -2000]


def test_ema_2016_example_2_four_fan_thirty_minipoints_becomes_a_mangan():
    # 2016: "4 fan, 30 minipoints, and it scores 11600 from the discarder if the winner is East.
    # If the winner is not East, he receives 7700." In 2025 the 1,920 basic points round up to
    # 2,000: 6 × 2,000 = 12,000 for East, 4 × 2,000 = 8,000 for another seat.
    assert deltas(EMA2025, ron(0, 2, 4, 30))[0] == 12000
    assert deltas(EMA2025, ron(1, 2, 4, 30))[1] == 8000


def test_ema_2016_example_3_two_fan_thirty_minipoints_is_unchanged():
    # "2 fan, 30 minipoints, and it scores 2900 from the discarder if the winner is East. If the
    # winner is not East, he receives 2000." 30 × 2^4 = 480 basic points: far below a mangan.
    assert deltas(EMA2025, ron(0, 3, 2, 30))[0] == 2900
    assert deltas(EMA2025, ron(1, 3, 2, 30))[1] == 2000
