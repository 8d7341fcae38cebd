"""The standard rulesets (docs/rulesets.md): a test per rule, the published worked examples, and
the knobs they brought — rounding half up, nagashi as Tenhou and EMA play it, chombo as a
penalty on the result, and penalties on `settle` and `game` (CONTRACT §1 "Penalties")."""

from __future__ import annotations

import pytest

from scoring.cli import run
from scoring.errors import ScoringError
from scoring.flow import GameFlow
from scoring.hands import parse_hand
from scoring.presets import (
    EMA,
    EMA2025,
    MAHJONGSOUL,
    MLEAGUE,
    TENHOU,
    WRC,
    WRC2022,
    ruleset_from_json,
)
from scoring.settlement import Penalty, settle


def points(rules, scores, **kw):
    return [p.points for p in settle(rules, scores, **kw).players]


def play(rules, *hands, n=4):
    flow = GameFlow(rules, n)
    for h in hands:
        flow.play(parse_hand(h, rules, n))
    return flow


# --- Tenhou ---------------------------------------------------------------------------------------


def test_tenhou_rounded_half_up_to_the_thousand_in_its_earlier_years():
    earlier = TENHOU.replace(rounding=TENHOU.rounding_earlier)
    # −12.5 → −12, +1.5 → +2 (the examples); uma 10-20; the top takes the rest.
    assert points(earlier, [36000, 31500, 17500, 15000]) == [45.0, 12.0, -22.0, -35.0]
    # −4.5 → −4 as well; a plain −14.6 goes to −15.
    assert points(earlier, [48900, 25500, 15400, 10200]) == [59.0, 6.0, -25.0, -40.0]


def test_tenhou_today_prints_tenths():
    # Issue 64: (final − 30000) / 1000 + uma, oka 20 to the top, nothing rounded.
    assert points(TENHOU, [36000, 31500, 17500, 15000]) == [46.0, 11.5, -22.5, -35.0]
    assert points(TENHOU, [34100, 11700, 32100, 22100]) == [44.1, -38.3, 12.1, -17.9]


def test_gosha_rokunyu_is_not_half_up():
    jan = TENHOU.replace(rounding="gosha_rokunyu")
    assert points(jan, [36000, 31500, 17500, 15000])[1:] == [11.0, -23.0, -35.0]


def test_tenhou_nagashi_leaves_the_sticks_and_pays_no_honba():
    flow = play(
        TENHOU,
        {"result": {"type": "draw", "tenpai": [1]}},  # E1: dealer noten, the deal passes, 1 honba
        {"riichi": [3], "result": {"type": "nagashi", "winners": [2], "tenpai": [1, 3]}},
    )
    nagashi = flow.records[-1]
    assert nagashi.label == "E2-1"
    assert nagashi.deltas == [-2000, -4000, 8000, -2000 - 1000]  # a mangan, no honba; stick out
    assert nagashi.deposits == 1000  # the stick stays on the table
    # As an exhaustive draw: the dealer (seat 1) was tenpai, so the deal stays, honba + 1.
    assert (flow.dealer, flow.honba, flow.label) == (1, 2, "E2-2")


def test_tenhou_every_abortive_draw_repeats_the_deal():
    flow = play(TENHOU, {"result": {"type": "abort", "reason": "kyuushu"}})
    assert (flow.dealer, flow.honba) == (0, 1)


def test_tenhou_stops_by_itself_so_the_table_never_marks_a_stop():
    with pytest.raises(ScoringError, match="stop"):
        play(TENHOU, {"stop": True, "result": {"type": "tsumo", "winner": 0, "han": 1, "fu": 30}})


def test_tenhou_east_only_games_are_one_knob_away():
    east = ruleset_from_json({"preset": "tenhou", "winds": 1})
    assert east.winds == 1 and east.extension_below == 30000
    flow = play(east, *[{"result": {"type": "draw", "tenpai": []}}] * 4)
    assert flow.over is False and flow.label == "S1-4"  # nobody at 30000: South, sudden death


