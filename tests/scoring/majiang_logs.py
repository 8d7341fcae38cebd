"""Real Tenhou games kept in 電脳麻将's paipu JSON (kobalab's format, as MahjongLM's fixtures
hold them: tests/scoring/tenhou_logs/SOURCES.md), read into the `TenhouLog` that the Tenhou
readers make, so `check_log` replays them hand by hand against what the file recorded.

The format numbers seats by wind (`l`: 0 the hand's dealer, then turn order), so each seat is
turned back into the table seat (starting dealer 0) here. What a hand recorded: its start
(`qipai`: round wind, hand number, honba, sticks, scores), riichi (a discard marked `*`), and
its end (`hule`: a win with han, fu or yakuman count, and the score changes `fenpei`; `pingju`:
a draw or an abortive draw, the tenpai hands shown). The file's end: `defen` (final scores,
leftover sticks to the top) and `point` (Tenhou's final points), by table seat."""

from __future__ import annotations

import json
from typing import Any

from scoring.knobs import WINDS
from scoring.tenhou.records import LogHand, TenhouLog

ABORTS = {
    "九種九牌": "kyuushu",
    "四風連打": "suufon",
    "四槓散了": "suukaikan",
    "四家立直": "suucha",
    "三家和了": "sanchahou",
}


def read_majiang(text: str | bytes) -> TenhouLog:
    data = json.loads(text)
    players = [p.split(" (")[0] for p in data["player"]]
    n = len(players)
    assert data.get("qijia", 0) == 0  # every file read here: seat 0 the starting dealer
    log = TenhouLog(players, east_south="東" not in data["title"])
    starts = [_start(r) for r in data["log"]]
    for i, rnd in enumerate(data["log"]):
        start = starts[i]
        dealer = start["jushu"]

        def seat(l: int, dealer: int = dealer) -> int:  # noqa: E741 - the format's name
            return (l + dealer) % n

        before = _by_seat(start["defen"], dealer)
        riichi = sorted(seat(e["dapai"]["l"]) for e in rnd if _riichi(e))
        wins = [e["hule"] for e in rnd if "hule" in e]
        draw = next((e["pingju"] for e in rnd if "pingju" in e), None)
        moved = [0] * n
        for part in [*wins, *([draw] if draw else [])]:
            for s, d in enumerate(_by_seat(part["fenpei"], dealer)):
                moved[s] += d
        result: dict[str, Any]
        if wins:
            if wins[0]["baojia"] is None:
                result = {"type": "tsumo", "winner": seat(wins[0]["l"]), **_value(wins[0])}
            else:
                result = {
                    "type": "ron",
                    "discarder": seat(wins[0]["baojia"]),
                    "wins": [{"seat": seat(w["l"]), **_value(w)} for w in wins],
                }
        else:
            assert draw is not None
            if draw["name"] in ABORTS:
                result = {"type": "abort", "reason": ABORTS[draw["name"]]}
            else:
                shown = [s for s, hand in enumerate(_by_seat(draw["shoupai"], dealer)) if hand]
                if draw["name"] == "流し満貫":
                    winners = [s for s, d in enumerate(moved) if d > 0]
                    result = {"type": "nagashi", "winners": winners, "tenpai": shown}
                else:
                    result = {"type": "draw", "tenpai": shown}
        # What the scores show: a riichi whose declaring tile was ronned put out no stick.
        after = [
            b + m - (1000 if s in riichi else 0)
            for s, (b, m) in enumerate(zip(before, moved, strict=True))
        ]
        if i + 1 < len(starts):
            following = _by_seat(starts[i + 1]["defen"], starts[i + 1]["jushu"])
            for s in list(riichi):
                if after[s] + 1000 == following[s] != after[s]:
                    riichi.remove(s)
                    after[s] += 1000
        hand: dict[str, Any] = {"result": result}
        if riichi:
            hand = {"riichi": riichi, "result": result}
        wind = WINDS[start["zhuangfeng"]]
        honba, deposits = start["changbang"], start["lizhibang"] * 1000
        label = f"{wind}{dealer + 1}-{honba}"
        log.hands.append(LogHand(label, dealer, honba, deposits, before, after, hand))
    log.final_scores = list(data["defen"])
    log.final_points = [float(p) for p in data["point"]]
    return log


def _start(rnd: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e["qipai"] for e in rnd if "qipai" in e)


def _by_seat(values: list[Any], dealer: int) -> list[Any]:
    """Values listed by wind (the dealer first) turned to table seats."""
    n = len(values)
    return [values[(s - dealer) % n] for s in range(n)]


def _riichi(event: dict[str, Any]) -> bool:
    return "dapai" in event and str(event["dapai"]["p"]).endswith("*")


def _value(win: dict[str, Any]) -> dict[str, Any]:
    if win.get("damanguan"):
        return {"yakuman": win["damanguan"]}
    return {"han": win["fanshu"], "fu": win["fu"]}
