"""RULES.md §4 `baba`: one test (or more) per bullet."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.presets import BABA
from scoring.settlement import Bust, settle
from scoring.standings import GameResult, standings
from tests.scoring.support import Table, abort, chombo, draw, hand, nagashi, ron, tsumo, win


class TestTable:
    def test_four_players_east_south_start_25000_return_30000_oka_20000_to_first(self):
        assert (BABA.players, BABA.player_counts, BABA.start, BABA.return_points) == (
            4,
            (4,),
            25000,
            30000,
        )
        result = settle(BABA, [25000] * 4)
        assert [p.breakdown["oka"] for p in result.players] == [20.0, 0.0, 0.0, 0.0]
        t = Table("baba")
        labels = []
        while not t.flow.over:
            labels.append(t.label)
            t.pass_deal()
        assert labels == ["E1-0", "E2-0", "E3-0", "E4-0", "S1-0", "S2-0", "S3-0", "S4-0"]

    def test_uma_10_5_minus5_minus10_points_to_one_decimal(self):
        result = settle(BABA, [43200, 31100, 18000, 7700])
        assert [p.breakdown["uma"] for p in result.players] == [10.0, 5.0, -5.0, -10.0]
        assert [p.points for p in result.players] == [43.2, 6.1, -17.0, -32.3]

    def test_rank_ties_go_to_the_seat_nearer_the_starting_dealer(self):
        result = settle(BABA, [20000, 30000, 30000, 20000])
        assert [p.rank for p in result.players] == [3, 1, 2, 4]


class TestHands:
    @pytest.mark.parametrize(
        ("han", "fu", "value"),
        [
            (1, 30, 1000),
            (4, 30, 7700),
            (3, 60, 7700),
            (4, 40, 8000),
            (5, None, 8000),
            (6, None, 12000),
            (7, None, 12000),
            (8, None, 16000),
            (10, None, 16000),
            (11, None, 24000),
            (12, None, 24000),
            (13, None, 32000),
            (20, None, 32000),
        ],
    )
    def test_standard_limits_no_kiriage_kazoe_at_13(self, han, fu, value):
        assert hand("baba", ron(1, win(2, han, fu))).deltas[2] == value

    def test_yakuman_do_not_double_but_different_yakuman_stack(self):
        assert hand("baba", ron(1, win(2, yakuman=1))).deltas[2] == 32000
        assert hand("baba", ron(1, win(2, yakuman=2))).deltas[2] == 64000  # two yakuman
        with pytest.raises(ScoringError, match="whole number"):
            hand("baba", ron(1, win(2, yakuman=1.5)))

    def test_multiple_ron_is_atamahane_and_the_error_names_who_takes_it(self):
        with pytest.raises(ScoringError) as err:
            hand("baba", ron(1, win(3, 1, 30), win(2, 1, 30)))
        assert err.value.field == "result.wins"
        assert "seat 2" in err.value.message

    def test_nagashi_is_a_mangan_tsumo_with_honba_and_deposits(self):
        out = hand("baba", nagashi(2), dealer=0, honba=1, deposits=1000)
        assert out.deltas == [-4100, -2100, 9300, -2100]
        assert out.deposits == 0

    def test_several_nagashi_only_the_one_nearest_the_dealer_dealer_first(self):
        assert hand("baba", nagashi(3, 1), dealer=0).winners == (1,)
        assert hand("baba", nagashi(3, 1), dealer=3).winners == (3,)
        assert hand("baba", nagashi(0, 2), dealer=1).winners == (2,)


class TestFlow:
    def test_exhaustive_draw_honba_plus_one_and_the_dealer_always_passes(self):
        t = Table("baba")
        t.play(draw(0, 1))  # the dealer is tenpai, and still passes
        assert (t.flow.dealer, t.flow.honba, t.label) == (1, 1, "E2-1")

    @pytest.mark.parametrize("reason", ["kyuushu", "suufon", "suukaikan"])
    def test_abortive_draws_are_draws_honba_plus_one_dealer_passes(self, reason):
        t = Table("baba")
        t.play(abort(reason))
        assert (t.flow.dealer, t.flow.honba) == (1, 1)

    def test_suucha_continues_and_sanchahou_is_atamahane_so_neither_is_an_abort(self):
        for reason in ("suucha", "sanchahou"):
            with pytest.raises(ScoringError) as err:
                hand("baba", abort(reason))
            assert err.value.field == "result.reason"

    def test_a_dealer_win_at_south_4_continues_and_a_draw_there_ends_the_game(self):
        t = Table("baba")
        t.pass_deal(7)
        assert t.label == "S4-0"
        t.cheap_win(seat=3)  # the dealer wins the last hand
        assert not t.flow.over and t.label == "S4-1"
        with pytest.raises(ScoringError, match="アガリ止め"):
            t.play(tsumo(3, 1, 30), stop=True)
        t.play(draw(3))  # tenpai dealer, still the end
        assert t.flow.over


class TestBust:
    def test_below_zero_ends_the_game_and_the_negative_score_is_kept(self):
        t = Table("baba")
        t.play(ron(3, win(2, yakuman=1)))
        assert t.flow.over
        assert t.flow.scores[3] == -7000
        assert settle(BABA, t.flow.scores).players[3].score == -7000

    def test_zero_is_not_a_bust(self):
        t = Table("baba")
        t.flow.scores = [30000, 30000, 32700, 7300]
        t.play(ron(3, win(2, 3, 60)))  # 7700 from 7300 leaves -400: a bust
        assert t.flow.over and t.flow.busts == [Bust(3, (2,))]
        t = Table("baba")
        t.flow.scores = [30000, 30000, 32300, 7700]
        t.play(ron(3, win(2, 3, 60)))  # exactly 0
        assert not t.flow.over and t.flow.busts == []

    def test_each_busted_player_pays_10_points_shared_by_who_busted_them_3300_each_for_three(self):
        # A noten player at 500 pays 1000 to each of three tenpai players: all three busted them.
        t = Table("baba")
        t.flow.scores = [35000, 34500, 30000, 500]
        record = t.play(draw(0, 1, 2))
        assert record.busts == [Bust(3, (0, 1, 2))]
        result = t.flow.settlement()
        assert [p.breakdown["bust"] for p in result.players] == [3.3, 3.3, 3.3, -9.9]

    def test_the_busters_are_whoever_received_points_from_the_busted_player(self):
        t = Table("baba")
        t.flow.scores = [30000, 30000, 39000, 1000]
        t.flow.dealer = 0
        record = t.play(tsumo(2, 3, 40))  # seat 3 pays 1300
        assert record.busts == [Bust(3, (2,))]

    def test_leftover_deposits_at_the_end_go_to_first(self):
        result = settle(BABA, [40000, 30000, 20000, 8000], deposits=2000)
        assert result.players[0].score == 42000


class TestPao:
    def test_ron_half_and_half_each_paying_honba_times_100(self):
        # A daisangen ron by seat 2 off seat 1, pao seat 3, 2 honba.
        out = hand("baba", ron(1, win(2, yakuman=1, pao=3)), dealer=0, honba=2)
        assert out.deltas == [0, -16200, 32400, -16200]

    def test_tsumo_pao_pays_all_with_all_honba(self):
        out = hand("baba", tsumo(2, yakuman=1, pao=3), dealer=0, honba=2)
        assert out.deltas == [0, 0, 32600, -32600]

    def test_pao_on_part_of_a_stacked_yakuman(self):
        # 大三元・字一色 tsumo, pao for 大三元 only: pao pays 32000 as a ron, the rest is a tsumo.
        out = hand("baba", tsumo(2, yakuman=2, pao=3, pao_yakuman=1), dealer=0)
        assert out.deltas == [-16000, -8000, 64000, -40000]

    def test_responsibility_payment_for_rinshan_after_daiminkan_includes_all_honba(self):
        out = hand("baba", tsumo(1, 2, 40, pao=3), dealer=0, honba=1)
        assert out.deltas == [0, 2900, 0, -2900]


class TestPenalties:
    def test_chombo_is_a_reverse_mangan_and_the_hand_is_replayed(self):
        t = Table("baba")
        t.pass_deal()
        record = t.play(chombo(3), riichi=(2,))  # seat 1 deals; seat 2's riichi stick returns
        assert record.deltas == [2000, 4000, 2000, -8000]
        assert (t.label, t.flow.deposits) == ("E2-0", 0)
        record = t.play(chombo(1))  # the dealer pays 4000 to each
        assert record.deltas == [4000, -12000, 4000, 4000]

    def test_penalty_puts_1000_into_deposits(self):
        out = hand("baba", draw(), penalties=(2,))
        assert (out.deltas, out.deposits) == ([0, 0, -1000, 0], 1000)


def table(rnd, players, points):
    """A finished game: ranks follow the points (no ties in these tables)."""
    order = sorted(range(len(points)), key=lambda s: -points[s])
    ranks = tuple(order.index(s) + 1 for s in range(len(points)))
    return GameResult(rnd, tuple(players), ranks, tuple(points))


A = ("A0", "A1", "A2", "A3")
B = ("B0", "B1", "B2", "B3")
C = ("C0", "C1", "C2", "C3")


def qualifier(c_round_6):
    """12 players, three fixed tables, rounds 1–6. After six rounds:
    A0 300, B0 240, C0 135–150, then B1 90 (no firsts) and C1 90 (a first if it wins round 6)."""
    games = []
    for rnd in range(1, 7):
        games.append(table(rnd, A, (50, 10, -20, -40)))
        games.append(table(rnd, B, (40, 15, -20, -35)))
        games.append(table(rnd, C, c_round_6 if rnd == 6 else (25, 15, -10, -30)))
    return games


class TestTournament:
    """Qualifier 1–6, top 4 to the final 7–8, ties by top rate, unresolved ties reported."""

    def test_a_tie_at_fourth_is_broken_by_top_rate_over_rounds_1_to_6(self):
        games = qualifier(c_round_6=(10, 15, -5, -20))  # C1 wins round 6: C0 135, C1 90
        result = standings(games, "baba")
        assert result.stages[0].advancing == ["A0", "B0", "C0", "C1"]
        assert result.stages[0].tied_at_cut == []
        rows = {r.player: r for r in result.rows}
        assert rows["C1"].stage_total == rows["B1"].stage_total == 90
        assert (rows["C1"].status, rows["B1"].status) == ("finalist", "qualifier")
        assert rows["B1"].rank == 5

    def test_the_final_ranks_the_four_on_rounds_1_to_8_ties_by_top_rate_over_1_to_8(self):
        games = qualifier(c_round_6=(10, 15, -5, -20))
        final = ("A0", "B0", "C0", "C1")
        games.append(table(7, final, (-40, 30, 20, -10)))
        games.append(table(8, final, (10, 0, 30, -40)))
        # Non-finalists play on elsewhere; those games never move them above a finalist.
        games.append(table(7, ("B1", "A1", "C2", "A2"), (500, 0, 0, -500)))
        result = standings(games, "baba")
        rows = {r.player: r for r in result.rows}
        # A0 and B0 both end on 270; B0 has 7 firsts in 8 against A0's 6.
        assert rows["A0"].stage_total == rows["B0"].stage_total == 270
        assert [r.player for r in result.rows[:4]] == ["B0", "A0", "C0", "C1"]
        assert [r.status for r in result.rows[:4]] == [
            "champion",
            "finalist",
            "finalist",
            "finalist",
        ]
        assert [r.rank for r in result.rows[:4]] == [1, 2, 3, 4]
        # Everyone else ranks 5th onward by the qualifier total; B1's 500 in round 7 does not count.
        assert [r.player for r in result.rows[4:7]] == ["B1", "A1", "C2"]
        assert rows["B1"].total == 590 and rows["B1"].stage_total == 90
        # A2 and B2 both have -120 and no firsts: a tie nobody broke, sharing 8th.
        assert rows["A2"].rank == rows["B2"].rank == 8
        assert rows["A2"].status == rows["B2"].status == "tie"
        assert rows["C3"].rank == 10

    def test_the_champion_is_named_only_when_the_final_is_complete(self):
        games = qualifier(c_round_6=(10, 15, -5, -20))
        games.append(table(7, ("A0", "B0", "C0", "C1"), (-40, 30, 20, -10)))
        result = standings(games, "baba")
        assert result.rows[0].status == "finalist"

    def test_a_tie_at_the_cut_that_top_rate_does_not_break_is_reported_never_broken(self):
        games = qualifier(c_round_6=(25, 15, -10, -30))  # C1 and B1: 90 each, no firsts
        result = standings(games, "baba")
        rows = {r.player: r for r in result.rows}
        assert result.stages[0].advancing == ["A0", "B0", "C0"]
        assert sorted(result.stages[0].tied_at_cut) == ["B1", "C1"]
        assert rows["B1"].status == rows["C1"].status == "tie"
        assert rows["B1"].rank == rows["C1"].rank == 4
        assert rows["A0"].status == "finalist" and rows["A1"].status == "qualifier"

    def test_the_organizer_settles_the_tie(self):
        games = qualifier(c_round_6=(25, 15, -10, -30))
        result = standings(games, "baba", decisions={"qualifier": ["C1", "B1"]})
        assert result.stages[0].advancing == ["A0", "B0", "C0", "C1"]
        rows = {r.player: r for r in result.rows}
        assert (rows["C1"].status, rows["B1"].status) == ("finalist", "qualifier")