def test_a_pao_ron_honba_is_paid_by_the_pao_seat_at_tenhou():
    flow = GameFlow(TENHOU, 4)
    flow.honba = 1
    hand = {
        "result": {"type": "ron", "discarder": 1, "wins": [{"seat": 2, "yakuman": 1, "pao": 3}]}
    }
    record = flow.play(parse_hand(hand, TENHOU, 4))
    assert record.deltas == [0, -16000, 32300, -16300]


def test_mahjongsoul_has_no_oka_a_32700_finish_is_7_7_before_uma():
    # Issue 30 (Mahjong Soul's room settings: 精算原点 25,000, uma +15/+5/−5/−15):
    # 32,700 → (32,700 − 25,000) / 1,000 = +7.7, + 15 = 22.7; 27,300 → 2.3 + 5 = 7.3;
    # 22,000 → −3 − 5 = −8; 18,000 → −7 − 15 = −22. With Tenhou's oka the top had 42.7.
    assert MAHJONGSOUL.oka == 0 and MAHJONGSOUL.rounding == "exact"
    assert points(MAHJONGSOUL, [32700, 27300, 22000, 18000]) == [22.7, 7.3, -8.0, -22.0]
    assert MAHJONGSOUL.extension_below == 30000  # the target for West is still 30,000


def test_mahjongsoul_pays_a_triple_ron_and_gives_honba_and_sticks_to_the_nearest():
    # S1: multiple rons available, no 三家和. Seat 0 deals in to 1, 2 and 3 at 1 honba with a
    # riichi stick on the table: each winner is paid by seat 0; the 300 honba and the stick go
    # to seat 1 (nearest the discarder in turn order).
    flow = GameFlow(MAHJONGSOUL, 4)
    flow.honba, flow.deposits = 1, 1000
    wins = [{"seat": s, "han": 1, "fu": 30} for s in (1, 2, 3)]
    hand = {"result": {"type": "ron", "discarder": 0, "wins": wins}}
    record = flow.play(parse_hand(hand, MAHJONGSOUL, 4))
    assert record.deltas == [-3300, 1000 + 300 + 1000, 1000, 1000]
    with pytest.raises(ScoringError, match="三家和"):  # Tenhou ends such a hand instead
        parse_hand(hand, TENHOU, 4)


def test_sanchahou_needs_two_ron_winners():
    with pytest.raises(ScoringError) as refused:
        MAHJONGSOUL.replace(aborts={**MAHJONGSOUL.aborts, "sanchahou": "repeat"})
    assert refused.value.field == "ruleset.aborts.sanchahou"


# --- EMA and WRC -----------------------------------------------------------------------------


def test_wrc_published_example_a_first_place_40000_scores_25():
    # Sylvain Malbec (WRC rules author), WRC 2014 rules thread: "a table score of 40,000 points
    # and ... the best ranked at the table, his session score will be 25".
    assert points(WRC, [40000, 30000, 28000, 22000])[0] == 25.0


@pytest.mark.parametrize("rules", [EMA, EMA2025, WRC])
def test_ema_and_wrc_share_uma_on_ties_and_have_no_oka(rules):
    assert rules.oka == 0
    assert points(rules, [35000, 35000, 25000, 25000]) == [15.0, 15.0, -15.0, -15.0]


@pytest.mark.parametrize("rules", [EMA, EMA2025, WRC])
def test_ema_and_wrc_play_on_below_zero_with_no_abortive_draws(rules):
    flow = GameFlow(rules, 4)
    flow.scores = [70000, 30000, 25000, -5000]
    flow.play(parse_hand({"result": {"type": "draw", "tenpai": [0]}}, rules, 4))
    assert not flow.over
    with pytest.raises(ScoringError, match=r"abort|not allowed"):
        parse_hand({"result": {"type": "abort", "reason": "kyuushu"}}, rules, 4)


