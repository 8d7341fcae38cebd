"""Mahjong Soul's double yakuman (issue 64, docs/rulesets.md `double_yakuman`, MS5).

tensoul writes one `(役満)` string per yaku whatever it is worth, so the reader takes a win's
yakuman count from what the log paid — the label's points against one yakuman's for that winner —
and `check_log` holds the log's yakuman against the ruleset's `double_yakuman`. The proof is a
real Mahjong Soul 3-player game (tests/scoring/tenhou_logs/mahjongsoul, sources and licence in
SOURCES.md) whose last hand is a 13-sided kokushi paid 64000 to a non-dealer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.errors import ScoringError
from scoring.presets import MAHJONGSOUL, MAHJONGSOUL_SANMA, TENHOU, TENHOU_SANMA, ruleset_from_json
from scoring.tenhou import check_log, read_log
from scoring.tenhou.records import HandRead

LOGS = Path(__file__).parent / "tenhou_logs" / "mahjongsoul"
GAMES = sorted(p.name for p in LOGS.glob("*.json"))
KOKUSHI_13 = "kokushi13_withnuki.json"
# What each log's `sc` prints: Mahjong Soul's own final scores and results (total_point / 1000).
SC = {
    "kokushi13_withnuki.json": ([83200, -58100, 79900], [63.2, -108.1, 44.9]),
    "kokushi_ankan.json": ([83000, -13000, 35000], [63.0, -63.0, 0.0]),
}
ALL_FOUR = ("kokushi_13", "suuankou_tanki", "junsei_chuuren", "daisuushii")


def log(name: str):
    return read_log((LOGS / name).read_bytes())


def test_the_corpus_holds_real_mahjong_soul_games_each_cited():
    assert sorted(SC) == GAMES
    sources = (LOGS / "SOURCES.md").read_text(encoding="utf-8")
    for name in GAMES:
        assert f"`{name}`" in sources, name
        assert log(name).size == 3


@pytest.mark.parametrize("name", GAMES)
def test_a_real_mahjong_soul_game_replays_exactly_through_mahjongsoul_sanma(name):
    game = log(name)
    assert (game.final_scores, game.final_points) == SC[name]
    flow = check_log(MAHJONGSOUL_SANMA, game)  # raises, naming the hand, at the first difference
    assert [r.label for r in flow.records] == [h.label for h in game.hands]
    assert [r.deltas for r in flow.records] == [h.deltas for h in game.hands]
    result = flow.settlement()
    assert [p.score for p in result.players] == SC[name][0]
    assert [p.points for p in result.players] == SC[name][1]


def test_the_13_sided_kokushi_reads_as_two_yakuman_from_its_64000():
    game = log(KOKUSHI_13)
    last = game.hands[-1]
    # The log: 「役満64000点」 with the one string 「国士無双十三面待ち(役満)」, seat 0 from seat 1.
    assert last.label == "E3-2" and last.dealer == 2
    wins = [{"seat": 0, "yakuman": 2}]
    assert last.hand["result"] == {"type": "ron", "discarder": 1, "wins": wins}
    # 64000 + 2 honba × 200 from the discarder; seat 0 takes back the riichi stick it put out.
    assert last.deltas == [64400, -64400, 0]
    flow = check_log(MAHJONGSOUL_SANMA, game)
    assert [(y.winner, y.count) for y in flow.yakuman] == [(2, 1), (0, 2)]


def test_a_ruleset_that_counts_it_once_refuses_the_hand_naming_double_yakuman():
    once = MAHJONGSOUL_SANMA.replace(double_yakuman=())
    with pytest.raises(ScoringError) as caught:
        check_log(once, log(KOKUSHI_13))
    assert caught.value.code == "log.double_yakuman" and caught.value.field == "hands[5]"
    assert caught.value.message == (
        "E3-2: the log pays kokushi_13 as 2 yakuman, the ruleset counts 1 (its double_yakuman: [])"
    )
    # Each of the four is its own choice: the kokushi alone replays the game.
    assert check_log(once.replace(double_yakuman=["kokushi_13"]), log(KOKUSHI_13)).over


def test_the_mahjong_soul_presets_count_the_four_double_and_tenhou_none():
    assert MAHJONGSOUL.double_yakuman == MAHJONGSOUL_SANMA.double_yakuman == ALL_FOUR
    assert TENHOU.double_yakuman == TENHOU_SANMA.double_yakuman == ()


# --- the label's points against one yakuman's for that winner ----------------------------------


def viewer_log(n: int, dealer: int, scores: list[int], end: list[Any]) -> str:
    """tenhou.net/6 JSON of one hand, as tensoul writes it: `end` is the hand's result."""
    names = ["A", "B", "C", "D"][:n] + [""] * (4 - n)
    empty: list[Any] = [[] for _ in range(12)]
    return json.dumps(
        {
            "name": names,
            "rule": {"disp": "玉の間南喰赤"},
            "log": [[[dealer, 0, 0], scores + [0] * (4 - n), [26], [], *empty, end]],
        },
        ensure_ascii=False,
    )


