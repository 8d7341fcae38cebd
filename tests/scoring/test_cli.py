"""CONTRACT.md §1: `python -m scoring presets|hand|game|settle`."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(command: str, document) -> tuple[int, str, str]:
    stdin = io.StringIO(document if isinstance(document, str) else json.dumps(document))
    stdout, stderr = io.StringIO(), io.StringIO()
    code = main([command], stdin=stdin, stdout=stdout, stderr=stderr)
    return code, stdout.getvalue(), stderr.getvalue()


def ok(command: str, document):
    code, out, err = run(command, document)
    assert code == 0, err
    return json.loads(out)


def test_presets_lists_slug_name_and_players():
    code, out, _ = run("presets", "")
    assert code == 0
    presets = json.loads(out)
    assert [p["slug"] for p in presets] == [
        *("baba", "jan-niki", "hyper", "free-sanma", "emperor"),
        *("tenhou", "mahjongsoul", "tenhou-sanma", "mahjongsoul-sanma"),
        *("ema", "ema2025", "wrc", "wrc2022", "mleague"),
    ]
    assert {p["slug"]: p["players"] for p in presets}["free-sanma"] == 3
    assert all(p["name"] for p in presets)


def test_hand_as_in_the_contract():
    answer = ok(
        "hand",
        {
            "ruleset": "baba",
            "dealer": 0,
            "honba": 1,
            "deposits": 1000,
            "riichi": [2],
            "result": {"type": "ron", "discarder": 1, "wins": [{"seat": 2, "han": 3, "fu": 40}]},
        },
    )
    # 40fu3han = 5200, + 300 honba from the discarder; seat 2's stick and the 1000 come back.
    assert answer["deltas"] == [0, -5500, 6500, 0]
    assert answer["deposits"] == 0


def test_hand_with_scores_reports_scores_and_busts():
    answer = ok(
        "hand",
        {
            "ruleset": "baba",
            "scores": [40000, 30000, 25000, 5000],
            "result": {"type": "ron", "discarder": 3, "wins": [{"seat": 1, "han": 5}]},
        },
    )
    assert answer["scores"] == [40000, 38000, 25000, -3000]
    assert answer["busts"] == [{"seat": 3, "by": [1]}]


def test_emperor_hand_as_in_the_contract():
    answer = ok(
        "hand",
        {
            "ruleset": "emperor",
            "players": 4,
            "emperor": None,
            "result": {
                "type": "tsumo",
                "winner": 1,
                "yaku": 4,
                "bonus": 2,
                "virtue": 3,
                "calls": 0,
                "special": None,
            },
        },
    )
    assert answer["deltas"] == [-1900, 5700, -1900, -1900]


def test_ruleset_overrides_knobs():
    answer = ok(
        "hand",
        {
            "ruleset": {"preset": "baba", "kiriage": True},
            "result": {"type": "ron", "discarder": 1, "wins": [{"seat": 2, "han": 4, "fu": 30}]},
        },
    )
    assert answer["deltas"][2] == 8000


def test_batch_answers_in_order():
    docs = [{"ruleset": "baba", "result": {"type": "draw", "tenpai": [t]}} for t in range(4)]
    answers = ok("hand", docs)
    assert [a["deltas"][t] for t, a in enumerate(answers)] == [3000] * 4


def test_game_as_in_the_contract():
    answer = ok(
        "game",
        {
            "ruleset": "baba",
            "players": ["Aoki", "Baba", "Chiba", "Doi"],
            "hands": [
                {"riichi": [0], "result": {"type": "tsumo", "winner": 0, "han": 2, "fu": 30}},
            ],
        },
    )
    assert answer["hands"][0]["label"] == "E1-0"
    assert answer["hands"][0]["scores"] == [28000, 24000, 24000, 24000]
    assert answer["over"] is False
    assert answer["next"] == {"label": "E1-1", "dealer": 0, "honba": 1}
    assert answer["result"]["final"] is False
    assert [p["rank"] for p in answer["result"]["players"]] == [1, 2, 3, 4]


def test_game_settles_busts_and_yakuman_with_no_extra_input():
    answer = ok(
        "game",
        {
            "ruleset": "jan-niki",
            "players": 4,
            "hands": [
                {"result": {"type": "ron", "discarder": 3, "wins": [{"seat": 2, "yakuman": 1}]}},
            ],
        },
    )
    assert answer["over"] is True and answer["next"] is None
    players = answer["result"]["players"]
    assert players[2]["breakdown"]["bust"] == 10.0 and players[2]["breakdown"]["shugi"] == 30.0
    assert answer["result"]["final"] is True


def test_settle_as_in_the_contract():
    answer = ok(
        "settle",
        {
            "ruleset": "baba",
            "scores": [43200, 31000, 18100, 7700],
            "deposits": 0,
            "busts": [],
            "yakuman": [
                {"winner": 1, "kind": "tsumo", "count": 1},
                {"winner": 2, "kind": "ron", "from": 0, "count": 1, "pao": None},
            ],
        },
    )
    seat1 = answer["players"][1]
    assert seat1 == {
        "seat": 1,
        "rank": 2,
        "score": 31000,
        "points": 6.0,
        "chips": 0,
        "breakdown": {
            "base": 1.0,
            "uma": 5.0,
            "oka": 0.0,
            "bust": 0.0,
            "shugi": 0.0,
            "penalty": 0.0,
        },
    }


BAD = [
    (
        "unknown seat",
        "hand",
        {
            "ruleset": "baba",
            "result": {"type": "ron", "discarder": 4, "wins": [{"seat": 2, "han": 1, "fu": 30}]},
        },
        "result.discarder: unknown seat 4",
    ),
    (
        "fu 35",
        "hand",
        {
            "ruleset": "baba",
            "result": {"type": "ron", "discarder": 1, "wins": [{"seat": 2, "han": 1, "fu": 35}]},
        },
        "result.wins[0].fu: 35 is not a fu count",
    ),
    (
        "25 fu with 1 han",
        "hand",
        {"ruleset": "baba", "result": {"type": "tsumo", "winner": 1, "han": 1, "fu": 25}},
        "result.fu: 25 fu needs at least 2 han",
    ),
    (
        "a second ron winner under atamahane",
        "hand",
        {
            "ruleset": "baba",
            "result": {
                "type": "ron",
                "discarder": 1,
                "wins": [{"seat": 2, "han": 1, "fu": 30}, {"seat": 3, "han": 2, "fu": 30}],
            },
        },
        "result.wins: atamahane",
    ),
    (
        "a hand after the game ended",
        "game",
        {
            "ruleset": "baba",
            "players": 4,
            "hands": [
                {"result": {"type": "ron", "discarder": 3, "wins": [{"seat": 2, "yakuman": 1}]}},
                {"result": {"type": "draw", "tenpai": []}},
            ],
        },
        "hands[1]: the game is already over",
    ),
    (
        "an emperor win below 縛り",
        "hand",
        {
            "ruleset": "emperor",
            "players": 4,
            "emperor": None,
            "result": {"type": "ron", "winner": 1, "discarder": 0, "yaku": 3},
        },
        "result.yaku: 3 yaku is below the minimum (縛り) of 4",
    ),
    (
        "a batch element",
        "hand",
        [
            {"ruleset": "baba", "result": {"type": "draw", "tenpai": []}},
            {"ruleset": "baba", "result": {"type": "tsumo", "winner": 1, "han": 0, "fu": 30}},
        ],
        "[1].result.han: must be at least 1",
    ),
    (
        "an unknown knob",
        "hand",
        {"ruleset": {"preset": "baba", "umaa": [1]}, "result": {"type": "draw", "tenpai": []}},
        "ruleset.umaa: unknown knob",
    ),
    (
        "scores that do not sum",
        "settle",
        {"ruleset": "baba", "scores": [30000, 30000, 30000, 30000]},
        "scores: sum to 120000",
    ),
    (
        "a bust that is not one",
        "settle",
        {
            "ruleset": "baba",
            "scores": [40000, 30000, 20000, 10000],
            "busts": [{"seat": 3, "by": [0]}],
        },
        "busts[0].seat: seat 3 ended with 10000",
    ),
    ("not JSON", "hand", "{ruleset", "input: not valid JSON"),
    (
        "a player twice at one table",
        "game",
        {"ruleset": "baba", "players": ["Aoki", "Baba", "Aoki", "Doi"], "hands": []},
        "players[2]: Aoki sits at this table twice",
    ),
    (
        "a table size the ruleset does not play",
        "game",
        {"ruleset": "free-sanma", "players": 4, "hands": []},
        "players: free-sanma plays 3 players, not 4",
    ),
    (
        "a typo in a key",
        "hand",
        {"ruleset": "baba", "result": {"type": "tsumo", "winner": 1, "hna": 1}},
        "result.hna: unknown key",
    ),
]


@pytest.mark.parametrize(("case", "command", "document", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_exits_2_with_one_line_naming_the_field_and_nothing_on_stdout(
    case, command, document, message
):
    code, out, err = run(command, document)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(message), err


def test_unknown_command_exits_2():
    code, out, err = run("play", "{}")
    assert (code, out) == (2, "")
    assert "usage" in err


def test_the_real_command_line():
    doc = json.dumps(
        {"ruleset": "hyper", "result": {"type": "tsumo", "winner": 1, "han": 2, "fu": 20}}
    )
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "hand"],
        input=doc,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["deltas"] == [-700, 1500, -400, -400]
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "hand"],
        input="[1]",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip() == "[0]: must be a JSON object"