@pytest.mark.parametrize("rules", [EMA, EMA2025])
def test_ema_dealer_keeps_the_deal_by_winning_or_being_tenpai_at_a_draw(rules):
    # E1 §3.4.11, E25 §3.4.5: "East remains East if they declare a win or are tenpai at the time
    # of an exhaustive draw"; a counter is added either way (E1 §3.4.10, E25 §3.4.4).
    flow = play(rules, {"result": {"type": "draw", "tenpai": [0]}})
    assert (flow.dealer, flow.honba) == (0, 1)
    flow = play(rules, {"result": {"type": "draw", "tenpai": [1]}})
    assert (flow.dealer, flow.honba) == (1, 1)


@pytest.mark.parametrize("rules", [EMA, EMA2025, WRC])
def test_ema_and_wrc_count_13_han_as_sanbaiman(rules):
    flow = play(rules, {"result": {"type": "tsumo", "winner": 1, "han": 13, "fu": 30}})
    assert flow.records[0].deltas == [-12000, 24000, -6000, -6000]


def test_ema_chombo_is_twenty_points_off_the_result_and_the_hand_is_replayed():
    flow = play(EMA, {"riichi": [2], "result": {"type": "chombo", "offender": 2}})
    assert flow.records[0].deltas == [0, 0, 0, 0]  # no score payment; the stick goes back
    assert (flow.label, flow.dealer, flow.honba) == ("E1-0", 0, 0)  # a redeal
    result = flow.settlement()
    assert [p.breakdown["penalty"] for p in result.players] == [0.0, 0.0, -20.0, 0.0]
    # After ranking: seat 2 keeps its place (tied scores: the seat nearer the dealer first).
    assert [p.rank for p in result.players] == [1, 1, 1, 1]  # EMA splits ties
    assert [p.points for p in result.players] == [0.0, 0.0, -20.0, 0.0]


# EMA 2008–2012's nagashi (E2): the knobs stay for a venue that plays it.
EMA_2012_NAGASHI = EMA.replace(
    nagashi="mangan",
    nagashi_multiple="all",
    nagashi_deposits="table",
    nagashi_honba=True,
    nagashi_flow="draw",
)


def test_ema_2012_nagashi_pays_honba_and_leaves_the_sticks():
    rules = EMA_2012_NAGASHI
    flow = GameFlow(rules, 4)
    flow.honba, flow.deposits = 1, 1000
    record = flow.play(
        parse_hand({"result": {"type": "nagashi", "winners": [1], "tenpai": []}}, rules, 4)
    )
    assert record.deltas == [-4100, 8300, -2100, -2100] and record.deposits == 1000
    assert (flow.dealer, flow.honba) == (1, 2)  # the dealer was not tenpai: the deal passes


@pytest.mark.parametrize("rules", [EMA, EMA2025, WRC])
def test_ema_2016_and_wrc_have_no_nagashi(rules):
    # E3: "Nagashi Mangan is not allowed" (the EMA's announcement of its 2016 rules).
    with pytest.raises(ScoringError, match="nagashi"):
        parse_hand({"result": {"type": "nagashi", "winners": [1], "tenpai": []}}, rules, 4)


def test_wrc_rounds_4_han_30_fu_and_3_han_60_fu_up_to_mangan_and_ema_does_not():
    # E3, differences to WRC 2015: "4-30 is not rounded to mangan payment" (in EMA).
    # Non-dealer ron: 4 han 30 fu is 7700 without kiriage, 8000 (mangan) with it.
    for han, fu in ((4, 30), (3, 60)):
        hand = {
            "result": {"type": "ron", "discarder": 0, "wins": [{"seat": 1, "han": han, "fu": fu}]}
        }
        assert play(WRC, hand).records[0].deltas[1] == 8000
        assert play(EMA, hand).records[0].deltas[1] == 7700


def test_wrc_leftover_riichi_sticks_go_to_nobody_and_ema_gives_them_to_the_winner():
    # E3, differences to WRC 2015: "Riichi bets at game end go to the winner" (in EMA).
    scores = [41000, 30000, 28000, 20000]  # 1,000 left on the table
    assert points(EMA, scores, deposits=1000)[0] == 27.0  # (42,000 − 30,000) / 1,000 + 15
    assert points(WRC, scores, deposits=1000)[0] == 26.0  # (41,000 − 30,000) / 1,000 + 15


