"""The JSON of tenhou.net/6's viewer: `name`, `rule.disp`, `log` (one list per hand), `sc`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from scoring.errors import ScoringError
from scoring.knobs import SCORE_STEP
from scoring.messages import fail
from scoring.parse import load_json
from scoring.tenhou.records import DOUBLE_KIND_NAMES, HandRead, NamedYakuman, TenhouLog

_FU_HAN = re.compile(r"(\d+)符(\d+)飜")
_YAKU_HAN = re.compile(r"\((\d+)飜\)")
_POINTS = re.compile(r"(\d+)(?:-(\d+))?点")  # "64000点", "8000-16000点", "16000点∀"
# One yakuman (8000 basic points) as a label prints it: a ron, a dealer's ron, and on a tsumo
# what the dealer pays a non-dealer winner or each player pays a dealer — 16000, or 24000 in a
# 3-player room where the North's share is split (北家折半: tensoul adds half a share).
_RON_YAKUMAN, _DEALER_RON_YAKUMAN = 32000, 48000
_TSUMO_YAKUMAN = (16000, 24000)
_NAGASHI = "流し満貫"
_MANGAN_FU = {4: 40, 3: 70}
_JSON_ABORTS = {
    "九種九牌": "kyuushu",
    "四風連打": "suufon",
    "四槓散了": "suukaikan",
    "四家立直": "suucha",
    "三家和了": "sanchahou",
}


def read_json(text: str) -> TenhouLog:
    """tenhou.net/6's JSON: `name`, `rule.disp`, `log` (one list per hand) and `sc`."""
    try:
        # The bounded reader: no nesting deeper than Python reads, no NaN, Infinity, 1e400 or
        # thousands of digits (each left as a value no field takes: garbled, below).
        data = load_json(text)
    except ScoringError as exc:
        if exc.code != "json.invalid":
            raise fail("log.garbled", "log", where="JSON") from None
        where = {"line": exc.params["line"], "column": exc.params["column"]}
        raise fail("log.json", "log", **where) from None
    try:
        return _json_log(data)
    except ScoringError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError):
        # Any shape but the log's (a list where a table is, a number where a name list is).
        raise fail("log.garbled", "log", where="JSON") from None


def _json_log(data: dict[str, Any]) -> TenhouLog:
    names = [str(n).strip() for n in data["name"]]
    rounds = data["log"]
    n = 3 if len(names) == 3 or (len(names) == 4 and not names[3]) else 4
    disp = str(data.get("rule", {}).get("disp", ""))
    log = TenhouLog(names[:n], east_south="東" not in disp)
    if not rounds:
        raise fail("log.no_hands", "log")
    for i, r in enumerate(rounds):
        round_, honba, sticks = (int(v) for v in r[0])
        before = [int(v) for v in r[1]][:n]
        hand = HandRead(round_, honba, sticks * 1000, round_ % 4 % n, before)
        # Riichi: a discard written "r" + tile; its stick counts unless that tile was ronned,
        # which the next hand's starting scores (or the final scores) settle below.
        for s in range(n):
            discards = r[6 + 3 * s]
            if any(isinstance(d, str) and d.startswith("r") for d in discards):
                hand.riichi.append(s)
        end = r[16]
        kind = end[0]
        deltas = [int(v) for v in end[1]][:n] if len(end) > 1 else [0] * n
        if kind == "和了":
            for k in range(1, len(end), 2):
                info = end[k + 1]
                who, source, pao = int(info[0]), int(info[1]), int(info[2])
                win = _json_value(info[3:], hand.label, who == hand.dealer, who == source)
                if "yakuman" in win:
                    kinds, others = _named(info[4:])
                    hand.yakuman.append(NamedYakuman(who, win["yakuman"], kinds, others))
                if pao != who:
                    win["pao"] = pao
                if who == source:
                    hand.result = {"type": "tsumo", "winner": who, **win}
                else:
                    hand.wins.append({"seat": who, **win})
                    hand.result = {"type": "ron", "discarder": source, "wins": hand.wins}
            deltas = [sum(int(end[k][s]) for k in range(1, len(end), 2)) for s in range(n)]
        elif kind == _NAGASHI:
            winners = [s for s, d in enumerate(deltas) if d > 0]
            hand.result = {"type": "nagashi", "winners": winners, "tenpai": []}
        elif kind in _JSON_ABORTS:
            hand.result = {"type": "abort", "reason": _JSON_ABORTS[kind]}
        else:  # 流局 / 全員聴牌 / 全員不聴: tenpai seats are those the draw paid or all
            tenpai = [s for s, d in enumerate(deltas) if d > 0]
            if kind == "全員聴牌":
                tenpai = list(range(n))
            hand.result = {"type": "draw", "tenpai": tenpai}
        # A ronned riichi tile puts out no stick: keep only the sticks the scores show.
        hand.after = [
            b + d - (1000 if s in hand.riichi else 0)
            for s, (b, d) in enumerate(zip(before, deltas, strict=True))
        ]
        if i + 1 < len(rounds):
            following = [int(v) for v in rounds[i + 1][1]][:n]
            for s in list(hand.riichi):
                if hand.after[s] != following[s] and hand.after[s] + 1000 == following[s]:
                    hand.riichi.remove(s)
                    hand.after[s] += 1000
        log.hands.append(hand.done())
    sc = data.get("sc")
    if not sc:  # the viewer's hand excerpts carry no end: the engine alone says if it is over
        return log
    if len(sc) < 2 * n:
        raise fail("log.garbled", "log", where="sc")
    scores = [int(v) for v in sc[0 : 2 * n : 2]]
    # tenhou.net/6 writes final scores in hundreds in some versions and whole in others.
    if sum(scores) * SCORE_STEP == sum(log.hands[0].before):
        scores = [v * SCORE_STEP for v in scores]
    log.final_scores = scores
    log.final_points = [float(v) for v in sc[1 : 2 * n : 2]]
    return log