@pytest.mark.parametrize(
    ("n", "dealer", "who", "source", "label", "yaku", "count"),
    [
        (3, 2, 0, 1, "役満64000点", ["国士無双十三面待ち(役満)"], 2),  # the real game's E3-2
        (4, 0, 0, 1, "役満96000点", ["四暗刻単騎(役満)"], 2),  # a dealer's ron: 48000 each
        (4, 0, 1, 1, "役満16000-32000点", ["大四喜(役満)"], 2),  # the dealer's share: 16000 each
        (4, 0, 0, 0, "役満32000点∀", ["純正九蓮宝燈(役満)"], 2),  # each pays a dealer 16000 each
        (4, 0, 2, 3, "役満96000点", ["大四喜(役満)", "字一色(役満)"], 3),
        (3, 0, 0, 0, "役満24000点∀", ["四暗刻(役満)"], 1),  # 北家折半: 16000 + half of 16000
        (3, 0, 0, 1, "役満48000点", ["国士無双(役満)"], 1),  # a dealer's single (kokushi_ankan)
    ],
)
def test_a_win_s_yakuman_count_is_its_points_against_one_yakuman(
    n, dealer, who, source, label, yaku, count
):
    end = ["和了", [0] * 4, [who, source, who, label, *yaku]]
    (hand,) = read_log(viewer_log(n, dealer, [35000] * n, end)).hands
    result = hand.hand["result"]
    win = result["wins"][0] if result["type"] == "ron" else result
    assert win["yakuman"] == count


def test_a_yakuman_label_whose_points_are_no_whole_count_is_garbled():
    end = ["和了", [0] * 4, [1, 2, 1, "役満40000点", "国士無双(役満)"]]
    with pytest.raises(ScoringError) as caught:
        read_log(viewer_log(4, 0, [25000] * 4, end))
    assert caught.value.code == "log.garbled" and "E1-0" in caught.value.message


def test_a_tenhou_13_sided_kokushi_paid_once_is_refused_by_mahjong_soul_rules():
    # Tenhou's own JSON names it 国士無双１３面 and pays it 32000; the discarder busts (−7000).
    end = ["和了", [0, 32000, -32000, 0], [1, 2, 1, "役満32000点", "国士無双１３面(役満)"]]
    game = read_log(viewer_log(4, 0, [25000] * 4, end))
    assert game.hands[0].hand["result"]["wins"] == [{"seat": 1, "yakuman": 1}]
    assert check_log(TENHOU, game).over
    with pytest.raises(ScoringError) as caught:
        check_log(MAHJONGSOUL, game)
    assert caught.value.code == "log.double_yakuman"
    assert caught.value.params["log"] == 1 and caught.value.params["ours"] == 2


def test_an_mjlog_names_its_yakuman_by_number():
    # mjlog AGARI: yaku 48 is 国士無双１３面, paid as Tenhou pays it — one yakuman.
    hand = HandRead(0, 0, 0, 0, [25000] * 4)
    hand.win({"who": "1", "fromWho": "2", "ten": "0,32000,5", "yakuman": "48",
              "sc": "250,320,250,0,250,-320,250,0"}, 4)  # fmt: skip
    (named,) = hand.yakuman
    assert (named.seat, named.count, named.kinds, named.others) == (1, 1, ("kokushi_13",), 0)
    assert named.count_under(()) == 1 and named.count_under(ALL_FOUR) == 2


# --- the knob -------------------------------------------------------------------------------


def test_double_yakuman_is_read_from_an_event_file_in_one_spelling():
    spelt = ruleset_from_json({"preset": "tenhou", "double_yakuman": ["daisuushii", "kokushi_13"]})
    assert spelt.double_yakuman == ("kokushi_13", "daisuushii")  # the knob's own order
    assert spelt.to_json()["double_yakuman"] == ["kokushi_13", "daisuushii"]
    with pytest.raises(ScoringError) as caught:
        ruleset_from_json({"preset": "tenhou", "double_yakuman": ["kokushi13"]})
    assert caught.value.field == "ruleset.double_yakuman[0]"
    assert "kokushi_13, suuankou_tanki, junsei_chuuren, daisuushii" in caught.value.message
    with pytest.raises(ScoringError) as caught:
        ruleset_from_json({"preset": "tenhou", "double_yakuman": "kokushi_13"})
    assert caught.value.field == "ruleset.double_yakuman"
