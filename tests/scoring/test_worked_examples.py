"""RULES.md §5: the worked examples from the seed documents, each one a test."""

from __future__ import annotations

from tests.scoring.support import hand, ron, tsumo, win


def test_baba_3_2_2_open_pinfu_shape_ron_30fu1han_is_1000():
    out = hand("baba", ron(1, win(2, 1, 30)), dealer=0)
    assert out.deltas == [0, -1000, 1000, 0]


def test_baba_3_2_3_south_seat_tsumo_30fu1han_is_300_500():
    # South round: the South seat (a non-dealer) wins by tsumo; the dealer pays 500.
    out = hand("baba", tsumo(1, 1, 30), dealer=0)
    assert out.deltas == [-500, 1100, -300, -300]


def test_baba_3_2_4_rinshan_after_daiminkan_1000_all_from_the_kan_discarder():
    # 大明槓 from seat 3, then 嶺上開花: a tsumo paid by the responsible seat as a ron.
    out = hand("baba", tsumo(1, 1, 30, pao=3), dealer=0)
    assert out.deltas == [0, 1000, 0, -1000]


def test_baba_3_1_5_30fu4han_is_7700_non_dealer_11600_dealer():
    assert hand("baba", ron(1, win(2, 4, 30)), dealer=0).deltas[2] == 7700
    assert hand("baba", ron(1, win(0, 4, 30)), dealer=0).deltas[0] == 11600


def test_baba_4_7_10_the_app_prices_what_is_entered():
    # 三暗刻 (50fu2han) reads 3200; 平和・二盃口 (30fu4han, no kiriage) reads 7700.
    assert hand("baba", ron(1, win(2, 2, 50)), dealer=0).deltas[2] == 3200
    assert hand("baba", ron(1, win(2, 4, 30)), dealer=0).deltas[2] == 7700


def test_hyper_36_pinfu_tsumo_and_open_tanyao_ron():
    # In net han (no 場ゾロ): pinfu tsumo is 20fu2han; open tanyao pinfu-shape ron is 30fu1han.
    assert hand("hyper", tsumo(1, 2, 20), dealer=0).deltas == [-700, 1500, -400, -400]
    assert hand("hyper", tsumo(0, 2, 20), dealer=0).deltas == [2100, -700, -700, -700]
    assert hand("hyper", ron(2, win(1, 1, 30)), dealer=0).deltas[1] == 1000
    assert hand("hyper", ron(2, win(0, 1, 30)), dealer=0).deltas[0] == 1500


def test_jan_niki_non_dealer_tsumo_40fu3han_is_1300_2600_and_1400_2700_with_one_honba():
    assert hand("jan-niki", tsumo(1, 3, 40), dealer=0).deltas == [-2600, 5200, -1300, -1300]
    assert hand("jan-niki", tsumo(1, 3, 40), dealer=0, honba=1).deltas == [
        -2700,
        5500,
        -1400,
        -1400,
    ]


def emperor(result, players=4, emperor_seat=None):
    return hand("emperor", result, players=players, emperor=emperor_seat)


def test_emperor_non_emperor_ron_with_5_yaku_is_3000():
    out = emperor({"type": "ron", "winner": 1, "discarder": 2, "yaku": 5})
    assert out.deltas == [0, 3000, -3000, 0]


def test_emperor_non_emperor_ron_4_yaku_2_bonus_3_virtue_is_5700():
    out = emperor({"type": "ron", "winner": 1, "discarder": 2, "yaku": 4, "bonus": 2, "virtue": 3})
    assert out.deltas == [0, 5700, -5700, 0]


def test_emperor_emperor_tsumo_6_yaku_4_bonus_5_virtue_with_a_call_is_4600_each():
    out = emperor(
        {"type": "tsumo", "winner": 0, "yaku": 6, "bonus": 4, "virtue": 5, "calls": 1},
        emperor_seat=0,
    )
    assert out.deltas == [13800, -4600, -4600, -4600]


def test_emperor_non_emperor_sansou_tsumo_with_5_virtue_is_500_each():
    out = emperor({"type": "tsumo", "winner": 1, "yaku": 0, "virtue": 5, "special": "sansou"})
    assert out.deltas == [-500, 1500, -500, -500]


def test_emperor_emperor_tenhou_sansou_bonus_6_virtue_6_is_3600_each():
    # 天和 is the dealer's; the emperor deals. Its 4 bonus yaku are in the 6 entered.
    out = emperor(
        {"type": "tsumo", "winner": 2, "bonus": 6, "virtue": 6, "special": "tenhou"}, emperor_seat=2
    )
    assert out.deltas == [-3600, -3600, 10800, -3600]


def test_emperor_non_emperor_chiihou_no_yaku_bonus_4_no_virtue_is_2000_each():
    out = emperor({"type": "tsumo", "winner": 1, "bonus": 4, "special": "chiihou"}, emperor_seat=0)
    assert out.deltas == [-2000, 6000, -2000, -2000]
