"""Honba at three players as Pantheon pays it (issue 64): 300 a honba, all 300 from the
discarder on a ron, 150 from each of the two payers on a tsumo — so a score may end in 50 and a
result need hundredths. And a riichi seat noten at an exhaustive draw where its hand was
declared dead (`riichi_dead_hand`). docs/rulesets.md, "Three players at 300 a honba".

P2: Pantheon (https://github.com/MahjongPantheon/pantheon, GPL), branch `sanma` at commit
6f0aea740ce719e52f672921be33f6e16fc0395f ("Fix honba scores on tsumo for sanma", 12 June 2026):
`Common/rulesets/sanma.php` (the default 3-player ruleset: `honbaValue` 300, 35,000 start,
no oka, uma 15,000 / 0 / −15,000, `sanmaDrawPayments` 3000), `Mimir/src/helpers/PointsCalc.php`
(a tsumo's honba: `honbaValue / opponentCount` from each opponent) and
`Mimir/tests/helpers/SanmaPointsCalcTest.php`, whose numbers the tests below quote (the code is
GPL: numbers only). Of the branch's 32 sanma test cases (31 before commit 82ab1edb added one),
two need a honba of 300 paid so: `testTsumoHonba` and `testRonUnchanged`.
"""

from __future__ import annotations

import io
import json

import pytest

from scoring.cli import main as cli_main
from scoring.errors import ScoringError
from scoring.settlement import settle
from tests.scoring.support import draw, hand, nagashi, ron, rules, tsumo, win
from tests.scoring.test_cli import ok

# Pantheon's `sanma.php` in this engine's knobs (P2): Mahjong Soul's 3-player room settles the
# same way (35,000 start and return, uma 15 / 0 / −15, ツモ損); the rest as `sanma.php` sets it.
PANTHEON_SANMA = {
    "preset": "mahjongsoul-sanma",
    "honba": 300,  # setHonbaValue(300)
    "noten_total": 3000,  # setSanmaDrawPayments(3000)
    "rounding": "exact",
    "tie": "split",  # setEqualizeUma(true)
    "bust": "never",  # setWithButtobi(false)
    "nagashi": None,  # setWithNagashiMangan(false)
    "aborts": {},  # setWithAbortives(false)
    "kazoe_han": None,  # setWithKazoe(false)
    "extension_below": None,  # setPlayAdditionalRounds(false)
    "agari_yame": "never",  # setWithLeadingDealerGameOver(false)
    "chombo": "result_penalty",  # setChomboAmount(20000), setExtraChomboPayments(false)
    "chombo_points": 20,
}


# --- Pantheon's own cases (P2, SanmaPointsCalcTest.php) -------------------------------------
# Its players 1, 2, 3 are seats 0, 1, 2 here.


def test_pantheon_tsumo_honba_150_from_each_payer():
    # testTsumoHonba: dealer player 2, player 1 wins a 5 han 30 fu tsumo at 2 honba —
    # "[1 => 6600, -4300, -2300]": 4,000 + 2 × 150 from the dealer, 2,000 + 2 × 150 from the
    # other, "the full 300/honba (same as a ron), not 200". Before the fix (the same case
    # from commit 8b9ae4ae, which brought it): 6400 / −4200 / −2200, 100 a payer.
    out = hand(PANTHEON_SANMA, tsumo(0, 5, 30), dealer=1, honba=2)
    assert out.deltas == [6600, -4300, -2300]


def test_pantheon_ron_pays_all_300_a_honba():
    # testRonUnchanged: a non-dealer's 5 han 30 fu ron from player 3 at 1 honba —
    # "[1 => 8300, 0, -8300]": 8,000 + 300.
    out = hand(PANTHEON_SANMA, ron(2, win(0, 5, 30)), dealer=1, honba=1)
    assert out.deltas == [8300, 0, -8300]


def test_pantheon_draw_payments_total_3000():
    # testDrawDefaultPayments: one tenpai "[1 => 3000, -1500, -1500]", two "[1 => 1500, 1500,
    # -3000]" — `noten_total` 3000 splits so.
    assert hand(PANTHEON_SANMA, draw(0)).deltas == [3000, -1500, -1500]
    assert hand(PANTHEON_SANMA, draw(0, 1)).deltas == [1500, 1500, -3000]


# --- what the split follows from: `honba` and the table size ---------------------------------


def test_one_honba_on_a_tsumo_leaves_scores_on_fifties():
    # A non-dealer mangan tsumo at 1 honba: 4,000 + 150 and 2,000 + 150.
    out = hand(PANTHEON_SANMA, tsumo(0, 5, 30), dealer=1, honba=1)
    assert out.deltas == [6300, -4150, -2150]
    assert rules(PANTHEON_SANMA).score_step == 50


@pytest.mark.parametrize(
    ("knobs", "result", "honba", "deltas"),
    [
        # A nagashi paid with honba is a mangan tsumo's payments: 2,000 + 150 and 4,000 + 150.
        ({"nagashi": "mangan", "nagashi_honba": True}, nagashi(0), 1, [6300, -4150, -2150]),
        # A pao ron split (`pao_ron_honba: split`): the yakuman's 32,000 halved between the
        # pao seat and the discarder, and each of the two pays honba × 300 / 2 = 150.
        (
            {"pao_ron_honba": "split"},
            ron(2, win(0, yakuman=1, pao=1)),
            1,
            [32300, -16150, -16150],
        ),
    ],
)
def test_every_split_of_a_honba_is_150_a_payer(knobs, result, honba, deltas):
    spec = {**PANTHEON_SANMA, **knobs}
    assert hand(spec, result, dealer=1, honba=honba).deltas == deltas