def _json_value(parts: Sequence[Any], label: str, dealer: bool, tsumo: bool) -> dict[str, Any]:
    text = str(parts[0]) if parts else ""
    yaku = [str(p) for p in parts[1:]]
    yakuman = sum(1 for y in yaku if "役満" in y)
    if yakuman:
        return {"yakuman": _yakuman_count(text, yakuman, dealer, tsumo, label)}
    han = sum(int(m.group(1)) for y in yaku for m in _YAKU_HAN.finditer(y))
    found = _FU_HAN.search(text)
    if found:
        return {"han": int(found.group(2)), "fu": int(found.group(1))}
    if not han:
        raise fail("log.garbled", "log", where=label)
    # A limit hand's text names the limit, not its fu ("満貫4000点∀"). From 5 han fu no longer
    # counts; a mangan below 5 han got there by its fu (4 han from 40, 3 han from 70 — the
    # least fu that reaches 2000 basic points), which 30 would price below mangan.
    return {"han": han, "fu": _MANGAN_FU.get(han, 30) if text.startswith("満貫") else 30}


def _yakuman_count(text: str, named: int, dealer: bool, tsumo: bool, label: str) -> int:
    """How many yakuman a win was paid: the label's points against one yakuman's for this
    winner. The yaku strings cannot say: tensoul writes one `(役満)` per yaku whatever it is
    worth, so Mahjong Soul's 13-sided kokushi is one string and 役満64000点 (issue 64)."""
    found = _POINTS.search(text)
    if found is None:
        return named  # a label without its points: the yaku strings are all there is
    if found.group(2):  # a non-dealer's tsumo: the dealer's share
        points, ones = int(found.group(2)), _TSUMO_YAKUMAN[:1]
    elif tsumo:
        points, ones = int(found.group(1)), _TSUMO_YAKUMAN
    else:
        points, ones = int(found.group(1)), (_DEALER_RON_YAKUMAN if dealer else _RON_YAKUMAN,)
    for one in ones:
        if points and points % one == 0:
            return points // one
    raise fail("log.garbled", "log", where=label)


def _named(yaku: Sequence[Any]) -> tuple[tuple[str, ...], int]:
    """A yakuman win's yaku strings ("国士無双十三面待ち(役満)"): the yakuman among them that some
    rulesets count double, by the knob's names, and how many others."""
    names = [str(y).rsplit("(", 1)[0].strip() for y in yaku if "役満" in str(y)]
    kinds = tuple(DOUBLE_KIND_NAMES[n] for n in names if n in DOUBLE_KIND_NAMES)
    return kinds, len(names) - len(kinds)