def test_ema_2016_splits_leftover_sticks_between_players_tied_for_first():
    # E1 §3.6 (2016): "Any riichi bets remaining on the table are collected by the winner; the
    # points are split in case of a tie." 500 each keeps seats 0 and 1 tied at 40,500, so they
    # share the uma of 1st and 2nd (§3.6.1): 10.5 + 10 = 20.5 each.
    assert points(EMA, [40000, 40000, 20000, 19000], deposits=1000) == [20.5, 20.5, -15.0, -26.0]


def test_ema_2016_puts_no_penalty_into_the_deposits():
    # E1 §5.5, §5.7: point penalties come off the result after uma and "are not added to the
    # other players' scores" — no 罰符 for the next winner.
    with pytest.raises(ScoringError, match="罰符"):
        parse_hand({"penalties": [1], "result": {"type": "draw", "tenpai": []}}, EMA, 4)


def test_wrc_has_one_winner_per_discard():
    # WRC Rules 2015 §5.7.6: "only the player closer to the discarder … will win … Each hand
    # can have only one winner." (EMA 2016 still pays a double ron.)
    hand = {
        "result": {
            "type": "ron",
            "discarder": 0,
            "wins": [{"seat": 2, "han": 1, "fu": 30}, {"seat": 1, "han": 1, "fu": 30}],
        }
    }
    with pytest.raises(ScoringError, match="atamahane"):
        parse_hand(hand, WRC, 4)
    parse_hand(hand, EMA, 4)


@pytest.mark.parametrize("rules", [EMA, EMA2025, WRC])
def test_ema_and_wrc_count_one_yakuman_at_most(rules):
    double = {"result": {"type": "tsumo", "winner": 1, "yakuman": 2}}
    with pytest.raises(ScoringError, match="at most 1 yakuman") as refused:
        parse_hand(double, rules, 4)
    assert refused.value.field == "result.yakuman"
    flow = play(rules, {"result": {"type": "tsumo", "winner": 1, "yakuman": 1}})
    assert flow.records[0].deltas == [-16000, 32000, -8000, -8000]
    parse_hand(double, TENHOU, 4)  # Tenhou counts double yakuman


def test_wrc_2022_counts_composite_yakuman_where_2015_counted_one():
    # W5: "Multiple different yakuman can be stacked to count as double or triple yakuman."
    double = {"result": {"type": "tsumo", "winner": 1, "yakuman": 2}}
    with pytest.raises(ScoringError, match="at most 1 yakuman"):
        parse_hand(double, WRC, 4)
    flow = play(WRC2022, double)
    assert flow.records[0].deltas == [-32000, 64000, -16000, -16000]


def test_wrc_2022_chombo_is_thirty_points_off_the_result():
    # W4: "een chombo kost je nu 30 000 ptn" (2015 and EMA: 20,000).
    chombo = {"result": {"type": "chombo", "offender": 2}}
    assert [p.points for p in play(WRC2022, chombo).settlement().players] == [0, 0, -30.0, 0]
    assert [p.points for p in play(WRC, chombo).settlement().players] == [0, 0, -20.0, 0]


def test_wrc_2022_keeps_the_rest_of_2015():
    same = {"slug": "wrc", "name": WRC.name, "names": WRC.names}
    assert WRC2022.replace(yakuman_max=1, chombo_points=20.0, **same) == WRC


# --- M.League ---------------------------------------------------------------------------------


def test_mleague_rank_points_are_50_10_minus_10_minus_30_with_the_oka():
    assert points(MLEAGUE, [40000, 30000, 20000, 10000]) == [60.0, 10.0, -20.0, -50.0]


def test_mleague_published_example_a_real_game():
    # subculture-fighting.com/4138, "Mリーグのポイント点数計算方法": a game of 18 May,
    # 37,000 / 27,300 / 23,800 / 11,900 → +57.0 / +7.3 / −16.2 / −48.1.
    assert points(MLEAGUE, [37000, 27300, 23800, 11900]) == [57.0, 7.3, -16.2, -48.1]


