"""The `ema2025` preset (issues 48, 64; docs/rulesets.md, "`ema2025`"): the EMA's "Rules for
Japanese Mahjong, 2025 edition" (EMA Riichi Rule Committee, August 2025, CC BY-NC-SA 4.0),
http://mahjong-europe.org/portal/images/docs/Riichi-rules-2025-EN.pdf — read whole from the copy
in ldekerg/European-Mahjong (`app/static/docs/Riichi-rules-2025-EN.pdf`, commit ce5172c). A test
per rule the 2025 text states that a knob holds; its worked examples (§4.3, §3.7.1) are in
test_published_cases.py.
"""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.flow import GameFlow
from scoring.hands import parse_hand
from scoring.presets import EMA, EMA2025, PRESETS, WRC, ruleset_from_json
from scoring.settlement import settle


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


# --- kiriage: the one scoring knob 2025 changes (§4.1.2, §4.1.3; revision notes) ---------------


@pytest.mark.parametrize(("han", "fu"), [(4, 30), (3, 60)])
def test_ema2025_rounds_4_han_30_fu_and_3_han_60_fu_up_to_mangan_where_2016_does_not(han, fu):
    # §4.1.2 "any base value greater than 1,900 becomes 2,000": fu × 2^(han+2) = 1,920 basic
    # points. 2016 pays it (7,700 from the discarder for a non-dealer, 11,600 for the dealer);
    # 2025 rounds it up to the mangan's 2,000 (8,000 / 12,000).
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


# --- a chombo after the time signal counts as a hand (§3.4.6, §7.4) ----------------------------


def test_ema2025_a_chombo_in_the_last_hand_after_time_ends_the_game():
    # §7.4: after the signal "the current hand is finished and one more hand is played … A
    # chombo after the time signal is treated as one of the remaining hands." The table marks the
    # last of them `time_up`; a chombo there is the game's last hand: the penalty stands.
    win = {"result": ron(1, 0, 4, 30)}  # seat 1 takes a kiriage mangan, 8,000 from seat 0
    chombo = {"riichi": [3], "result": {"type": "chombo", "offender": 2}, "time_up": True}
    flow = play(EMA2025, win, chombo)
    assert flow.over
    assert flow.records[-1].deltas == [0, 0, 0, 0]  # no payment; seat 3's stick goes back
    result = flow.settlement()
    # 22,000 / 38,000 / 30,000 / 30,000: seat 1 first, +8 + 15 = 23; seat 0 last, −8 − 15 = −23;
    # seats 2 and 3 tie for second and share its and third's uma, (5 − 5) / 2 = 0 each; seat 2
    # then loses its 20 points for the chombo, after the ranking (§3.4.6).
    assert [p.points for p in result.players] == [-23.0, 23.0, -20.0, 0.0]
    assert [p.breakdown["penalty"] for p in result.players] == [0.0, 0.0, -20.0, 0.0]


def test_ema2025_a_chombo_before_time_is_up_is_still_re_dealt():
    # §3.4.6: "a re-deal of the current hand"; "No new counter is placed, and the dealer does
    # not rotate."
    flow = play(EMA2025, {"result": {"type": "chombo", "offender": 2}})
    assert not flow.over
    assert (flow.label, flow.dealer, flow.honba) == ("E1-0", 0, 0)
    assert [p.points for p in flow.settlement().players] == [0.0, 0.0, -20.0, 0.0]


# --- leftover riichi bets on a tie for first (§3.7), and the uma the tied places share (§3.7.1) --


def test_ema2025_splits_leftover_sticks_between_players_tied_for_first():
    # §3.7: "Any riichi bets remaining on the table are collected by the winner; the points are
    # split in case of a tie (any decimals are rounded down)"; §3.7.1: "If players tie for a
    # position, the points for the relevant places are added together and evenly split".
    # 40,000 / 40,000 / 20,000 / 19,000 and one stick left: 500 each, still tied at 40,500, so
    # each takes (15 + 5) / 2 = 10 of uma: 10.5 + 10 = 20.5. Third −10 − 5 = −15, last −26.
    scores = [40000, 40000, 20000, 19000]
    result = settle(EMA2025, scores, deposits=1000)
    assert [p.score for p in result.players] == [40500, 40500, 20000, 19000]
    assert [p.rank for p in result.players] == [1, 1, 3, 4]
    assert [p.points for p in result.players] == [20.5, 20.5, -15.0, -26.0]
    assert result.deposits_lost == 0
    # Before issue 64 the whole stick went to the seat nearer the starting dealer, who then
    # ranked alone first: 26.0 / 15.0 / −15.0 / −26.0.
    nearest = settle(EMA2025.replace(leftover_deposits_tie="nearest_dealer"), scores, 1000)
    assert [p.points for p in nearest.players] == [26.0, 15.0, -15.0, -26.0]


