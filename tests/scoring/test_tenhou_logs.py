"""Real Tenhou games (tests/scoring/tenhou_logs, sources in SOURCES.md) replayed through the
`tenhou` preset: every hand's label, dealer, honba, deposits and score changes, the end, the final
scores and points exactly as each log records them. Then each Tenhou knob is shown to matter: set
it otherwise and a real game no longer comes out as Tenhou scored it."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from scoring.errors import ScoringError
from scoring.presets import TENHOU
from scoring.settlement import settle
from scoring.tenhou import check_log, read_log
from tests.scoring.majiang_logs import read_majiang

LOGS = Path(__file__).parent / "tenhou_logs"
GAMES = sorted(p.name for p in LOGS.glob("*.mjlog") if "no-game-end" not in p.name)


def log(name: str):
    return read_log((LOGS / name).read_bytes())


def test_the_corpus_holds_real_games():
    assert len(GAMES) >= 15
    assert "SOURCES.md" in {p.name for p in LOGS.iterdir()}
    for name in GAMES:
        assert f"`{name}`" in (LOGS / "SOURCES.md").read_text(), name


# Tenhou printed tenths from June 2022 on (the 2022 logs); every older log here prints whole
# points (docs/rulesets.md, `tenhou`, `rounding`).
TENTHS = {name for name in GAMES if name[:4].isdigit() and name >= "2022"}


@pytest.mark.parametrize("name", GAMES)
def test_a_real_game_replays_exactly(name):
    game = log(name)
    flow = check_log(TENHOU, game)  # raises, naming the hand, at the first difference
    assert flow.over and len(flow.records) == len(game.hands)
    assert [r.label for r in flow.records] == [h.label for h in game.hands]
    assert [r.deltas for r in flow.records] == [h.deltas for h in game.hands]
    assert [p.points for p in flow.settlement().players] == game.final_points
    assert round(sum(game.final_points), 1) == 0
    # The plain preset takes a log of either era, each in the rounding it printed.
    assert flow.rules.rounding == ("exact" if name in TENTHS else "half_up")


def test_the_corpus_holds_both_eras():
    assert len(TENTHS) >= 3
    for name in GAMES:
        printed = log(name).final_points
        assert all(p == int(p) for p in printed) == (name not in TENTHS), name


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
        # Tenhou's rounding, by era: today's tenths, and half up to whole points before.
        ({"rounding_earlier": "gosha_rokunyu"}, "encdec-four-concealed-pons.mjlog", "final points"),
        ({"rounding_earlier": None}, "double-ron.mjlog", "final points"),
        ({"rounding": "half_up"}, "2022060100gm-00a9-0000-3e8b8aaf.mjlog", "final points"),
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


# --- 2023: fifteen phoenix-room games (tenhou_logs/majiang, MahjongLM's fixtures) -----------

MAJIANG = LOGS / "majiang"
with zipfile.ZipFile(MAJIANG / "data2023_sample_v1.zip") as _zip:
    GAMES_2023 = {Path(n).name: _zip.read(n) for n in _zip.namelist() if n.endswith(".txt")}
EAST_ONLY_2023 = "2023012721gm-00e1-0000-72b6b9d6.json"


def log_2023(name: str):
    if name == EAST_ONLY_2023:
        return read_majiang((MAJIANG / name).read_bytes())
    return read_majiang(GAMES_2023[name])


@pytest.mark.parametrize("name", [*sorted(GAMES_2023), EAST_ONLY_2023])
def test_a_2023_game_replays_to_the_tenths_tenhou_printed(name):
    game = log_2023(name)
    rules = TENHOU if game.east_south else TENHOU.replace(winds=1)
    flow = check_log(rules, game)  # every hand, the end, the final scores and points
    assert [r.deltas for r in flow.records] == [h.deltas for h in game.hands]
    points = [p.points for p in flow.settlement().players]
    assert points == game.final_points and flow.rules.rounding == "exact"
    # Whole points (the rounding `tenhou` had before) give other numbers than Tenhou printed.
    whole = settle(TENHOU.replace(rounding="half_up"), [p.score for p in flow.settlement().players])
    assert [p.points for p in whole.players] != game.final_points


def test_the_2023_games_are_fifteen_and_cover_the_hands_they_prove():
    assert len(GAMES_2023) == 14 and all(name.startswith("2023") for name in GAMES_2023)
    kinds = {
        h.hand["result"].get("reason", h.hand["result"]["type"])
        for name in [*GAMES_2023, EAST_ONLY_2023]
        for h in log_2023(name).hands
    }
    assert {"ron", "tsumo", "draw", "nagashi", "kyuushu", "suucha", "sanchahou"} <= kinds


def test_an_east_only_log_under_east_south_names_the_winds_knob():
    # 東 in the log's rule name (四鳳東喰赤速): the game ends after East 4 in the log, while an
    # East-South ruleset plays on. The refusal says which knob replays it.
    with pytest.raises(ScoringError) as caught:
        check_log(TENHOU, log_2023(EAST_ONLY_2023))
    assert caught.value.code == "log.east_only" and '"winds": 1' in caught.value.message
    assert "goes on" in caught.value.message
    # And the other way: an East-South log under East only names `"winds": 2`.
    with pytest.raises(ScoringError) as caught:
        check_log(TENHOU.replace(winds=1), log("2022060100gm-00a9-0000-3ffa4858.mjlog"))
    assert caught.value.code == "log.east_south" and '"winds": 2' in caught.value.message
    assert caught.value.field.startswith("hands[") and "S1-0" in caught.value.message


def test_a_log_printed_in_another_rounding_than_the_ruleset_s_names_rounding():
    # A ruleset with one rounding (no earlier one): a whole-point log into tenths, and a tenths
    # log into whole points, each refused naming the value that replays it.
    with pytest.raises(ScoringError) as caught:
        check_log(TENHOU.replace(rounding_earlier=None), log("double-ron.mjlog"))
    assert caught.value.code == "log.final_whole" and '"rounding": "half_up"' in str(caught.value)
    whole = TENHOU.replace(rounding="half_up", rounding_earlier=None)
    with pytest.raises(ScoringError) as caught:
        check_log(whole, log("2022060100gm-00a9-0000-3ffa4858.mjlog"))
    assert caught.value.code == "log.final_tenths" and '"rounding": "exact"' in str(caught.value)


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