def test_mleague_published_examples_of_ties():
    # ameblo.jp/kanimemocs/entry-12803159792: tied for 3rd with 5,400 → −44.6 each; tied for
    # 1st with 35,200 → +35.2 each (the rank points of the places they cover, averaged).
    assert points(MLEAGUE, [60000, 29200, 5400, 5400])[2:] == [-44.6, -44.6]
    assert points(MLEAGUE, [35200, 35200, 20000, 9600])[:2] == [35.2, 35.2]
    # and the season's highest score there: 112,700 → +132.7
    assert points(MLEAGUE, [112700, 0, -5000, -7700])[0] == 132.7


def test_mleague_splits_the_rank_points_of_a_tie_evenly():
    assert points(MLEAGUE, [40000, 25000, 25000, 10000]) == [60.0, -5.0, -5.0, -50.0]


def test_mleague_plays_on_below_zero_with_atamahane():
    flow = GameFlow(MLEAGUE, 4)
    flow.scores = [70000, 30000, 25000, -25000]
    flow.play(parse_hand({"result": {"type": "draw", "tenpai": [0]}}, MLEAGUE, 4))
    assert not flow.over
    two = {"type": "ron", "discarder": 0, "wins": [{"seat": 1, "han": 1, "fu": 30}] * 2}
    with pytest.raises(ScoringError):
        parse_hand({"result": two}, MLEAGUE, 4)


def test_mleague_chombo_is_twenty_points_off_the_result_not_a_mangan_payment():
    # M3: 「チョンボが20000点相当の罰符」 — 20 points off the offender's result after ranking;
    # no score changes hands (a mangan payment moved 8,000 before), the hand is replayed.
    flow = play(MLEAGUE, {"result": {"type": "chombo", "offender": 1}})
    assert flow.records[0].deltas == [0, 0, 0, 0] and flow.label == "E1-0"
    result = flow.settlement()
    assert [p.breakdown["penalty"] for p in result.players] == [0.0, -20.0, 0.0, 0.0]


def test_mleague_counts_13_han_as_a_sanbaiman():
    # M4: 「数え役満はありません … 13翻以上あっても役満扱いにせず、3倍満」 (non-dealer tsumo:
    # 6,000 / 12,000, not 8,000 / 16,000).
    flow = play(MLEAGUE, {"result": {"type": "tsumo", "winner": 1, "han": 13, "fu": 30}})
    assert flow.records[0].deltas == [-12000, 24000, -6000, -6000]


def test_mleague_pao_seat_pays_the_honba_on_a_ron():
    # 「積み場は鳴かせた者が負担する」: a pao ron at 1 honba — pao seat 3 and discarder 1 halve
    # the yakuman (16,000 each); the pao seat pays the 300 honba.
    flow = GameFlow(MLEAGUE, 4)
    flow.honba = 1
    win = {"seat": 2, "yakuman": 1, "pao": 3}
    record = flow.play(
        parse_hand({"result": {"type": "ron", "discarder": 1, "wins": [win]}}, MLEAGUE, 4)
    )
    assert record.deltas == [0, -16000, 32300, -16300]


# --- penalties on settle and game (CONTRACT §1) -------------------------------------------------


def test_settle_takes_penalties_after_ranking():
    answer = run(
        "settle",
        {
            "ruleset": "tenhou",
            "scores": [36000, 31500, 17500, 15000],
            "penalties": [{"seat": 0, "points": -20}, {"seat": 3, "points": -1.5}],
        },
    )
    players = answer["players"]
    assert [p["rank"] for p in players] == [1, 2, 3, 4]  # ranks never change
    assert [p["breakdown"]["penalty"] for p in players] == [-20.0, 0.0, 0.0, -1.5]
    assert [p["points"] for p in players] == [26.0, 11.5, -22.5, -36.5]


def test_game_adds_a_chombo_penalty_by_itself_and_lists_every_penalty():
    answer = run(
        "game",
        {
            "ruleset": "ema",
            "players": 4,
            "hands": [{"result": {"type": "chombo", "offender": 1}}],
            "penalties": [{"seat": 3, "points": -5}],
        },
    )
    assert answer["hands"][0]["deltas"] == [0, 0, 0, 0]
    assert answer["penalties"] == [{"seat": 3, "points": -5}, {"seat": 1, "points": -20.0}]
    assert [p["breakdown"]["penalty"] for p in answer["result"]["players"]] == [0, -20, 0, -5]


