"""RULES.md §4 `free-sanma` (a 3-player game): one test (or more) per bullet."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.presets import FREE_SANMA
from scoring.settlement import Bust, settle
from tests.scoring.support import Table, abort, chombo, draw, hand, nagashi, ron, tsumo, win

WITH_CHIPS = {
    "preset": "free-sanma",
    "bust_prize": 5,
    "yakuman_chips_tsumo": 5,
    "yakuman_chips_ron": 10,
}


def test_three_players_east_and_south_of_three_hands_35000_return_40000_oka_15000():
    assert (FREE_SANMA.players, FREE_SANMA.start, FREE_SANMA.return_points) == (3, 35000, 40000)
    assert FREE_SANMA.oka == 15000
    t = Table("free-sanma")
    t.flow.scores = [45000, 30000, 30000]  # someone above 40000: no West round
    labels = []
    while not t.flow.over:
        labels.append(t.label)
        t.pass_deal()
    assert labels == ["E1-0", "E2-0", "E3-0", "S1-0", "S2-0", "S3-0"]
    with pytest.raises(ScoringError, match="3 players, not 4"):
        settle(FREE_SANMA, [35000] * 4)


def test_no_uma_until_the_venue_sets_it_and_integer_points():
    assert [p.points for p in settle(FREE_SANMA, [50000, 35000, 20000]).players] == [25, -5, -20]
    venue = {"preset": "free-sanma", "uma": [10, 0, -10]}
    from tests.scoring.support import rules

    assert [p.points for p in settle(rules(venue), [50000, 35000, 20000]).players] == [35, -5, -30]


def test_a_tie_for_top_goes_to_the_seat_nearer_the_starting_dealer():
    assert [p.rank for p in settle(FREE_SANMA, [25000, 40000, 40000]).players] == [3, 1, 2]


class TestHands:
    @pytest.mark.parametrize(
        ("han", "ron_", "tsumo_child", "tsumo_dealer", "dealer_ron", "dealer_tsumo"),
        [
            (1, 1000, 1000, 1000, 2000, 1000),
            (2, 2000, 1000, 1000, 3000, 2000),
            (3, 4000, 1000, 3000, 6000, 3000),
            (4, 8000, 3000, 5000, 12000, 6000),
            (5, 8000, 3000, 5000, 12000, 6000),
            (6, 12000, 4000, 8000, 18000, 9000),
            (7, 12000, 4000, 8000, 18000, 9000),
            (8, 16000, 6000, 10000, 24000, 12000),
            (10, 16000, 6000, 10000, 24000, 12000),
            (11, 24000, 8000, 16000, 36000, 18000),
            (13, 24000, 8000, 16000, 36000, 18000),
            (14, 32000, 12000, 20000, 48000, 24000),
        ],
    )
    def test_the_1000_point_table_and_kazoe_at_14(
        self, han, ron_, tsumo_child, tsumo_dealer, dealer_ron, dealer_tsumo
    ):
        assert hand("free-sanma", ron(2, win(1, han))).deltas == [0, ron_, -ron_]
        assert hand("free-sanma", tsumo(1, han)).deltas == [
            -tsumo_dealer,
            tsumo_child + tsumo_dealer,
            -tsumo_child,
        ]
        assert hand("free-sanma", ron(2, win(0, han))).deltas == [dealer_ron, 0, -dealer_ron]
        assert hand("free-sanma", tsumo(0, han)).deltas == [
            2 * dealer_tsumo,
            -dealer_tsumo,
            -dealer_tsumo,
        ]

    def test_no_fu_is_entered(self):
        with pytest.raises(ScoringError, match="30 fu") as err:
            hand("free-sanma", ron(2, win(1, 1, 40)))
        assert err.value.field == "result.wins[0].fu"

    def test_true_yakuman_combinations_stack(self):
        assert hand("free-sanma", ron(2, win(1, yakuman=2))).deltas[1] == 64000

    def test_nagashi_is_a_yakuman_tsumo_and_counts_as_a_yakuman(self):
        out = hand("free-sanma", nagashi(1))
        assert out.deltas == [-20000, 32000, -12000]
        assert [y.kind for y in out.yakuman] == ["tsumo"]


def test_honba_1000_from_the_discarder_or_500_from_each_tsumo_payer():
    assert hand("free-sanma", ron(2, win(1, 1)), honba=2).deltas == [0, 3000, -3000]
    assert hand("free-sanma", tsumo(1, 1), honba=2).deltas == [-2000, 4000, -2000]


def test_noten_payments_2000_in_all():
    assert hand("free-sanma", draw(1)).deltas == [-1000, 2000, -1000]
    assert hand("free-sanma", draw(0, 2)).deltas == [1000, -2000, 1000]


class TestFlow:
    def test_in_east_the_dealer_repeats_only_on_a_win(self):
        t = Table("free-sanma")
        t.play(draw(0))
        assert t.label == "E2-1"

    def test_in_south_and_west_the_dealer_repeats_on_every_draw_tenpai_or_not(self):
        t = Table("free-sanma")
        t.pass_deal(3)
        t.play(draw(1))
        assert t.label == "S1-1"

    def test_suukaikan_passes_in_east_and_repeats_in_south(self):
        t = Table("free-sanma")
        t.play(abort("suukaikan"))
        assert t.label == "E2-1"
        t.pass_deal(2)
        t.play(abort("suukaikan"))
        assert t.label == "S1-1"

    def test_west_round_when_the_top_is_below_40000_after_south_3(self):
        t = Table("free-sanma")
        t.pass_deal(5)
        t.flow.scores = [38000, 35000, 32000]
        t.cheap_win()  # seat 0 takes 1000: top 39000
        assert (t.flow.over, t.label) == (False, "W1-0")

    def test_the_west_round_ends_after_the_first_hand_someone_has_40000(self):
        t = Table("free-sanma")
        t.pass_deal(6)
        t.flow.scores = [39000, 34000, 32000]
        assert t.label == "W1-0"
        t.cheap_win(seat=0)  # the dealer wins and reaches 40000: over, even on a repeat
        assert t.flow.over

    def test_the_west_round_ends_after_west_3_in_any_case(self):
        t = Table("free-sanma")
        t.pass_deal(5)
        t.flow.scores = [36000, 35000, 34000]
        t.pass_deal(4)
        assert t.flow.over and max(t.flow.scores) < 40000

    def test_at_the_last_hand_the_dealer_may_stop_only_when_the_win_made_them_top(self):
        t = Table("free-sanma")
        t.pass_deal(5)
        t.flow.scores = [44000, 38000, 23000]
        with pytest.raises(ScoringError, match="top"):
            t.play(tsumo(2, 1), stop=True)
        t.play(ron(1, win(2, 8)), stop=True)  # 24000: seat 2 on 47000, top
        assert t.flow.over

    def test_zero_or_below_is_a_bust(self):
        t = Table("free-sanma")
        t.flow.scores = [50000, 43000, 12000]
        t.play(ron(2, win(1, 6)))  # 12000 exactly
        assert t.flow.over and t.flow.busts == [Bust(2, (1,))]


def test_double_ron_deposits_and_honba_to_the_nearest():
    out = hand("free-sanma", ron(2, win(1, 1), win(0, 1)), honba=1, deposits=1000)
    # Seat 0 is the discarder's 下家: nearest. The dealer's 1 han ron is 2000.
    assert out.deltas == [4000, 1000, -4000]


class TestChips:
    def test_bust_prize_in_chips_from_the_busted_to_whose_payment_took_them_to_zero(self):
        t = Table(WITH_CHIPS)
        t.flow.scores = [51500, 51000, 2500]
        record = t.play(ron(2, win(1, 1), win(0, 1)))  # pays seat 0 2000, then seat 1 1000
        assert record.busts == [Bust(2, (1,))]
        result = t.flow.settlement()
        assert [p.chips for p in result.players] == [0, 5, -5]
        assert [p.breakdown["bust"] for p in result.players] == [0.0] * 3

    def test_yakuman_chips_in_their_own_column(self):
        t = Table(WITH_CHIPS)
        t.play(tsumo(1, yakuman=1))
        result = t.flow.settlement()
        assert [p.chips for p in result.players] == [-5, 10, -5]
        assert sum(p.points for p in result.players) == 0

    def test_pao_tsumo_pays_all_points_and_all_chips(self):
        t = Table(WITH_CHIPS)
        record = t.play(tsumo(1, yakuman=1, pao=2))
        assert record.deltas == [0, 32000, -32000]
        assert [p.chips for p in t.flow.settlement().players] == [0, 10, -10]

    def test_pao_ron_pays_half_of_each(self):
        t = Table(WITH_CHIPS)
        t.flow.scores = [50000, 35000, 20000]
        record = t.play(ron(0, win(1, yakuman=1, pao=2)))
        assert record.deltas == [-16000, 32000, -16000]
        assert [p.chips for p in t.flow.settlement().players] == [-5, 10, -5]


def test_chombo_is_a_mangan_from_the_table_in_reverse():
    assert hand("free-sanma", chombo(1)).deltas == [5000, -8000, 3000]
    assert hand("free-sanma", chombo(0)).deltas == [-12000, 6000, 6000]


def test_riichi_with_exactly_1000_left_and_no_income_that_hand_busts():
    t = Table("free-sanma")
    t.flow.scores = [52000, 52000, 1000]
    record = t.play(draw(0, 1, 2), riichi=(2,))
    assert record.busts == [Bust(2, ())] and t.flow.over
    with pytest.raises(ScoringError, match="riichi needs 1000"):
        hand("free-sanma", draw(2), riichi=(2,), scores=[53000, 53100, 900])
