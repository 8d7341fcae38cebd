"""What a Tenhou log holds once read (`TenhouLog`, `LogHand`), a hand being read
(`HandRead`, both formats fill one), and the small readers of the log's numbers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.knobs import SCORE_STEP, WINDS
from scoring.messages import fail

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
# The yakuman some rulesets count double (the knob `double_yakuman`), as each log names them:
# mjlog yaku numbers (41 四暗刻単騎, 46 純正九蓮宝燈, 48 国士無双１３面, 49 大四喜); Tenhou's own
# strings; Mahjong Soul's, as tensoul writes them from the game's yaku table (data.json, ids
# 47–50), in Japanese and in English.
DOUBLE_KIND_IDS = {41: "suuankou_tanki", 46: "junsei_chuuren", 48: "kokushi_13", 49: "daisuushii"}
DOUBLE_KIND_NAMES = {
    "国士無双１３面": "kokushi_13",
    "国士無双十三面待ち": "kokushi_13",
    "Thirteen-wait Thirteen Orphans": "kokushi_13",
    "四暗刻単騎": "suuankou_tanki",
    "Single-wait Four Concealed Triplets": "suuankou_tanki",
    "純正九蓮宝燈": "junsei_chuuren",
    "True Nine Gates": "junsei_chuuren",
    "大四喜": "daisuushii",
    "Four Big Winds": "daisuushii",
}


@dataclass(frozen=True)
class NamedYakuman:
    """A yakuman win as the log names it: its count as the log paid it, and which of its yakuman
    some rulesets count double (`kinds`, the knob's names) beside how many others it has."""

    seat: int
    count: int
    kinds: tuple[str, ...]
    others: int

    def count_under(self, double: tuple[str, ...]) -> int:
        """The count a ruleset whose `double_yakuman` is `double` gives these yakuman."""
        return self.others + sum(2 if kind in double else 1 for kind in self.kinds)


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
    # Its yakuman wins as the log names them (check_log holds them against double_yakuman).
    yakuman: list[NamedYakuman] = field(default_factory=list)

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


class HandRead:
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
        self.yakuman: list[NamedYakuman] = []

    def win(self, a: dict[str, str], n: int) -> None:
        who = log_seat(a.get("who"), n)
        source = log_seat(a.get("fromWho"), n)
        win = win_value(a, self.label)
        yakuman = log_ints(a.get("yakuman", ""), "yakuman")
        if yakuman:
            kinds = tuple(DOUBLE_KIND_IDS[y] for y in yakuman if y in DOUBLE_KIND_IDS)
            self.yakuman.append(NamedYakuman(who, win["yakuman"], kinds, len(yakuman) - len(kinds)))
        if "paoWho" in a:
            pao = log_seat(a.get("paoWho"), n)
            win["pao"] = pao
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
        sc = [v * SCORE_STEP for v in log_ints(a.get("sc", ""), "sc")]
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
            self.yakuman,
        )


def win_value(a: dict[str, str], label: str) -> dict[str, Any]:
    """A win's value: `yakuman: k`, or han (every yaku's han, dora included) and fu."""
    yakuman = log_ints(a.get("yakuman", ""), "yakuman")
    if yakuman:
        return {"yakuman": len(yakuman)}
    ten = log_ints(a.get("ten", ""), "ten")
    yaku = log_ints(a.get("yaku", ""), "yaku")
    if len(ten) < 2 or not yaku or len(yaku) % 2:
        raise fail("log.garbled", "log", where=label)
    return {"han": sum(yaku[1::2]), "fu": ten[0]}


def in_hand(current: HandRead | None) -> HandRead:
    if current is None:
        raise fail("log.garbled", "log", where="a hand without its INIT")
    return current


def log_int(value: str | None, where: str) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise fail("log.garbled", "log", where=where) from None


def log_ints(value: str, where: str) -> list[int]:
    if not value.strip():
        return []
    return [log_int(v, where) for v in value.split(",")]


def log_seat(value: str | None, n: int) -> int:
    seat = log_int(value, "who")
    if not 0 <= seat < n:
        raise fail("log.garbled", "log", where=f"seat {seat}")
    return seat
