"""Game flow mechanics not tied to one preset."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.flow import replay
from scoring.hands import parse_hand
from scoring.presets import BABA
from tests.scoring.support import Table, chombo, draw, ron, tsumo, win


def test_labels_show_wind_hand_and_honba():
    t = Table("jan-niki")
    assert t.label == "E1-0"
    t.cheap_win(seat=0)
    t.play(draw(0))
    assert t.label == "E1-2"
    assert t.flow.next() == {"label": "E1-2", "dealer": 0, "honba": 2}


def test_a_chombo_replays_the_same_hand():
    t = Table("baba")
    t.pass_deal()
    t.play(draw(1, 2))
    before = (t.label, t.flow.dealer, t.flow.honba)
    t.play(chombo(0))
    assert (t.label, t.flow.dealer, t.flow.honba) == before


def test_an_error_names_the_hand_it_came_from():
    hands = [parse_hand({"result": draw()}, BABA, 4) for _ in range(8)]
    hands.append(parse_hand({"result": draw()}, BABA, 4))
    with pytest.raises(ScoringError) as err:
        replay(BABA, 4, hands)
    assert err.value.field == "hands[8]"


def test_a_refused_hand_changes_nothing():
    t = Table("baba")
    t.flow.scores = [40000, 30000, 29500, 500]
    with pytest.raises(ScoringError):
        t.play(draw(3), riichi=(3,))
    assert t.flow.scores == [40000, 30000, 29500, 500] and t.flow.records == []


def test_busts_and_yakuman_are_collected_for_settlement():
    t = Table("jan-niki")
    t.play(tsumo(1, yakuman=1))
    t.play(ron(0, win(2, yakuman=2)))
    assert [y.count for y in t.flow.yakuman] == [1, 2]
    assert t.flow.over and [b.seat for b in t.flow.busts] == [0]


def test_the_table_size_must_be_one_the_ruleset_plays():
    with pytest.raises(ScoringError, match="players"):
        Table("free-sanma", players=4)


def test_time_up_ends_the_game_after_the_hand_in_play():
    hands = [parse_hand({"result": draw(0)}, BABA, 4) for _ in range(2)]
    hands.append(parse_hand({"result": draw(1), "time_up": True}, BABA, 4))
    flow = replay(BABA, 4, hands)
    assert flow.over and flow.next() is None
    assert len(flow.records) == 3  # East 3: far from the end of South 4
    assert sum(p.points for p in flow.settlement().players) == 0  # settled as it stands


def test_a_game_goes_on_from_a_flow_that_played_its_first_hands():
    """evaluate(…, played=flow) plays only the hands after the flow's (the app's entry page
    replayed those already): the same game as replaying every hand; an error still names the
    hand by its place in the game."""
    from scoring.evaluate import evaluate

    results = [
        ron(1, win(2, 3, 40)),
        draw(0, 2),
        tsumo(3, 2, 30),
        ron(0, win(1, 1, 30)),
        draw(),
        tsumo(0, 4, 30),
        ron(2, win(3, 2, 40)),
        draw(1),
    ]
    game = {"hands": [{"result": r} for r in results]}
    whole = evaluate(BABA, 4, game)
    for cut in range(len(results) + 1):
        first = evaluate(BABA, 4, {"hands": game["hands"][:cut]})
        on = evaluate(BABA, 4, game, played=first.flow)
        assert on.flow is first.flow
        assert (on.scores, on.deposits, on.over) == (whole.scores, whole.deposits, whole.over)
        assert [r.label for r in on.records] == [r.label for r in whole.records]
        assert on.settlement == whole.settlement
    flow = evaluate(BABA, 4, {"hands": game["hands"][:2]}).flow
    bad = {"hands": [*game["hands"][:2], {"result": tsumo(9, 2, 30)}]}
    with pytest.raises(ScoringError) as err:
        evaluate(BABA, 4, bad, played=flow)
    assert err.value.field.startswith("hands[2]")
