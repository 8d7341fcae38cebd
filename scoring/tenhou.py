"""Tenhou game logs read into the engine's own terms, and checked against it.

A log comes as mjlog XML (what tenhou.net saves and `?log=` downloads serve) or as the JSON of
tenhou.net/6's viewer. `read_log` turns either into a `TenhouLog`: the players in seat order
(seat 0 the starting dealer), each hand as CONTRACT §1 `hand` JSON (riichi and result), and what
the log itself recorded — each hand's label, dealer, honba, deposits and score changes, the final
scores and points. `check_log` plays the hands through a ruleset and names the first hand where
the engine and the log part ways, so a log imported into an event is one the engine agrees with.

The reader takes only what the engine needs (who won from whom with how many han and fu, who was
tenpai, who declared riichi); the tiles themselves are not read.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from scoring.errors import ScoringError
from scoring.flow import GameFlow
from scoring.hand_parse import parse_hand
from scoring.messages import fail
from scoring.parse import load_json
from scoring.rules import SCORE_STEP, WINDS, Ruleset

MAX_LOG_BYTES = 2_000_000  # a long real log is ~60 kB; this keeps a bad upload cheap
# mjlog GO type flags (tenhou.net/mjlog's viewer): bit 3 East-South, bit 4 three players.
GO_HANCHAN = 0x08
GO_SANMA = 0x10
ABORTS = {  # RYUUKYOKU type → the engine's abort reason
    "yao9": "kyuushu",
    "kaze4": "suufon",
    "kan4": "suukaikan",
    "reach4": "suucha",
    "ron3": "sanchahou",
}
# Yaku numbers (mjlog) of the yakuman a pao seat answers for: 大三元, 大四喜.
PAO_YAKUMAN = {39, 49}


@dataclass
class LogHand:
    """One hand as the engine reads it (`hand`) and as the log recorded it."""

    label: str  # E1-0: wind, hand number, honba
    dealer: int
    honba: int
    deposits: int  # on the table before the hand
    before: list[int]  # scores before the hand
    after: list[int]  # scores after it (riichi sticks paid, wins and deposits taken)
    hand: dict[str, Any]

    @property
    def deltas(self) -> list[int]:
        return [a - b for a, b in zip(self.after, self.before, strict=True)]


@dataclass
class TenhouLog:
    players: list[str]
    east_south: bool  # False: an East-only game (東風戦)
    hands: list[LogHand] = field(default_factory=list)
    final_scores: list[int] = field(default_factory=list)  # after leftover deposits
    final_points: list[float] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.players)

    def game_data(self) -> dict[str, Any]:
        """The game as CONTRACT §1 `game` hands."""
        return {"hands": [h.hand for h in self.hands]}


# --- reading ------------------------------------------------------------------------------------


def read_log(raw: bytes | str) -> TenhouLog:
    """A Tenhou log from its bytes: mjlog XML or tenhou.net/6 JSON. Raises ScoringError
    (field `log`) for anything that is not a whole, well-formed game."""
    if len(raw) > MAX_LOG_BYTES:
        raise fail("log.large", "log", limit=MAX_LOG_BYTES // 1000)
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    text = text.lstrip("\ufeff \t\r\n")
    if text.startswith("{"):
        return _read_json(text)
    if text.startswith("<"):
        return _read_mjlog(text)
    raise fail("log.format", "log")


def _read_mjlog(text: str) -> TenhouLog:
    if "<!DOCTYPE" in text or "<!ENTITY" in text:  # no real log has one; refuse entity tricks
        raise fail("log.format", "log")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line, column = exc.position
        raise fail("log.xml", "log", line=line, column=column) from None
    if root.tag != "mjloggm":
        raise fail("log.format", "log")
    players = 4
    east_south = True
    names: list[str] | None = None
    log: TenhouLog | None = None
    current: _Hand | None = None
    for el in root:
        a = el.attrib
        if el.tag == "GO":
            flags = _int(a.get("type", "0"), "GO.type")
            players = 3 if flags & GO_SANMA else 4
            east_south = bool(flags & GO_HANCHAN)
        elif el.tag == "UN" and names is None and "n0" in a:
            names = [unquote(a.get(f"n{i}", "")).strip() for i in range(players)]
            log = TenhouLog(names, east_south)
        elif el.tag == "INIT":
            if log is None:
                raise fail("log.no_players", "log")
            if current is not None:  # a ron's hand closes when the next one starts
                if current.result is None:
                    raise fail("log.truncated", "log", hand=current.label)
                log.hands.append(current.done())
            seed = _ints(a.get("seed", ""), "INIT.seed")
            before = [v * SCORE_STEP for v in _ints(a.get("ten", ""), "INIT.ten")][:players]
            if len(seed) < 3 or len(before) != players:
                raise fail("log.garbled", "log", where="INIT")
            current = _Hand(seed[0], seed[1], seed[2] * 1000, _int(a.get("oya", ""), "oya"), before)
        elif el.tag == "REACH" and a.get("step") == "2":
            _in_hand(current).riichi.append(_seat(a.get("who"), players))
        elif el.tag == "AGARI":
            hand = _in_hand(current)
            hand.win(a, players)
            hand.final(a, players, log)  # a double ron's second win may still follow
        elif el.tag == "RYUUKYOKU":
            hand = _in_hand(current)
            hand.draw(a, players)
            hand.final(a, players, log)
            assert log is not None
            log.hands.append(hand.done())
            current = None
    if log is None:
        raise fail("log.no_players", "log")
    if current is not None:
        if current.result is None:
            raise fail("log.truncated", "log", hand=current.label)
        log.hands.append(current.done())
    if not log.hands:
        raise fail("log.no_hands", "log")
    if not log.final_scores:
        raise fail("log.truncated", "log", hand=log.hands[-1].label)
    return log


class _Hand:
    """A hand being read: its INIT, then riichi sticks, then how it ended."""

    def __init__(self, round_: int, honba: int, deposits: int, dealer: int, before: list[int]):
        self.label = f"{WINDS[min(round_ // 4, 3)]}{round_ % 4 + 1}-{honba}"
        self.honba = honba
        self.deposits = deposits
        self.dealer = dealer
        self.before = before
        self.after = list(before)
        self.riichi: list[int] = []
        self.wins: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.discarder: int | None = None

    def win(self, a: dict[str, str], n: int) -> None:
        who = _seat(a.get("who"), n)
        source = _seat(a.get("fromWho"), n)
        win = _value(a, self.label)
        if "paoWho" in a:
            pao = _seat(a.get("paoWho"), n)
            win["pao"] = pao
            yakuman = _ints(a.get("yakuman", ""), "yakuman")
            covered = sum(1 for y in yakuman if y in PAO_YAKUMAN)
            if "yakuman" in win and covered and covered < win["yakuman"]:
                win["pao_yakuman"] = covered
        if who == source:
            self.result = {"type": "tsumo", "winner": who, **win}
        else:
            self.discarder = source
            self.wins.append({"seat": who, **win})
            self.result = {"type": "ron", "discarder": source, "wins": self.wins}
        self._scores(a, n)

    def draw(self, a: dict[str, str], n: int) -> None:
        kind = a.get("type")
        tenpai = [s for s in range(n) if f"hai{s}" in a]
        self._scores(a, n)
        if kind is None:
            self.result = {"type": "draw", "tenpai": tenpai}
        elif kind == "nm":
            # The nagashi winners are the seats the draw paid (a mangan each).
            winners = [s for s, d in enumerate(self._paid()) if d > 0]
            self.result = {"type": "nagashi", "winners": winners, "tenpai": tenpai}
        elif kind in ABORTS:
            self.result = {"type": "abort", "reason": ABORTS[kind]}
        else:
            raise fail("log.draw_kind", "log", hand=self.label, kind=kind)

    def _paid(self) -> list[int]:
        # What the draw itself moved: the change minus the riichi sticks put out.
        return [
            after - before + (1000 if s in self.riichi else 0)
            for s, (before, after) in enumerate(zip(self.before, self.after, strict=True))
        ]

    def _scores(self, a: dict[str, str], n: int) -> None:
        sc = [v * SCORE_STEP for v in _ints(a.get("sc", ""), "sc")]
        if len(sc) < 2 * n:
            raise fail("log.garbled", "log", where=self.label)
        self.after = [sc[2 * s] + sc[2 * s + 1] for s in range(n)]

    def final(self, a: dict[str, str], n: int, log: TenhouLog | None) -> None:
        """The game's end, where this element carries it (`owari`: final scores, points)."""
        if "owari" not in a or log is None:
            return
        raw = a["owari"].split(",")
        try:
            scores = [int(v) * SCORE_STEP for v in raw[0 : 2 * n : 2]]
            points = [float(v) for v in raw[1 : 2 * n : 2]]
        except ValueError:
            raise fail("log.garbled", "log", where="owari") from None
        if len(scores) != n or len(points) != n:
            raise fail("log.garbled", "log", where="owari")
        log.final_scores, log.final_points = scores, points

    def done(self) -> LogHand:
        assert self.result is not None
        hand: dict[str, Any] = {"result": self.result}
        if self.riichi:
            hand = {"riichi": sorted(self.riichi), "result": self.result}
        return LogHand(
            self.label,
            self.dealer,
            self.honba,
            self.deposits,
            self.before,
            self.after,
            hand,
        )