@pytest.mark.parametrize(
    ("penalties", "field"),
    [
        ([{"seat": 4, "points": -20}], "penalties[0].seat"),
        ([{"seat": 0}], "penalties[0].points"),
        ([{"seat": 0, "points": "a lot"}], "penalties[0].points"),
        ([{"seat": 0, "points": -1e9}], "penalties[0].points"),
        ([{"seat": 0, "points": -2, "why": "late"}], "penalties[0].why"),
    ],
)
def test_a_bad_penalty_names_its_field(penalties, field):
    with pytest.raises(ScoringError) as caught:
        run("settle", {"ruleset": "ema", "scores": [30000] * 4, "penalties": penalties})
    assert caught.value.field == field


def test_the_new_knobs_are_validated():
    for knobs, field in (
        ({"rounding": "banker"}, "ruleset.rounding"),
        ({"nagashi_deposits": "pocket"}, "ruleset.nagashi_deposits"),
        ({"nagashi_flow": "maybe"}, "ruleset.nagashi_flow"),
        ({"nagashi_honba": "yes"}, "ruleset.nagashi_honba"),
        ({"chombo": "jail"}, "ruleset.chombo"),
        ({"chombo_points": -1}, "ruleset.chombo_points"),
        ({"agari_yame": "sometimes"}, "ruleset.agari_yame"),
        ({"pao_ron_honba": "nobody"}, "ruleset.pao_ron_honba"),
        ({"multiple_ron_sticks": "split"}, "ruleset.multiple_ron_sticks"),
    ):
        with pytest.raises(ScoringError) as caught:
            ruleset_from_json({"preset": "tenhou", **knobs})
        assert caught.value.field == field


def test_penalty_objects_name_a_seat_at_the_table():
    with pytest.raises(ScoringError):
        settle(EMA, [30000] * 4, penalties=[Penalty(5, -20)])


# --- the rules docs/rulesets.md lists without a real game behind them -------------------------


def test_tenhou_ties_go_to_the_seat_nearer_the_first_dealer():
    result = settle(TENHOU, [30000, 30000, 20000, 20000]).players
    assert [p.rank for p in result] == [1, 2, 3, 4]


def test_tenhou_counts_13_han_as_yakuman():
    flow = play(TENHOU, {"result": {"type": "tsumo", "winner": 1, "han": 13, "fu": 30}})
    assert flow.records[0].deltas == [-16000, 32000, -8000, -8000]


def test_tenhou_plays_on_at_exactly_zero_and_ends_below():
    ron = {"type": "ron", "discarder": 3, "wins": [{"seat": 1, "han": 5, "fu": 30}]}  # 8000
    flow = GameFlow(TENHOU, 4)
    flow.scores = [42000, 25000, 25000, 8000]
    flow.play(parse_hand({"result": ron}, TENHOU, 4))
    assert flow.scores[3] == 0 and not flow.over  # exactly 0 plays on
    flow = GameFlow(TENHOU, 4)
    flow.scores = [42100, 25000, 25000, 7900]
    flow.play(parse_hand({"result": ron}, TENHOU, 4))
    assert flow.scores[3] == -100 and flow.over


@pytest.mark.parametrize("rules", [TENHOU, MLEAGUE.replace(riichi_min_score=1000)])
def test_riichi_needs_1000_where_the_rules_say_so(rules):
    flow = GameFlow(rules, 4)
    flow.scores = [50000, 25000, 25000, 0] if rules.start == 25000 else [60000, 30000, 30000, 0]
    with pytest.raises(ScoringError, match="riichi"):
        flow.play(parse_hand({"riichi": [3], "result": {"type": "draw", "tenpai": [3]}}, rules, 4))


