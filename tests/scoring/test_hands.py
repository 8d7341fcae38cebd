"""Hand values beyond the presets: fu validation, deposits, honba, multiple ron, pao, chombo."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from tests.scoring.support import chombo, draw, hand, nagashi, ron, tsumo, win


@pytest.mark.parametrize(
    ("result", "field", "says"),
    [
        (ron(1, win(2, 1, 35)), "result.wins[0].fu", "35 is not a fu count"),
        (ron(1, win(2, 1, 120)), "result.wins[0].fu", "not a fu count"),
        (ron(1, win(2, 1, 25)), "result.wins[0].fu", "25 fu needs at least 2 han"),
        (ron(1, win(2, 2, 20)), "result.wins[0].fu", "20 fu is only a tsumo"),
        (tsumo(2, 1, 20), "result.fu", "20 fu needs at least 2 han"),
        (ron(1, win(2, 3)), "result.wins[0].fu", "required below 5 han"),
        (ron(1, win(2, 0, 30)), "result.wins[0].han", "at least 1"),
        (ron(1, win(1, 1, 30)), "result.wins[0].seat", "own discard"),
        (ron(1, win(2, 1, 30), win(2, 1, 30)), "result.wins[1].seat", "listed twice"),
        (ron(1, win(2, 1, 30, yakuman=1)), "result.wins[0].yakuman", "not both"),
        (ron(1, win(5, 1, 30)), "result.wins[0].seat", "unknown seat 5"),
        (ron(1, win(2, 2, 30, pao=3)), "result.wins[0].pao", "needs a yakuman"),
        (tsumo(2, yakuman=1, pao=2), "result.pao", "their own win"),
        (tsumo(2, yakuman=1, pao=3, pao_yakuman=2), "result.pao_yakuman", "covers more"),
        ({"type": "ron", "discarder": 1, "wins": []}, "result.wins", "at least one"),
        ({"type": "sanma"}, "result.type", "not one of"),
        (nagashi(), "result.winners", "at least one"),
        (draw(1, 1), "result.tenpai[1]", "listed twice"),
        (chombo(-1), "result.offender", "unknown seat"),
    ],
)
def test_bad_hands_are_refused_naming_the_field(result, field, says):
    with pytest.raises(ScoringError) as err:
        hand("baba", result)
    assert err.value.field == field
    assert says in err.value.message


def test_fu_is_not_needed_from_mangan_up():
    assert hand("baba", ron(1, win(2, 5))).deltas[2] == 8000
    assert hand("baba", ron(1, win(2, 4, 70))).deltas[2] == 8000  # 70fu4han is over 2000 basic


def test_a_riichi_player_must_be_tenpai_at_a_draw():
    with pytest.raises(ScoringError, match="noten riichi") as err:
        hand("baba", draw(0), riichi=(1,))
    assert err.value.field == "result.tenpai"


def test_a_riichi_needs_1000_points_when_scores_are_known():
    with pytest.raises(ScoringError) as err:
        hand("baba", draw(1), riichi=(1,), scores=[40000, 900, 30000, 29100])
    assert err.value.field == "riichi"
    hand("baba", draw(1), riichi=(1,), scores=[40000, 1000, 30000, 29000])


def test_riichi_sticks_go_to_the_table_and_stay_after_a_draw():
    out = hand("baba", draw(0, 2), riichi=(0, 2), deposits=1000)
    assert out.deltas == [500, -1500, 500, -1500]
    assert out.deposits == 3000


def test_a_chombo_returns_the_hands_riichi_sticks_but_not_older_deposits():
    out = hand("baba", chombo(1), riichi=(2,), deposits=2000)
    assert out.deposits == 2000 and out.deltas[2] == 2000


def test_honba_on_a_ron_comes_from_the_discarder_on_a_tsumo_from_each():
    assert hand("baba", ron(1, win(2, 1, 30)), honba=3).deltas == [0, -1900, 1900, 0]
    assert hand("baba", tsumo(2, 1, 30), honba=3).deltas == [-800, -600, 2000, -600]


def test_dealer_tsumo_each_pays_2b_rounded_up():
    assert hand("baba", tsumo(0, 1, 40)).deltas == [2100, -700, -700, -700]


def test_several_nagashi_all_paid_when_the_venue_says_so():
    out = hand({"preset": "baba", "nagashi_multiple": "all"}, nagashi(1, 3), deposits=1000)
    assert out.winners == (1, 3)
    # Each is a mangan tsumo (seat 1 also pays seat 3's); the deposits go to the first.
    assert out.deltas == [-8000, 7000, -4000, 6000]


def test_multiple_ron_honba_to_each_or_only_the_nearest():
    each = {"preset": "jan-niki", "multiple_ron_honba": "each"}
    nearest = {"preset": "jan-niki", "multiple_ron_honba": "nearest"}
    assert hand(each, ron(0, win(1, 1, 30), win(2, 1, 30)), honba=1).deltas == [
        -2600,
        1300,
        1300,
        0,
    ]
    assert hand(nearest, ron(0, win(1, 1, 30), win(2, 1, 30)), honba=1).deltas == [
        -2300,
        1300,
        1000,
        0,
    ]


def test_every_payment_between_two_seats_is_recorded_in_order():
    out = hand("jan-niki", ron(0, win(3, 1, 30), win(1, 2, 30)))
    assert [(p.payer, p.payee) for p in out.payments] == [(0, 1), (0, 3)]