def _value(a: dict[str, str], label: str) -> dict[str, Any]:
    """A win's value: `yakuman: k`, or han (every yaku's han, dora included) and fu."""
    yakuman = _ints(a.get("yakuman", ""), "yakuman")
    if yakuman:
        return {"yakuman": len(yakuman)}
    ten = _ints(a.get("ten", ""), "ten")
    yaku = _ints(a.get("yaku", ""), "yaku")
    if len(ten) < 2 or not yaku or len(yaku) % 2:
        raise fail("log.garbled", "log", where=label)
    return {"han": sum(yaku[1::2]), "fu": ten[0]}


def _in_hand(current: _Hand | None) -> _Hand:
    if current is None:
        raise fail("log.garbled", "log", where="a hand without its INIT")
    return current


def _int(value: str | None, where: str) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise fail("log.garbled", "log", where=where) from None


def _ints(value: str, where: str) -> list[int]:
    if not value.strip():
        return []
    return [_int(v, where) for v in value.split(",")]


def _seat(value: str | None, n: int) -> int:
    seat = _int(value, "who")
    if not 0 <= seat < n:
        raise fail("log.garbled", "log", where=f"seat {seat}")
    return seat


# --- tenhou.net/6 JSON --------------------------------------------------------------------------

_FU_HAN = re.compile(r"(\d+)符(\d+)飜")
_YAKU_HAN = re.compile(r"\((\d+)飜\)")
_NAGASHI = "流し満貫"
_JSON_ABORTS = {
    "九種九牌": "kyuushu",
    "四風連打": "suufon",
    "四槓散了": "suukaikan",
    "四家立直": "suucha",
    "三家和了": "sanchahou",
}