# EMA: the texts set no floor; below zero the player borrows sticks (2016 §4.1, 2025 §4.1.4).
@pytest.mark.parametrize("rules", [WRC, MLEAGUE, EMA, EMA2025])
def test_riichi_below_1000_is_allowed_where_play_goes_on_below_zero(rules):
    flow = GameFlow(rules, 4)
    flow.scores = [50000, 25000, 25000, 0] if rules.start == 25000 else [60000, 30000, 30000, 0]
    flow.play(parse_hand({"riichi": [3], "result": {"type": "draw", "tenpai": [3]}}, rules, 4))
    assert flow.scores[3] == -1000 + 3000 and not flow.over


def test_ema_pays_the_counters_to_each_ron_winner():
    flow = GameFlow(EMA, 4)
    flow.honba = 1
    two = [{"seat": 1, "han": 1, "fu": 30}, {"seat": 2, "han": 1, "fu": 30}]
    record = flow.play(parse_hand({"result": {"type": "ron", "discarder": 0, "wins": two}}, EMA, 4))
    assert record.deltas == [-2600, 1300, 1300, 0]


def test_ema_double_ron_winners_take_back_their_own_riichi_sticks():
    # Seat 0 deals in to seats 1 and 2, both in riichi, with a stick left from an earlier hand.
    # E1 §4.1 (2016): "Riichi declarers that win, always get their riichi bet back": seat 2, the
    # farther winner, takes back its own stick; seat 1, the nearest, takes its own and the
    # earlier one. 1 han 30 fu: 1,000 each.
    two = [{"seat": 1, "han": 1, "fu": 30}, {"seat": 2, "han": 1, "fu": 30}]
    hand = {"riichi": [1, 2], "result": {"type": "ron", "discarder": 0, "wins": two}}

    def deltas(rules):
        flow = GameFlow(rules, 4)
        flow.deposits = 1000
        return flow.play(parse_hand(hand, rules, 4)).deltas

    assert deltas(EMA) == [-2000, 1000 - 1000 + 2000, 1000 - 1000 + 1000, 0]
    # The 2012 text's reading (and Tenhou's, Mahjong Soul's): every stick to the nearest.
    nearest = EMA.replace(multiple_ron_sticks="nearest")
    assert deltas(nearest) == [-2000, 1000 - 1000 + 3000, 1000 - 1000, 0]
    # A farther winner not in riichi takes nothing back; the nearest takes the table.
    hand["riichi"] = [3]
    assert deltas(EMA) == [-2000, 1000 + 2000, 1000, -1000]


@pytest.mark.parametrize("rules", [EMA, EMA2025])
def test_ema_pao_ron_the_discarder_alone_pays_the_counters(rules):
    # E1 §3.3.9, E25 §3.3.7: "they share the payment equally with the liable player, but only
    # the discarder pays for any counters".
    flow = GameFlow(rules, 4)
    flow.honba = 1
    win = {"seat": 2, "yakuman": 1, "pao": 3}
    record = flow.play(
        parse_hand({"result": {"type": "ron", "discarder": 1, "wins": [win]}}, rules, 4)
    )
    assert record.deltas == [0, -16300, 32300, -16000]


@pytest.mark.parametrize("rules", [EMA, EMA2025, WRC, MLEAGUE])
def test_no_agari_yame_and_no_stop(rules):
    assert not rules.table_marks_stop
    with pytest.raises(ScoringError, match="stop"):
        play(rules, {"stop": True, "result": {"type": "tsumo", "winner": 0, "han": 1, "fu": 30}})


def test_mleague_has_no_abortive_draws_kiriage_and_nagashi_mangan():
    with pytest.raises(ScoringError):
        parse_hand({"result": {"type": "abort", "reason": "suufon"}}, MLEAGUE, 4)
    flow = play(
        MLEAGUE,
        {"result": {"type": "ron", "discarder": 0, "wins": [{"seat": 1, "han": 4, "fu": 30}]}},
    )
    assert flow.records[0].deltas[1] == 8000  # M3 「7700は切り上げ」
    flow = play(MLEAGUE, {"result": {"type": "nagashi", "winners": [2]}})
    assert flow.records[0].deltas == [-4000, -2000, 8000, -2000]
