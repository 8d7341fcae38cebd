"""RULES.md §4 `emperor` (the 皇帝 card game): one test (or more) per bullet."""

from __future__ import annotations

import pytest

from scoring.emperor import dynasty_card
from scoring.errors import ScoringError
from scoring.presets import EMPEROR
from scoring.settlement import settle
from tests.scoring.support import Table, chombo, draw, hand, rules


def t_win(winner, yaku=4, **kw):
    return {"type": "tsumo", "winner": winner, "yaku": yaku, **kw}


def r_win(winner, discarder, yaku=4, **kw):
    return {"type": "ron", "winner": winner, "discarder": discarder, "yaku": yaku, **kw}


class TestGame:
    @pytest.mark.parametrize("players", [3, 4, 5])
    def test_3_to_5_players_a_game_is_15_hands_draws_count(self, players):
        t = Table("emperor", players=players)
        for i in range(15):
            assert not t.flow.over
            t.play(draw(0) if i % 2 else t_win(1, yaku=EMPEROR.emperor_min_yaku[players]))
        assert t.flow.over
        with pytest.raises(ScoringError, match="over"):
            t.play(draw())

    @pytest.mark.parametrize("length", [10, 20])
    def test_10_or_20_hands_as_options(self, length):
        t = Table({"preset": "emperor", "hands_per_game": length})
        for _ in range(length):
            t.play(draw())
        assert t.flow.over

    def test_a_chombo_hand_is_replayed_and_does_not_count(self):
        t = Table("emperor")
        t.play(draw())
        record = t.play(chombo(2))
        assert record.deltas == [5000, 5000, -15000, 5000]
        assert t.label == "2局目・戦国時代" and t.flow.counted == 1


class TestPoints:
    def test_start_25000_with_oka_return_30000_one_point_is_100(self):
        result = settle(EMPEROR, [40000, 30000, 20000, 10000])
        assert [p.points for p in result.players] == [300.0, 0.0, -100.0, -200.0]
        assert result.players[0].breakdown["oka"] == 200.0

    def test_start_30000_without_oka(self):
        venue = rules({"preset": "emperor", "start": 30000})
        assert [p.points for p in settle(venue, [45000, 35000, 25000, 15000]).players] == [
            150.0,
            50.0,
            -50.0,
            -150.0,
        ]

    def test_no_bust_scores_go_below_zero(self):
        t = Table("emperor")
        t.flow.scores = [60000, 25000, 15000, 0]
        t.play(r_win(1, 3, yaku=6))  # 6 yaku: 1500 base, × 3
        assert t.flow.scores[3] == -4500 and not t.flow.over

    def test_uma_is_the_venues_4_players_4th_pays_1st_a_3rd_pays_2nd_b(self):
        venue = rules(
            {
                "preset": "emperor",
                "uma": {"3": [20, 0, -20], "4": [30, 10, -10, -30], "5": [30, 10, 0, -10, -30]},
            }
        )
        four = settle(venue, [40000, 30000, 20000, 10000])
        assert [p.breakdown["uma"] for p in four.players] == [30.0, 10.0, -10.0, -30.0]
        three = settle(venue, [40000, 25000, 10000])
        assert [p.breakdown["uma"] for p in three.players] == [20.0, 0.0, -20.0]
        five = settle(venue, [40000, 30000, 25000, 20000, 10000])
        assert [p.breakdown["uma"] for p in five.players] == [30.0, 10.0, 0.0, -10.0, -30.0]


class TestWins:
    @pytest.mark.parametrize(
        ("yaku", "child", "emperor"), [(4, 600, 1000), (5, 1000, 1500), (10, 4500, 5500)]
    )
    def test_yaku_points_n_n_minus_1_for_a_subject_n_n_plus_1_for_the_emperor(
        self, yaku, child, emperor
    ):
        assert hand("emperor", t_win(1, yaku), emperor=0).deltas[1] == 3 * child
        assert hand("emperor", t_win(0, yaku), emperor=0).deltas[0] == 3 * emperor

    @pytest.mark.parametrize(
        ("players", "virtue", "virtuous"),
        [(3, 3, False), (3, 4, True), (4, 2, False), (4, 3, True), (5, 1, False), (5, 2, True)],
    )
    def test_virtue_counts_from_4_3_2_for_3_4_5_players(self, players, virtue, virtuous):
        out = hand("emperor", t_win(1, 5, virtue=virtue), players=players)
        assert out.details[0]["virtuous"] == int(virtuous)
        assert out.details[0]["virtue_points"] == (virtue * 100 if virtuous else 0)

    @pytest.mark.parametrize("players", [3, 4, 5])
    def test_tsumo_every_other_pays_base_ron_the_discarder_pays_base_times_players_minus_1(
        self, players
    ):
        out = hand("emperor", t_win(1, 5, bonus=1), players=players)
        assert out.deltas[1] == 1500 * (players - 1)
        assert all(out.deltas[s] == -1500 for s in range(players) if s != 1)
        out = hand("emperor", r_win(1, 0, 5, bonus=1), players=players)
        assert out.deltas[0] == -1500 * (players - 1)