def _read_json(text: str) -> TenhouLog:
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
        hand = _Hand(round_, honba, sticks * 1000, round_ % 4 % n, before)
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
                win = _json_value(info[3:], hand.label)
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


def _json_value(parts: Sequence[Any], label: str) -> dict[str, Any]:
    text = str(parts[0]) if parts else ""
    yaku = [str(p) for p in parts[1:]]
    yakuman = sum(1 for y in yaku if "役満" in y)
    if yakuman:
        return {"yakuman": yakuman}
    han = sum(int(m.group(1)) for y in yaku for m in _YAKU_HAN.finditer(y))
    found = _FU_HAN.search(text)
    if found:
        return {"han": int(found.group(2)), "fu": int(found.group(1))}
    if not han:
        raise fail("log.garbled", "log", where=label)
    return {"han": han, "fu": 30}  # mangan and above: fu no longer counts


# --- checking ------------------------------------------------------------------------------------


def check_log(rules: Ruleset, log: TenhouLog) -> GameFlow:
    """Play the log's hands through `rules`, hand by hand, and compare everything the log
    recorded: labels, dealers, honba, deposits, score changes, the end, final scores and
    points. Raises ScoringError naming the first hand (`hands[7]`, with its label) that
    differs; returns the finished flow."""
    n = log.size
    flow = GameFlow(rules, n)
    for i, logged in enumerate(log.hands):
        where = f"hands[{i}]"
        if flow.over:
            raise fail("log.after_end", where, hand=logged.label)
        state = (flow.label, flow.dealer, flow.honba, flow.deposits, list(flow.scores))
        wanted = (logged.label, logged.dealer, logged.honba, logged.deposits, logged.before)
        for what, ours, theirs in zip(
            ("label", "dealer", "honba", "deposits", "scores"), state, wanted, strict=True
        ):
            if ours != theirs:
                raise fail(
                    "log.differs", where, hand=logged.label, what=what, log=theirs, ours=ours
                )
        try:
            record = flow.play(parse_hand(logged.hand, rules, n, where))
        except ScoringError as exc:
            raise fail(
                "log.refused", where, hand=logged.label, reason=f"{exc.field}: {exc.message}"
            ) from None
        if record.deltas != logged.deltas:
            raise fail(
                "log.differs",
                where,
                hand=logged.label,
                what="deltas",
                log=logged.deltas,
                ours=record.deltas,
            )
    if not flow.over:
        raise fail("log.not_over", "log", hand=log.hands[-1].label)
    if not log.final_scores:
        return flow  # a log without its end (a viewer's excerpt): nothing more to compare
    result = flow.settlement()
    scores = [p.score for p in result.players]
    points = [p.points for p in result.players]
    if scores != log.final_scores:
        raise fail("log.final", "log", what="scores", log=log.final_scores, ours=scores)
    if points != log.final_points:
        raise fail("log.final", "log", what="points", log=log.final_points, ours=points)
    return flow
