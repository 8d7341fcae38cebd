"""Real Tenhou games (tests/scoring/tenhou_logs, sources in SOURCES.md) replayed through the
`tenhou` preset: every hand's label, dealer, honba, deposits and score changes, the end, the final
scores and points exactly as each log records them. Then each Tenhou knob is shown to matter: set
it otherwise and a real game no longer comes out as Tenhou scored it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.errors import ScoringError
from scoring.presets import TENHOU
from scoring.tenhou import check_log, read_log

LOGS = Path(__file__).parent / "tenhou_logs"
GAMES = sorted(p.name for p in LOGS.glob("*.mjlog") if "no-game-end" not in p.name)


def log(name: str):
    return read_log((LOGS / name).read_bytes())


def test_the_corpus_holds_real_games():
    assert len(GAMES) >= 15
    assert "SOURCES.md" in {p.name for p in LOGS.iterdir()}
    for name in GAMES:
        assert f"`{name}`" in (LOGS / "SOURCES.md").read_text(), name


@pytest.mark.parametrize("name", GAMES)
def test_a_real_game_replays_exactly(name):
    game = log(name)
    flow = check_log(TENHOU, game)  # raises, naming the hand, at the first difference
    assert flow.over and len(flow.records) == len(game.hands)
    assert [r.label for r in flow.records] == [h.label for h in game.hands]
    assert [r.deltas for r in flow.records] == [h.deltas for h in game.hands]
    assert [p.points for p in flow.settlement().players] == game.final_points
    assert sum(game.final_points) == 0


def test_the_corpus_covers_the_rules_it_proves():
    kinds: dict[str, int] = {}
    for name in GAMES:
        for hand in log(name).hands:
            result = hand.hand["result"]
            kind = result["type"]
            if kind == "ron" and len(result["wins"]) > 1:
                kind = "double ron"
            if kind == "abort":
                kind = result["reason"]
            if "pao" in result:
                kind = "pao"
            kinds[kind] = kinds.get(kind, 0) + 1
    for kind in ("ron", "tsumo", "draw", "double ron", "nagashi", "pao"):
        assert kinds.get(kind), kind
    for reason in ("kyuushu", "suufon", "suukaikan", "suucha"):
        assert kinds.get(reason), reason


NO_SANCHAHOU = {k: v for k, v in TENHOU.aborts.items() if k != "sanchahou"}


# Each knob of the preset against the real game that shows it: set otherwise, the game differs.
@pytest.mark.parametrize(
    ("knobs", "name", "says"),
    [
        ({"rounding": "gosha_rokunyu"}, "encdec-four-concealed-pons.mjlog", "final points"),
        ({"rounding": "exact"}, "double-ron.mjlog", "final points"),
        ({"uma": {4: (15, 5, -5, -15)}}, "double-ron.mjlog", "final points"),
        ({"agari_yame": "never"}, "2010081709gm-00a9-0000-fe3371ad.mjlog", "goes on"),
        ({"nagashi_deposits": "winner"}, "2019082700gm-00a9-0000-63d1f136.mjlog", "E4-0"),
        ({"nagashi_flow": "win"}, "2019082700gm-00a9-0000-63d1f136.mjlog", "E4-1"),
        (
            {"aborts": {**TENHOU.aborts, "suufon": "pass"}},
            "encdec-four-winds-no-winner.mjlog",
            "S3",
        ),
        ({"extension_below": None}, "encdec-game-end.mjlog", "after the game is over"),
        ({"extension_sudden_death": False}, "2011020416gm-00a9-0000-025480d4.mjlog", "goes on"),
        ({"multiple_ron_honba": "each"}, "encdec-rinshan-fu.mjlog", "deltas"),
        (  # atamahane has no 三家和 (the ruleset refuses one: test_rules)
            {"max_ron_winners": 1, "aborts": NO_SANCHAHOU},
            "double-ron.mjlog",
            "atamahane",
        ),
        ({"kiriage": True}, "double-ron.mjlog", "deltas"),
        ({"renchan_on_draw": "never"}, "2010091009gm-00a9-0000-83af2648.mjlog", "label"),
    ],
)
def test_each_tenhou_knob_is_what_real_games_show(knobs, name, says):
    with pytest.raises(ScoringError, match=says):
        check_log(TENHOU.replace(**knobs), log(name))


def test_a_hand_priced_differently_from_the_log_is_named():
    text = (LOGS / "double-ron.mjlog").read_text()
    # The first hand's tsumo, claimed as 3000 more than Tenhou paid it.
    text = text.replace(
        'sc="250,-60,240,130,250,-30,250,-30"', 'sc="250,-70,240,160,250,-40,250,-40"'
    )
    with pytest.raises(ScoringError) as caught:
        check_log(TENHOU, read_log(text))
    assert caught.value.field == "hands[0]" and "E1-0" in caught.value.message
    assert "deltas" in caught.value.message


@pytest.mark.parametrize(
    ("mangle", "code"),
    [
        (lambda t: t[: len(t) // 2], "log.xml"),  # cut mid-element
        (
            lambda t: t.replace("<mjloggm", "<html", 1).replace("</mjloggm>", "</html>"),
            "log.format",
        ),
        (lambda t: "this is not a log", "log.format"),
        (lambda t: t.replace('sc="', 'sc="x', 1), "log.garbled"),
        (lambda t: '<!DOCTYPE x [<!ENTITY a "b">]>' + t, "log.format"),
    ],
)
def test_a_garbled_log_is_refused_in_one_line(mangle, code):
    text = (LOGS / "double-ron.mjlog").read_text()
    with pytest.raises(ScoringError) as caught:
        read_log(mangle(text))
    assert caught.value.code == code and caught.value.field == "log"
    assert "\n" not in str(caught.value)


def test_a_truncated_log_names_the_hand_it_stops_after():
    with pytest.raises(ScoringError, match=r"stops after S3-0") as caught:
        read_log((LOGS / "2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog").read_bytes())
    assert caught.value.code == "log.truncated"


SANMA = (  # written here: a 3-player (GO type bit 4) game of one hand
    '<mjloggm ver="2.3"><GO type="185" lobby="0"/><UN n0="A" n1="B" n2="C" n3=""/>'
    '<TAIKYOKU oya="0"/><INIT seed="0,0,0,1,2,3" ten="350,350,350,0" oya="0"/>'
    '<AGARI ba="0,0" ten="30,1000,0" yaku="8,1" who="1" fromWho="0" '
    'sc="350,-10,350,10,350,0,0,0" owari="340,-10.0,360,20.0,350,-10.0,0,0"/></mjloggm>'
)


def test_a_three_player_log_is_not_a_four_player_game():
    game = read_log(SANMA)
    assert game.size == 3 and game.players == ["A", "B", "C"]
    with pytest.raises(ScoringError, match="plays 4 players, not 3"):
        check_log(TENHOU, game)


def test_names_are_read_in_seat_order():
    assert log("double-ron.mjlog").players == [
        "タケオしゃん",
        "初代☆",
        "デジタル仙人",
        "はっとりへいじ",
    ]


# tenhou.net/6's JSON (its viewer's format), written here by hand for one hand: East 2, dealer
# seat 1, three riichi, seat 2 rons seat 1 for 40 fu 2 han and takes the three sticks.
VIEWER_HAND = {
    "title": ["", ""],
    "name": ["A", "B", "C", "D"],
    "rule": {"disp": "般南喰赤", "aka": 1},
    "log": [
        [
            [1, 0, 0],
            [23000, 29000, 24000, 24000],
            [26],
            [35],
            [],
            [],
            ["r32"],
            [],
            [],
            [60, "r28"],
            [],
            [],
            ["r42"],
            [],
            [],
            [],
            ["和了", [0, -2600, 5600, 0], [2, 1, 2, "40符2飜2600点", "立直(1飜)", "ドラ(1飜)"]],
        ]
    ],
}


def test_the_viewer_json_reads_as_the_same_hand():
    game = read_log(json.dumps(VIEWER_HAND, ensure_ascii=False))
    (hand,) = game.hands
    assert hand.label == "E2-0" and hand.dealer == 1
    assert hand.hand == {
        "riichi": [0, 1, 2],
        "result": {"type": "ron", "discarder": 1, "wins": [{"seat": 2, "han": 2, "fu": 40}]},
    }
    assert hand.deltas == [-1000, -3600, 4600, 0]


def test_the_viewer_json_with_bad_shape_is_refused():
    with pytest.raises(ScoringError) as caught:
        read_log(json.dumps({"name": ["A"], "log": [[1, 2]]}))
    assert caught.value.code == "log.garbled"
    with pytest.raises(ScoringError, match="not valid JSON"):
        read_log('{"name": ')
