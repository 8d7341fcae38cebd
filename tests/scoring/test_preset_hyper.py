"""RULES.md §4 `hyper`: one test (or more) per bullet."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.presets import HYPER
from scoring.settlement import Bust, settle
from tests.scoring.support import Table, abort, chombo, draw, hand, ron, tsumo, win


def points(scores, **kw):
    return [p.points for p in settle(HYPER, scores, **kw).players]


def test_four_players_east_south_30000_returns_30000_no_oka():
    assert (HYPER.players, HYPER.winds, HYPER.start, HYPER.return_points) == (4, 2, 30000, 30000)
    assert [p.breakdown["oka"] for p in settle(HYPER, [30000] * 4).players] == [0.0] * 4


class TestFloatingUma:
    def test_one_floater(self):
        assert points([52000, 26000, 22000, 20000]) == [58.0, -13.0, -20.0, -25.0]

    def test_two_floaters(self):
        assert points([40000, 35000, 25000, 20000]) == [22.0, 11.0, -11.0, -22.0]

    def test_three_floaters_exactly_30000_floats_and_points_keep_one_decimal(self):
        assert points([31000, 30500, 30000, 28500]) == [5.0, 3.5, 2.0, -10.5]

    def test_all_four_at_exactly_30000_no_uma(self):
        assert points([30000] * 4) == [0.0] * 4

    def test_rank_ties_by_seat_order(self):
        assert [p.rank for p in settle(HYPER, [25000, 35000, 35000, 25000]).players] == [3, 1, 2, 4]


class TestHands:
    @pytest.mark.parametrize(
        ("han", "fu", "non_dealer", "dealer"),
        [
            (4, 30, 7700, 11600),
            (5, None, 8000, 12000),
            (6, None, 12000, 18000),
            (8, None, 16000, 24000),
            (10, None, 20000, 30000),
            (11, None, 24000, 36000),
            (13, None, 32000, 48000),
        ],
    )
    def test_limits_in_net_han_no_kiriage_and_10_han_is_2_5_mangan(
        self, han, fu, non_dealer, dealer
    ):
        assert hand("hyper", ron(1, win(2, han, fu))).deltas[2] == non_dealer
        assert hand("hyper", ron(1, win(0, han, fu))).deltas[0] == dealer

    def test_yakuman_k_1_the_second_list_k_2_and_the_organizers_1_5(self):
        assert hand("hyper", ron(1, win(2, yakuman=1))).deltas[2] == 32000
        assert hand("hyper", tsumo(2, yakuman=2)).deltas[2] == 64000
        assert hand("hyper", ron(1, win(2, yakuman=1.5))).deltas[2] == 48000
        with pytest.raises(ScoringError, match=r"multiple of 0\.5"):
            hand("hyper", ron(1, win(2, yakuman=1.25)))


class TestMultipleRon:
    def test_two_winners_deposits_and_honba_to_the_nearest(self):
        out = hand("hyper", ron(1, win(3, 1, 30), win(2, 1, 30)), honba=1, deposits=1000)
        assert out.deltas == [0, -2300, 2300, 1000]

    def test_a_third_winner_makes_it_sanchahou_an_abortive_draw(self):
        with pytest.raises(ScoringError, match="三家和") as err:
            hand("hyper", ron(1, win(3, 1, 30), win(2, 1, 30), win(0, 1, 30)))
        assert err.value.field == "result.wins"


class TestFlow:
    def test_the_dealer_repeats_on_a_win_on_tenpai_at_a_draw_and_after_a_chombo(self):
        t = Table("hyper")
        t.cheap_win(seat=0)
        t.play(draw(0))
        t.play(chombo(2))
        assert (t.flow.dealer, t.label) == (0, "E1-2")
        t.play(draw(1))
        assert t.label == "E2-3"

    @pytest.mark.parametrize("reason", ["kyuushu", "sanchahou", "suukaikan", "suufon", "suucha"])
    def test_every_abortive_draw_honba_plus_one_and_the_deal_passes(self, reason):
        t = Table("hyper")
        t.play(abort(reason), riichi=(0, 1, 2, 3) if reason == "suucha" else ())
        assert t.label == "E2-1"
        assert t.flow.deposits == (4000 if reason == "suucha" else 0)

    def test_at_south_4_the_dealer_may_stop_after_winning(self):
        t = Table("hyper")
        t.pass_deal(7)
        t.play(tsumo(3, 1, 30), stop=True)
        assert t.flow.over

    def test_stopping_is_refused_before_the_last_hand_or_after_a_non_dealer_win(self):
        t = Table("hyper")
        with pytest.raises(ScoringError, match="last hand") as err:
            t.play(tsumo(0, 1, 30), stop=True)
        assert err.value.field == "stop"
        t.pass_deal(7)
        with pytest.raises(ScoringError, match="dealer"):
            t.play(tsumo(1, 1, 30), stop=True)

    def test_a_noten_dealer_at_the_south_4_draw_ends_it(self):
        t = Table("hyper")
        t.pass_deal(7)
        t.play(draw(0, 1))
        assert t.flow.over


def test_bust_below_zero_ends_the_game_after_that_hand_and_pays_no_prize():
    t = Table("hyper")
    t.flow.scores = [30000, 30000, 30000, 30000]
    t.play(ron(3, win(2, yakuman=1)))
    assert t.flow.over and t.flow.busts == [Bust(3, (2,))]
    assert [p.breakdown["bust"] for p in t.flow.settlement().players] == [0.0] * 4


def test_a_riichi_may_take_a_player_below_zero():
    out = hand("hyper", draw(3), riichi=(3,), scores=[40000, 40000, 39500, 500])
    assert out.deltas[3] == 2000


def test_leftover_deposits_to_first():
    assert settle(HYPER, [40000, 30000, 30000, 18000], deposits=2000).players[0].score == 42000


def test_on_a_pao_ron_the_discarder_pays_the_honba():
    out = hand("hyper", ron(1, win(2, yakuman=1, pao=0)), honba=1)
    assert out.deltas == [-16000, -16300, 32300, 0]


def test_chombo_is_a_mangan_payment_and_penalties_go_to_the_next_winner():
    assert hand("hyper", chombo(1), dealer=0).deltas == [4000, -8000, 2000, 2000]
    t = Table("hyper")
    t.play(draw(0, 1, 2, 3), penalties=(2,))
    assert t.flow.deposits == 1000
    record = t.cheap_win(seat=1)
    assert record.deltas[1] == 1000 + 300 + 1000