def test_the_step_stays_100_where_the_honba_splits_into_hundreds():
    assert rules("tenhou-sanma").score_step == 100  # 200: 100 a payer
    assert rules({"preset": "tenhou-sanma", "honba": 400}).score_step == 100
    assert rules("tenhou").score_step == 100  # 300 among three: 100 each


def test_a_honba_that_does_not_divide_among_the_payers_is_refused_naming_it():
    # 200 among the three payers of a 4-player tsumo is 66⅔: refused; 300 and 600 divide.
    with pytest.raises(ScoringError) as caught:
        rules({"preset": "tenhou", "honba": 200})
    assert caught.value.field == "ruleset.honba"
    assert "3 tsumo payers" in str(caught.value) and "multiple of 300" in str(caught.value)
    assert rules({"preset": "tenhou", "honba": 600}).score_step == 100


def test_settlement_shows_hundredths_only_where_scores_move_in_fifties():
    # (36,150 − 35,000) / 1,000 + 15 = 16.15; (33,850 − 35,000) / 1,000 − 15 = −16.15.
    result = settle(rules(PANTHEON_SANMA), [36150, 33850, 35000])
    assert [p.points for p in result.players] == [16.15, -16.15, 0.0]
    # At 100 a point the same scores are whole tenths: one decimal.
    tenths = rules({**PANTHEON_SANMA, "point_value": 100, "uma": {"3": [150, 0, -150]}})
    assert tenths.points_places == 1
    assert [p.points for p in settle(tenths, [36150, 33850, 35000]).players] == [
        161.5,
        -161.5,
        0.0,
    ]
    # Where every payment is in hundreds, a score on fifties is still refused.
    with pytest.raises(ScoringError) as caught:
        settle(rules("tenhou-sanma"), [36150, 33850, 35000])
    assert caught.value.field == "scores[0]" and "multiple of 100" in str(caught.value)


# --- CONTRACT §1 end to end ------------------------------------------------------------------


def test_a_game_with_300_a_honba_plays_through_the_command_line():
    # East only: E1 a draw, the dealer alone tenpai (+3,000, −1,500 each) → E1-1; seat 1's
    # mangan tsumo at 1 honba (+6,300: 4,150 from the dealer, 2,150 from seat 2) → E2; seat 0's
    # 3 han 30 fu ron from seat 2 (3,900) → E3; a draw all noten, the deal passes: the end.
    # 35,000 + 3,000 − 4,150 + 3,900 = 37,750; 35,000 − 1,500 + 6,300 = 39,800;
    # 35,000 − 1,500 − 2,150 − 3,900 = 27,450. Points: 4.8 + 15; 2.75 + 0; −7.55 − 15.
    game = ok(
        "game",
        {
            "ruleset": {**PANTHEON_SANMA, "winds": 1},
            "players": ["Aoki", "Baba", "Chiba"],
            "hands": [
                {"result": draw(0)},
                {"result": tsumo(1, 5)},
                {"result": ron(2, win(0, 3, 30))},
                {"result": draw()},
            ],
        },
    )
    assert [h["label"] for h in game["hands"]] == ["E1-0", "E1-1", "E2-0", "E3-0"]
    assert game["hands"][1]["deltas"] == [-4150, 6300, -2150]
    assert game["over"] is True
    players = game["result"]["players"]
    assert [p["score"] for p in players] == [37750, 39800, 27450]
    assert [p["points"] for p in players] == [2.75, 19.8, -22.55]
    assert [p["rank"] for p in players] == [2, 1, 3]


def test_the_command_line_names_a_honba_that_does_not_divide():
    stdout, stderr = io.StringIO(), io.StringIO()
    document = json.dumps({"ruleset": {"preset": "tenhou", "honba": 200}, "scores": [25000] * 4})
    code = cli_main(["settle"], stdin=io.StringIO(document), stdout=stdout, stderr=stderr)
    assert code == 2 and stdout.getvalue() == ""
    assert stderr.getvalue().startswith("ruleset.honba: must split evenly among 3 tsumo payers")


# --- a riichi seat noten at the draw: its hand declared dead (`riichi_dead_hand`) ------------


def test_a_dead_hand_riichi_counts_noten_without_a_chombo():
    # EMA 2012 §3.3.13 "A player is not considered tenpai if his hand has been declared a dead
    # hand"; riichi.wiki "Agari houki": the riichi stick "may not be reclaimed", the hand "is
    # considered noten for the purposes of tenpai payments. No chombo is given". Seat 0 alone
    # tenpai takes 1,000 from each of the three; seat 2 also puts its stick on the table.
    out = hand({"preset": "tenhou", "riichi_dead_hand": True}, draw(0), riichi=(2,))
    assert out.deltas == [3000, -1000, -2000, -1000]
    assert out.deposits == 1000
    # Without the knob (every preset) it is refused: a noten riichi is a chombo.
    with pytest.raises(ScoringError) as caught:
        hand("tenhou", draw(0), riichi=(2,))
    assert caught.value.field == "result.tenpai"