class TestMinimumYaku:
    @pytest.mark.parametrize(("players", "minimum"), [(3, 5), (4, 4), (5, 3)])
    def test_the_minimum_is_5_4_3_and_one_more_per_call(self, players, minimum):
        hand("emperor", t_win(1, minimum), players=players)
        with pytest.raises(ScoringError, match="縛り") as err:
            hand("emperor", t_win(1, minimum - 1), players=players)
        assert err.value.field == "result.yaku"
        with pytest.raises(ScoringError, match="1 call"):
            hand("emperor", t_win(1, minimum, calls=1), players=players)
        hand("emperor", t_win(1, minimum + 1, calls=1), players=players)

    def test_sansou_tenhou_and_chiihou_win_regardless(self):
        hand("emperor", t_win(1, 0, special="sansou", calls=2))
        hand("emperor", t_win(0, 0, special="tenhou"))
        hand("emperor", t_win(2, 0, special="chiihou"))

    def test_tenhou_is_the_dealers_chiihou_a_non_dealers_both_tsumo(self):
        with pytest.raises(ScoringError, match="dealer"):
            hand("emperor", t_win(1, 0, special="tenhou"))
        with pytest.raises(ScoringError, match="non-dealer"):
            hand("emperor", t_win(0, 0, special="chiihou"))
        with pytest.raises(ScoringError, match="tsumo"):
            hand("emperor", r_win(1, 0, 0, special="chiihou"))


@pytest.mark.parametrize(
    ("players", "tenpai", "deltas"),
    [
        (4, (0,), [3600, -1200, -1200, -1200]),
        (4, (0, 1), [1800, 1800, -1800, -1800]),
        (4, (0, 1, 2), [1200, 1200, 1200, -3600]),
        (3, (0,), [3600, -1800, -1800]),
        (3, (0, 1), [1800, 1800, -3600]),
        (5, (0,), [3600, -900, -900, -900, -900]),
        (5, (0, 1), [1800, 1800, -1200, -1200, -1200]),
        (5, (0, 1, 2), [1200, 1200, 1200, -1800, -1800]),
        (5, (0, 1, 2, 3), [900, 900, 900, 900, -3600]),
        (4, (), [0, 0, 0, 0]),
        (4, (0, 1, 2, 3), [0, 0, 0, 0]),
    ],
)
def test_draw_noten_players_pay_3600_in_all(players, tenpai, deltas):
    assert hand("emperor", draw(*tenpai), players=players).deltas == deltas


class TestDynasties:
    def test_warring_states_until_a_virtuous_win_then_dynasties_and_the_emperor_deals(self):
        t = Table("emperor")
        assert t.label == "1局目・戦国時代"
        t.play(t_win(1, 5, virtue=2))  # not virtuous: still 戦国時代, seat 0 still deals
        assert (t.label, t.flow.dealer, t.flow.emperor) == ("2局目・戦国時代", 0, None)
        t.play(t_win(2, 4, virtue=3))  # virtuous: seat 2 is the first emperor
        assert (t.label, t.flow.dealer, t.flow.emperor) == ("3局目・第1王朝 1代", 2, 2)
        assert t.flow.next()["dynasty_card"] == "A"
        t.play(draw(1))  # a draw keeps the emperor
        assert t.label == "4局目・第1王朝 2代"
        t.play(t_win(2, 6, virtue=5))  # the emperor's own virtuous win keeps the dynasty
        t.play(r_win(3, 1, 5))  # a win without virtue keeps it too
        assert (t.label, t.flow.emperor) == ("6局目・第1王朝 4代", 2)
        t.play(r_win(3, 2, 5, virtue=3))  # 放伐: a virtuous subject ronning the emperor
        assert (t.label, t.flow.dealer, t.flow.next()["dynasty_card"]) == (
            "7局目・第2王朝 1代",
            3,
            "2",
        )

    def test_the_emperors_yaku_count_more(self):
        t = Table("emperor")
        t.play(t_win(2, 4, virtue=3))
        record = t.play(t_win(2, 4))
        assert record.deltas[2] == 3 * 1000

    def test_dynasty_cards_run_a_to_q_then_a_again(self):
        assert [dynasty_card(d) for d in (1, 2, 10, 11, 12, 13)] == ["A", "2", "10", "J", "Q", "A"]


def test_no_riichi_sticks_and_no_honba():
    with pytest.raises(ScoringError, match="riichi"):
        hand("emperor", draw(0), riichi=(0,))
    t = Table("emperor")
    t.play(draw(0))
    t.play(t_win(0, 4))
    assert t.flow.honba == 0 and t.flow.deposits == 0