def test_ema2025_three_way_split_rounds_each_share_down():
    # 30,000 × 3 and 29,000 with one stick left: 1,000 / 3 is 333.3 — "any decimals are rounded
    # down". Results are kept to 0.1 point, so each share is 300 (0.3, as 0.333 cut to one
    # decimal) and 100 goes to nobody. Uma (15 + 5 − 5) / 3 = 5 each: 5.3; the last −1 − 15.
    result = settle(EMA2025, [30000, 30000, 30000, 29000], deposits=1000)
    assert [p.score for p in result.players] == [30300, 30300, 30300, 29000]
    assert [p.rank for p in result.players] == [1, 1, 1, 4]
    assert [p.points for p in result.players] == [5.3, 5.3, 5.3, -16.0]
    assert result.deposits_lost == 100


def test_ema2025_a_lone_winner_still_takes_every_leftover_stick():
    result = settle(EMA2025, [41000, 30000, 28000, 20000], deposits=1000)
    assert [p.points for p in result.players] == [27.0, 5.0, -7.0, -25.0]


# --- no 罰符, no floor for a riichi ------------------------------------------------------------


def test_ema2025_puts_no_penalty_into_the_deposits():
    # §6.1.4: "Point penalties are deducted from the player's score at the end of the game after
    # uma is applied … The points are not added to the other players' scores" — an event penalty
    # here, never 1,000 into the deposits for the next winner.
    hand = {"penalties": [2], "result": {"type": "draw", "tenpai": []}}
    with pytest.raises(ScoringError, match="罰符"):
        parse_hand(hand, EMA2025, 4)


def test_ema2025_riichi_from_below_zero_borrows_the_stick():
    # §4.1.4: below zero "the play continues without any changes. The player should borrow point
    # sticks from a referee"; no rule forbids their riichi.
    flow = GameFlow(EMA2025, 4)
    flow.scores = [70000, 30000, 30000, -10000]
    flow.play(parse_hand({"riichi": [3], "result": {"type": "draw", "tenpai": [3]}}, EMA2025, 4))
    assert flow.scores[3] == -10000 - 1000 + 3000 and flow.deposits == 1000


# --- the rest: as the 2016 edition (E1), whose text says the same -------------------------------


def test_ema2025_differs_from_2016_in_kiriage_alone():
    same = {"slug": EMA.slug, "name": EMA.name, "names": EMA.names}
    assert EMA2025.replace(kiriage=False, **same) == EMA
    # …and it is not the WRC's: multiple ron, leftover sticks to the winner.
    assert (EMA2025.max_ron_winners, WRC.max_ron_winners) == (3, 1)
    assert (EMA2025.leftover_deposits, WRC.leftover_deposits) == ("top", "lost")
    assert EMA2025.kiriage == WRC.kiriage


def test_ema2025_double_ron_winners_take_back_their_own_bets():
    # §3.3.10: "all winners who declared riichi get their riichi bets from the current hand back.
    # Any bets from players who did not declare a win, and from previous hands, are collected by
    # the winner first in turn order after the discarder." Seat 0 discards to seats 1 and 2
    # (both in riichi); seat 3's stick and the 1,000 from before go to seat 1, nearest.
    flow = GameFlow(EMA2025, 4)
    flow.deposits = 1000
    wins = [{"seat": 1, "han": 1, "fu": 30}, {"seat": 2, "han": 1, "fu": 30}]
    hand = {"riichi": [1, 2, 3], "result": {"type": "ron", "discarder": 0, "wins": wins}}
    record = flow.play(parse_hand(hand, EMA2025, 4))
    # 1,000 each on the ron; seat 1: −1,000 + 1,000 back + 1,000 + 1,000 + 1,000 (seat 3's and
    # the old one) = 3,000; seat 2: −1,000 + 1,000 back + 1,000 = 1,000; seat 3 −1,000.
    assert record.deltas == [-2000, 3000, 1000, -1000] and record.deposits == 0
