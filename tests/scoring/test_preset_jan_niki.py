"""RULES.md §4 `jan-niki`: one test (or more) per bullet."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.hands import YakumanWin
from scoring.presets import JAN_NIKI
from scoring.settlement import Bust, settle
from tests.scoring.support import Table, abort, chombo, draw, hand, ron, tsumo, win


def points(scores, **kw):
    return [p.points for p in settle(JAN_NIKI, scores, **kw).players]


def test_four_players_east_south_start_25000_return_30000():
    assert (JAN_NIKI.players, JAN_NIKI.winds, JAN_NIKI.start, JAN_NIKI.return_points) == (
        4,
        2,
        25000,
        30000,
    )


class TestPoints:
    def test_gosha_rokunyu_for_all_but_the_top_who_takes_minus_the_others_then_uma_10_30(self):
        # 30600 → 31 − 30 = +1; 20500 → 20 − 30 = −10 (…500 rounds down); 10400 → 10 − 30 = −20.
        assert points([38500, 30600, 20500, 10400]) == [59, 11, -20, -50]

    def test_the_top_carries_the_oka_and_the_rounding(self):
        top = settle(JAN_NIKI, [38500, 30600, 20500, 10400]).players[0]
        assert top.breakdown == {
            "base": 8.0,
            "uma": 30.0,
            "oka": 21.0,
            "bust": 0.0,
            "shugi": 0.0,
            "penalty": 0.0,
        }

    def test_the_same_formula_for_negative_scores(self):
        # 30500 → 0; 11100 → 11 − 30 = −19; −1600 → floor(−1.2) = −2 → −32.
        assert points([60000, 30500, 11100, -1600]) == [81, 10, -29, -62]

    def test_integer_points(self):
        assert all(p == int(p) for p in points([33300, 28800, 21100, 16800]))

    def test_rank_ties_go_to_the_seat_nearer_the_starting_dealer(self):
        assert [p.rank for p in settle(JAN_NIKI, [25000, 30000, 30000, 15000]).players] == [
            3,
            1,
            2,
            4,
        ]


class TestHands:
    def test_kiriage_30fu4han_and_60fu3han_are_mangan(self):
        assert hand("jan-niki", ron(1, win(2, 4, 30))).deltas[2] == 8000
        assert hand("jan-niki", ron(1, win(0, 4, 30))).deltas[0] == 12000
        assert hand("jan-niki", ron(1, win(2, 3, 60))).deltas[2] == 8000
        assert hand("jan-niki", ron(1, win(2, 3, 50))).deltas[2] == 6400

    def test_double_yakuman_exist(self):
        assert hand("jan-niki", ron(1, win(2, yakuman=2))).deltas[2] == 64000

    def test_double_and_triple_ron_each_paid_with_honba_deposits_to_the_nearest(self):
        out = hand(
            "jan-niki",
            ron(1, win(3, 3, 30), win(0, 1, 30), win(2, 2, 30)),
            dealer=0,
            honba=1,
            deposits=2000,
        )
        # Seat 2 is nearest to discarder 1: 2000 + 300 + 2000 deposits. Seat 3: 3900 + 300.
        # Seat 0 (the dealer): 1500 + 300.
        assert out.deltas == [1800, -8300, 4300, 4200]
        assert out.deposits == 0
        assert out.winners == (2, 3, 0)


class TestFlow:
    def test_dealer_repeats_on_a_win_or_tenpai_at_a_draw_honba_plus_one_on_every_repeat_or_draw(
        self,
    ):
        t = Table("jan-niki")
        t.cheap_win(seat=0)
        assert t.label == "E1-1"
        t.play(draw(0, 2))
        assert t.label == "E1-2"
        t.play(draw(2))  # dealer noten: passes, honba still counts up
        assert t.label == "E2-3"
        t.cheap_win()
        assert t.label == "E3-0"

    @pytest.mark.parametrize(
        ("reason", "label"),
        [
            ("kyuushu", "E1-1"),
            ("suukaikan", "E1-1"),
            ("suufon", "E2-1"),
        ],
    )
    def test_kyuushu_and_suukaikan_repeat_suufon_passes(self, reason, label):
        t = Table("jan-niki")
        t.play(abort(reason))
        assert t.label == label

    def test_suucha_is_not_an_abortive_draw(self):
        with pytest.raises(ScoringError, match="四家立直"):
            hand("jan-niki", abort("suucha"))

    def test_a_noten_dealer_at_the_south_4_draw_ends_the_game_a_tenpai_one_goes_on(self):
        t = Table("jan-niki")
        t.flow.scores = [40000, 20000, 20000, 20000]
        t.pass_deal(7)
        t.play(draw(3))
        assert not t.flow.over and t.label == "S4-1"
        t.play(draw(0))
        assert t.flow.over

    def test_west_round_when_all_four_are_below_30000_after_south_4_then_stop(self):
        t = Table("jan-niki")
        t.pass_deal(7)
        t.flow.scores = [29000, 29000, 29000, 13000]
        t.play(draw())
        assert (t.flow.over, t.label) == (False, "W1-1")
        t.flow.scores = [45000, 25000, 20000, 10000]  # reaching 30000 in West does not stop it
        t.pass_deal(3)
        assert not t.flow.over and t.label == "W4-0"
        t.pass_deal()
        assert t.flow.over

    def test_no_west_round_when_someone_has_30000(self):
        t = Table("jan-niki")
        t.pass_deal(7)
        t.flow.scores = [30000, 29000, 29000, 12000]
        t.play(draw())
        assert t.flow.over


class TestBust:
    def test_below_zero_ends_the_game(self):
        t = Table("jan-niki")
        t.play(ron(3, win(2, yakuman=1)))
        assert t.flow.over and t.flow.busts == [Bust(3, (2,))]

    def test_with_several_winners_the_one_whose_payment_crossed_zero_gets_the_prize(self):
        t = Table("jan-niki")
        t.flow.scores = [45000, 5000, 25000, 25000]
        record = t.play(ron(1, win(3, 3, 30), win(2, 3, 30)))
        # Seat 1 pays seat 2 first (3900 → 1100 left), then seat 3 (→ −2800): seat 3 busted them.
        assert record.busts == [Bust(1, (3,))]

    def test_noten_payments_likewise_in_turn_order_from_the_busted_players_next_seat(self):
        t = Table("jan-niki")
        t.flow.scores = [30000, 35000, 1500, 33500]
        record = t.play(draw(0, 1, 3))  # seat 2 pays seat 3, then seat 0 (→ −500)
        assert record.busts == [Bust(2, (0,))]

    def test_the_busted_player_pays_10_points_to_who_caused_it(self):
        result = settle(JAN_NIKI, [45000, 37000, 19000, -1000], busts=[Bust(3, (1,))])
        assert [p.breakdown["bust"] for p in result.players] == [0.0, 10.0, 0.0, -10.0]


class TestChips:
    def test_tsumo_each_other_pays_10_per_yakuman_ron_the_discarder_pays_30(self):
        wins = [YakumanWin(1, "tsumo", 1), YakumanWin(2, "ron", 2, source=0)]
        result = settle(JAN_NIKI, [25000] * 4, yakuman=wins)
        assert [p.breakdown["shugi"] for p in result.players] == [-70.0, 30.0, 50.0, -10.0]

    def test_none_for_kazoe_yakuman_or_mangan_specials(self):
        t = Table("jan-niki")
        t.play(tsumo(2, 13))
        t.play({"type": "nagashi", "winners": [1]})
        assert t.flow.yakuman == []

    def test_a_recorded_yakuman_is_reported_and_chips_never_cause_a_bust(self):
        t = Table("jan-niki")
        t.flow.scores = [2000, 33000, 33000, 32000]
        t.play(tsumo(2, yakuman=1))  # seat 0 (the dealer) pays 16000: a bust by points
        assert t.flow.busts == [Bust(0, (2,))]
        t = Table("jan-niki")
        t.flow.scores = [17000, 33000, 25000, 25000]
        t.play(tsumo(2, yakuman=1))  # 16000 leaves 1000; the 10-point chip is settled after
        assert not t.flow.over
        result = t.flow.settlement()
        assert result.players[0].score == 1000
        assert result.players[0].breakdown["shugi"] == -10.0


def test_leftover_deposits_go_to_first_inside_the_top_takes_the_rest_rule():
    result = settle(JAN_NIKI, [40000, 30000, 20000, 9000], deposits=1000)
    assert result.players[0].score == 41000
    assert [p.points for p in result.players] == [61, 10, -20, -51]


class TestPao:
    def test_on_a_pao_ron_the_discarder_pays_the_honba(self):
        out = hand("jan-niki", ron(1, win(2, yakuman=1, pao=3)), honba=2)
        assert out.deltas == [0, -16600, 32600, -16000]

    def test_rinshan_after_daiminkan_is_a_responsibility_payment(self):
        out = hand("jan-niki", tsumo(1, 1, 40, pao=3))
        assert out.deltas == [0, 1300, 0, -1300]


def test_chombo_is_a_reverse_mangan_and_replayed():
    t = Table("jan-niki")
    record = t.play(chombo(2))
    assert record.deltas == [4000, 2000, -8000, 2000]
    assert t.label == "E1-0"
