"""The 3-player presets `tenhou-sanma` and `mahjongsoul-sanma` (docs/rulesets.md, "Sanma").

Real Tenhou 3-player games (tests/scoring/tenhou_logs/sanma, sources and licences in SOURCES.md)
replay hand by hand — every hand's label, dealer, honba, deposits and score changes, the end, the
final scores and points exactly as each log prints them. Then each knob the preset sets is shown
to matter: set otherwise, a real game no longer comes out as Tenhou scored it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.errors import ScoringError
from scoring.presets import MAHJONGSOUL_SANMA, PRESETS, TENHOU_SANMA
from scoring.settlement import settle
from scoring.tenhou import check_log, read_log
from tests.scoring.support import Table, abort, draw, hand, ron, rules, tsumo, win

LOGS = Path(__file__).parent / "tenhou_logs" / "sanma"
GAMES = sorted(p.name for p in LOGS.glob("*.mjlog"))
# The logs are from the years Tenhou rounded each non-top result to the thousand (docs): a
# ruleset with that rounding alone.
OLD_TENHOU_SANMA = TENHOU_SANMA.replace(rounding="half_up")
# What each log's `owari` prints: final scores (in hundreds there) and final points.
OWARI = {
    "2009060321gm-00b9-0000-75b25bcf.mjlog": ([71000, -1000, 35000], [66.0, -61.0, -5.0]),
    "2014091101gm-00b9-0000-5ca6b487.mjlog": ([59200, 22800, 23000], [54.0, -37.0, -17.0]),
    "2018110809gm-00b9-0000-00a79b89.mjlog": ([48100, -6400, 63300], [8.0, -66.0, 58.0]),
}


def log(name: str):
    return read_log((LOGS / name).read_bytes())


def test_the_corpus_holds_real_three_player_games_each_cited():
    assert sorted(OWARI) == GAMES
    sources = (LOGS / "SOURCES.md").read_text()
    for name in GAMES:
        assert f"`{name}`" in sources, name
        game = log(name)
        assert game.size == 3 and game.east_south


@pytest.mark.parametrize("name", GAMES)
def test_a_real_three_player_game_replays_exactly(name):
    game = log(name)
    assert (game.final_scores, game.final_points) == OWARI[name]
    flow = check_log(TENHOU_SANMA, game)  # raises, naming the hand, at the first difference
    # The plain preset replays a log of Tenhou's whole-point years in the rounding it printed
    # (the 2009 game ends on whole thousands: today's rounding prints the same points).
    assert flow.rules.rounding == ("exact" if name.startswith("2009") else "half_up")
    assert [r.label for r in flow.records] == [h.label for h in game.hands]
    assert [r.deltas for r in flow.records] == [h.deltas for h in game.hands]
    result = flow.settlement()
    assert [p.score for p in result.players] == OWARI[name][0]
    assert [p.points for p in result.players] == OWARI[name][1]


def test_the_corpus_covers_what_sanma_changes():
    kinds: dict[str, int] = {}
    for name in GAMES:
        for h in log(name).hands:
            result = h.hand["result"]
            kind = result["type"]
            if kind == "draw":
                kind = f"draw, {len(result['tenpai'])} tenpai"
            if h.honba and kind in ("ron", "tsumo"):
                kinds[f"{kind} with honba"] = kinds.get(f"{kind} with honba", 0) + 1
            kinds[kind] = kinds.get(kind, 0) + 1
    for kind in ("ron", "tsumo", "draw, 1 tenpai", "draw, 2 tenpai"):
        assert kinds.get(kind), kind
    assert kinds.get("ron with honba") and kinds.get("tsumo with honba")
    # Busts: the 2009 and 2018 games end on a seat below zero.
    assert sum(1 for name in GAMES if min(OWARI[name][0]) < 0) == 2
    # North tiles (北抜き, mjlog <N> with bit 0x20): taken in the games, counted in the han.
    text = (LOGS / "2014091101gm-00b9-0000-5ca6b487.mjlog").read_text()
    assert 'm="31520"' in text and 'm="31264"' in text


def test_a_tsumo_is_paid_as_in_four_players_with_the_north_seat_missing():
    # 2014 E1-3, as the log records it: a non-dealer 4 han 40 fu tsumo at 3 honba, the dealer
    # paying 4000 + 300 and the other seat 2000 + 300 — 6600 where a ron pays 8000 + 600.
    game = log("2014091101gm-00b9-0000-5ca6b487.mjlog")
    e13 = game.hands[3]
    assert e13.label == "E1-3" and e13.deltas == [-4300, 6600, -2300]
    out = hand(TENHOU_SANMA, tsumo(1, 4, 40), honba=3, riichi=(1,))
    assert out.deltas == e13.deltas
    assert hand(TENHOU_SANMA, ron(0, win(1, 4, 40)), honba=3).deltas == [-8600, 8600, 0]


def test_honba_is_200_on_a_ron_and_100_from_each_payer_on_a_tsumo():
    game = log("2014091101gm-00b9-0000-5ca6b487.mjlog")
    e12, s32 = game.hands[2], game.hands[10]
    # E1-2: the dealer's 20 fu 4 han tsumo (2600 all) at 2 honba, with a stick on the table.
    assert (e12.label, e12.deposits, e12.deltas) == ("E1-2", 1000, [6600, -2800, -2800])
    assert hand(TENHOU_SANMA, tsumo(0, 4, 20), honba=2, deposits=1000).deltas == e12.deltas
    # S3-2: a 40 fu 2 han ron (2600) at 2 honba: 2600 + 400 from the discarder.
    assert s32.label == "S3-2" and s32.deltas[1] == -3000
    # 300 a honba (Pantheon's sanma: 150 from each payer, test_sanma_honba.py) is not Tenhou's.
    pantheon = TENHOU_SANMA.replace(honba=300)
    assert hand(pantheon, tsumo(0, 4, 20), honba=2, deposits=1000).deltas != e12.deltas


def test_noten_payments_are_2000_in_all():
    game = log("2014091101gm-00b9-0000-5ca6b487.mjlog")
    one, two = game.hands[8], game.hands[1]  # S3-0: one tenpai; E1-1: two tenpai
    assert one.deltas == [-1000, -1000, 1000] and one.hand["riichi"] == [2]
    assert hand(TENHOU_SANMA, draw(2), riichi=(2,)).deltas == one.deltas
    assert hand(TENHOU_SANMA, draw(0, 2), riichi=(0,)).deltas == two.deltas == [0, -2000, 1000]


# Each knob the preset sets, against the real game that shows it: set otherwise, it differs.
@pytest.mark.parametrize(
    ("knobs", "name", "says"),
    [
        ({"rounding_earlier": None}, "2014091101gm-00b9-0000-5ca6b487.mjlog", "final points"),
        ({"uma": {3: (15, 0, -15)}}, "2009060321gm-00b9-0000-75b25bcf.mjlog", "final points"),
        ({"return_points": 35000}, "2018110809gm-00b9-0000-00a79b89.mjlog", "final points"),
        ({"honba": 400}, "2014091101gm-00b9-0000-5ca6b487.mjlog", "E1-2"),
        ({"noten_total": 4000}, "2014091101gm-00b9-0000-5ca6b487.mjlog", "E1-1"),
        ({"kiriage": True}, "2014091101gm-00b9-0000-5ca6b487.mjlog", "S1-0"),
        ({"bust": "never"}, "2009060321gm-00b9-0000-75b25bcf.mjlog", "goes on"),
        ({"bust": "never"}, "2018110809gm-00b9-0000-00a79b89.mjlog", "goes on"),
    ],
)
def test_each_sanma_knob_is_what_real_games_show(knobs, name, says):
    with pytest.raises(ScoringError, match=says):
        check_log(TENHOU_SANMA.replace(**knobs), log(name))


def test_today_tenhou_prints_points_to_the_tenth():
    # Final scores and points as Tenhou's 3-player phoenix logs of 2024 print them (`sc`;
    # docs/rulesets.md names the logs): (final − 40000) / 1000, oka 15 and uma 20-0-20, exact.
    for scores, points in [
        ([75700, 6800, 22500], [70.7, -53.2, -17.5]),  # 2024010120gm-00b9-0000-e324b88a
        ([77800, 28900, -1700], [72.8, -11.1, -61.7]),  # 2024123123gm-00b9-0000-4a3a3639
        ([39400, 19000, 46600], [-0.6, -41.0, 41.6]),  # 2024123123gm-00b9-0000-56cca963
    ]:
        assert [p.points for p in settle(TENHOU_SANMA, scores).players] == points
        old = [p.points for p in settle(OLD_TENHOU_SANMA, scores).players]
        assert old != points and all(p == int(p) for p in old)


def test_three_players_only_east_south_by_default_east_only_by_winds():
    assert (TENHOU_SANMA.players, TENHOU_SANMA.player_counts) == (3, (3,))
    assert (TENHOU_SANMA.start, TENHOU_SANMA.return_points, TENHOU_SANMA.oka) == (
        35000,
        40000,
        15000,
    )
    for spec, labels in [
        ("tenhou-sanma", ["E1-0", "E2-0", "E3-0", "S1-0", "S2-0", "S3-0"]),
        ({"preset": "tenhou-sanma", "winds": 1}, ["E1-0", "E2-0", "E3-0"]),
        ({"preset": "mahjongsoul-sanma", "winds": 1}, ["E1-0", "E2-0", "E3-0"]),
    ]:
        t = Table(spec)
        t.flow.scores = [45000, 30000, 30000]  # the top at 40000 or more: no extra wind
        seen = []
        while not t.flow.over:
            seen.append(t.label)
            t.pass_deal()
        assert seen == labels
    with pytest.raises(ScoringError, match="3 players, not 4"):
        settle(TENHOU_SANMA, [35000] * 4)


def test_nobody_at_40000_plays_the_next_wind_until_someone_reaches_it():
    t = Table({"preset": "tenhou-sanma", "winds": 1})
    t.pass_deal(3)  # East 1-3: small wins, nobody near 40000
    assert not t.flow.over and t.label == "S1-0"
    t.play(ron(2, win(1, 4, 40)))  # 8000: seat 1 now well above 40000
    assert t.flow.over


def test_no_four_winds_or_four_riichi_abort_with_three_seats():
    assert set(TENHOU_SANMA.aborts) == {"kyuushu", "suukaikan"} == set(MAHJONGSOUL_SANMA.aborts)
    t = Table("tenhou-sanma")
    t.play(abort("kyuushu"))  # the deal repeats with a honba more
    assert t.label == "E1-1"
    for reason in ("suufon", "suucha", "sanchahou"):
        with pytest.raises(ScoringError):
            t.play(abort(reason))


def test_a_double_ron_is_both_other_seats_honba_and_sticks_to_the_nearer():
    out = hand(
        TENHOU_SANMA,
        ron(0, win(1, 1, 30), win(2, 1, 30)),
        dealer=0,
        honba=1,
        deposits=1000,
    )
    # Seat 1 is nearer the discarder (seat 0): 1000 + 200 honba + the stick; seat 2 1000.
    assert out.deltas == [-2200, 2200, 1000]


def test_mahjongsoul_sanma_settles_from_35000_with_uma_15_0_15():
    # 「35000点開始の35000点返し」「ウマ15-0-15」 (docs/rulesets.md, MS2): no oka.
    assert MAHJONGSOUL_SANMA.oka == 0 and MAHJONGSOUL_SANMA.extension_below == 40000
    result = settle(MAHJONGSOUL_SANMA, [59200, 22800, 23000])
    assert [p.points for p in result.players] == [39.2, -27.2, -12.0]


@pytest.mark.parametrize("name", GAMES)
def test_mahjongsoul_sanma_plays_the_hands_as_tenhou_sanma(name):
    # Mahjong Soul's 3-player room pays every hand as Tenhou's (MS1); only the settlement
    # differs — so each real hand prices the same, and the final points by 35000 and 15-0-15.
    game = log(name)
    scores = OWARI[name][0]
    with pytest.raises(ScoringError, match="final points"):
        check_log(MAHJONGSOUL_SANMA, game)
    expected = [
        round((s - 35000) / 1000 + u, 1)
        for s, u in zip(scores, _uma_by_rank(scores, (15, 0, -15)), strict=True)
    ]
    assert [p.points for p in settle(MAHJONGSOUL_SANMA, scores).players] == expected


def _uma_by_rank(scores: list[int], uma: tuple[int, ...]) -> list[int]:
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    return [uma[order.index(s)] for s in range(len(scores))]


def test_both_presets_are_listed_and_read_from_an_event_file():
    assert {"tenhou-sanma", "mahjongsoul-sanma"} <= set(PRESETS)
    assert rules({"preset": "tenhou-sanma", "rounding": "half_up"}) == OLD_TENHOU_SANMA
    assert TENHOU_SANMA.name_in("en") == "Tenhou 3-player East-South"
    assert MAHJONGSOUL_SANMA.name_in("ja") == "雀魂 三人東南戦"


# tenhou.net/6's viewer JSON of a 3-player hand, written here after the South 2 hand of the 2024
# log 2024010120gm-00b9-0000-e324b88a (docs/rulesets.md): the fourth name is empty, the round
# counter skips 3 (South 2 is 5), and a 4-han mangan is named "満貫8000点" with no fu.
SANMA_VIEWER_HAND = {
    "name": ["A", "B", "C", ""],
    "rule": {"disp": "三鳳南喰赤", "aka53": 1, "aka52": 1, "aka51": 1},
    "log": [
        [
            [5, 0, 0],  # round, honba, sticks
            [31000, 45000, 29000, 0],
            *([] for _ in range(10)),  # dora, ura, seats 0–1's tiles, seat 2's haipai and draws
            ["r41"],  # seat 2's discards: a riichi
            *([] for _ in range(3)),  # the empty fourth seat
            [
                "和了",
                [0, -8000, 9000, 0],
                [2, 1, 2, "満貫8000点", "立直(1飜)", "ドラ(2飜)", "赤ドラ(1飜)"],
            ],
        ]
    ],
}


def test_the_viewer_json_reads_a_three_player_hand_and_its_mangan():
    game = read_log(json.dumps(SANMA_VIEWER_HAND, ensure_ascii=False))
    (h,) = game.hands
    assert game.size == 3 and (h.label, h.dealer) == ("S2-0", 1)
    win_ = h.hand["result"]["wins"][0]
    assert (win_["han"], win_["fu"]) == (4, 40)  # not 30 fu: that would be 7700
    assert h.deltas == [0, -8000, 8000]
    out = hand(TENHOU_SANMA, h.hand["result"], dealer=1, riichi=(2,))
    assert out.deltas == h.deltas


SPLIT = {"preset": "mahjongsoul-sanma", "sanma_tsumo": "split"}


@pytest.mark.parametrize(
    ("winner", "han", "fu", "deltas"),
    [
        # A non-dealer mangan: 2000 / 4000 and half the missing 2000 from each — 3000 / 5000,
        # the 8000 a ron pays (tensoul's convert.js: each payer adds tlround(xian / 2)).
        (1, 5, None, [-5000, 8000, -3000]),
        # The dealer's mangan: 4000 all and 2000 more each — 6000 all, the ron's 12000.
        (0, 5, None, [12000, -6000, -6000]),
        # 30 fu 1 han: 300 / 500, and half of 300 rounded up to 200 — 500 / 700.
        (1, 1, 30, [-700, 1200, -500]),
        # The dealer's 30 fu 1 han: 500 all, and half of 500 rounded up to 300 — 800 all.
        (0, 1, 30, [1600, -800, -800]),
    ],
)
def test_sanma_tsumo_split_adds_half_the_north_share_to_each_payer(winner, han, fu, deltas):
    assert hand(SPLIT, tsumo(winner, han, fu)).deltas == deltas
    lost = hand("mahjongsoul-sanma", tsumo(winner, han, fu)).deltas
    assert sum(lost[s] for s in range(3) if s != winner) > sum(
        deltas[s] for s in range(3) if s != winner
    )  # ツモ損 pays less


def test_sanma_tsumo_split_keeps_honba_per_payer_and_is_refused_misspelt():
    # 2 honba: each payer adds 100 × 2 as under ツモ損 (tensoul: hb + xian + tlround(xian / 2)).
    assert hand(SPLIT, tsumo(1, 5), honba=2).deltas == [-5200, 8400, -3200]
    assert hand({"preset": "tenhou", "sanma_tsumo": "split"}, tsumo(1, 5)).deltas == [
        -4000,
        8000,
        -2000,
        -2000,
    ]  # four seats: no North is missing, nothing to split
    with pytest.raises(ScoringError) as caught:
        rules({"preset": "tenhou-sanma", "sanma_tsumo": "half"})
    assert caught.value.field == "ruleset.sanma_tsumo"
    assert TENHOU_SANMA.sanma_tsumo == MAHJONGSOUL_SANMA.sanma_tsumo == "loss"
