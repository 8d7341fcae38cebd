"""What a hand is and what it pays, as data: the results a table reports (ron, tsumo, draw,
nagashi, abortive draw, chombo, the emperor game's win), and the outcome — each payment in
order, the deposits, the yakuman and the busts (RULES.md §1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RESULT_TYPES = ("ron", "tsumo", "draw", "nagashi", "abort", "chombo")
MAX_HAN = 99
MAX_YAKUMAN = 10


# --- inputs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Win:
    seat: int
    han: int | None = None
    fu: int | None = None
    yakuman: float | None = None  # k, the yakuman multiple
    pao: int | None = None  # the seat responsible (包)
    pao_yakuman: float | None = None  # how many of the k the pao covers (default: all)

    @property
    def pao_covered(self) -> float:
        if self.yakuman is None:
            return 0
        return self.yakuman if self.pao_yakuman is None else self.pao_yakuman


@dataclass(frozen=True)
class Ron:
    discarder: int
    wins: tuple[Win, ...]


@dataclass(frozen=True)
class Tsumo:
    win: Win


@dataclass(frozen=True)
class Draw:
    tenpai: tuple[int, ...]


@dataclass(frozen=True)
class Nagashi:
    winners: tuple[int, ...]
    tenpai: tuple[int, ...] = ()  # read where nagashi is an exhaustive draw for the deal


@dataclass(frozen=True)
class Abort:
    reason: str


@dataclass(frozen=True)
class Chombo:
    offender: int


@dataclass(frozen=True)
class EmperorWin:
    """A win in the Emperor card game (皇帝). See emperor.py."""

    kind: str  # tsumo | ron
    winner: int
    discarder: int | None
    yaku: int
    bonus: int = 0
    virtue: int = 0
    calls: int = 0
    special: str | None = None  # sansou | tenhou | chiihou


Result = Ron | Tsumo | Draw | Nagashi | Abort | Chombo | EmperorWin


@dataclass(frozen=True)
class Hand:
    result: Result
    riichi: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()  # seats paying a 罰符 into deposits
    stop: bool = False  # the dealer stops here (アガリ止め)
    time_up: bool = False  # the round's time ran out during this hand: the game ends after it


# --- outputs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Payment:
    payer: int
    payee: int
    amount: int


@dataclass(frozen=True)
class YakumanWin:
    """A yakuman win, as settlement needs it for chips (祝儀)."""

    winner: int
    kind: str  # tsumo | ron
    count: float
    source: int | None = None  # the discarder, on a ron
    pao: int | None = None
    pao_count: float = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": self.winner, "kind": self.kind, "count": self.count}
        if self.kind == "ron":
            out["from"] = self.source
        out["pao"] = self.pao
        if self.pao is not None:
            out["pao_count"] = self.pao_count
        return out


@dataclass(frozen=True)
class Bust:
    seat: int
    by: tuple[int, ...]  # who busted them (they share the bust prize)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "by": list(self.by)}


@dataclass
class HandOutcome:
    deltas: list[int]
    deposits: int  # left on the table after the hand
    payments: list[Payment] = field(default_factory=list)
    sticks: list[int] = field(default_factory=list)  # what each seat put into deposits
    winners: tuple[int, ...] = ()
    yakuman: list[YakumanWin] = field(default_factory=list)
    details: list[dict[str, Any]] = field(default_factory=list)  # per win: value, honba, deposits

    def to_json(self) -> dict[str, Any]:
        return {
            "deltas": self.deltas,
            "deposits": self.deposits,
            "payments": [[p.payer, p.payee, p.amount] for p in self.payments],
            "wins": self.details,
            "yakuman": [y.to_json() for y in self.yakuman],
        }

    def pay(self, payer: int, payee: int, amount: int) -> None:
        if amount <= 0 or payer == payee:
            return
        self.deltas[payer] -= amount
        self.deltas[payee] += amount
        self.payments.append(Payment(payer, payee, amount))


def turn_order(seat: int, n: int) -> list[int]:
    """The other seats in turn order from `seat`'s 下家."""
    return [(seat + i) % n for i in range(1, n)]
