"""The Emperor card game (皇帝): win values, 縛り and dynasties (RULES.md `emperor`).

Draws and chombo are priced by hands.py like any other game; only wins differ.
"""

from __future__ import annotations

from scoring.errors import Seat
from scoring.hand_types import Chombo, Draw, EmperorWin, HandOutcome, Result, turn_order
from scoring.messages import fail
from scoring.parse import Doc
from scoring.rules import Ruleset

SPECIALS = ("sansou", "tenhou", "chiihou")
SPECIAL_NAMES = {"sansou": "三双", "tenhou": "天和", "chiihou": "地和"}
MAX_YAKU = 10  # the best hand in the game is 十役
MAX_CALLS = 3
MAX_BONUS = 60  # dora 2 each, plus 海底/河底 and 天和/地和: far above any real hand
DYNASTY_CARDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")  # K is never one


def parse_emperor_result(doc: Doc, rules: Ruleset, players: int) -> Result:
    kind = doc.text("type", ("tsumo", "ron", "draw", "chombo"))
    if kind == "draw":
        doc.only("type", "tenpai")
        return Draw(doc.seats("tenpai", players))
    if kind == "chombo":
        doc.only("type", "offender")
        return Chombo(doc.seat("offender", players))
    keys = ["type", "winner", "yaku", "bonus", "virtue", "calls", "special"]
    if kind == "ron":
        keys.append("discarder")
    doc.only(*keys)
    winner = doc.seat("winner", players)
    discarder = None
    if kind == "ron":
        discarder = doc.seat("discarder", players)
        if discarder == winner:
            raise fail("emperor.own_discard", doc.field("discarder"))
    special = doc.text("special", SPECIALS, default=None)
    yaku = doc.int("yaku", default=0, low=0, high=MAX_YAKU)
    calls = doc.int("calls", default=0, low=0, high=MAX_CALLS)
    win = EmperorWin(
        kind=kind,
        winner=winner,
        discarder=discarder,
        yaku=yaku,
        bonus=doc.int("bonus", default=0, low=0, high=MAX_BONUS),
        virtue=doc.int("virtue", default=0, low=0, high=20),
        calls=calls,
        special=special,
    )
    if special == "sansou" and yaku:
        raise fail("emperor.sansou", doc.field("yaku"))
    if special in ("tenhou", "chiihou"):
        if kind != "tsumo":
            raise fail(
                "emperor.special_tsumo", doc.field("special"), special=SPECIAL_NAMES[special]
            )
        if calls:
            raise fail("emperor.special_calls", doc.field("calls"), special=SPECIAL_NAMES[special])
    if special is None:
        needed = rules.emperor_min_yaku[players] + calls
        if yaku < needed:
            code = "emperor.min_yaku_calls" if calls else "emperor.min_yaku"
            raise fail(
                code, doc.field("yaku"), yaku=yaku, needed=needed, players=players, calls=calls
            )
    return win


def is_virtuous(rules: Ruleset, players: int, virtue: int) -> bool:
    return virtue >= rules.emperor_virtuous[players]


def win_value(rules: Ruleset, players: int, win: EmperorWin, *, is_emperor: bool) -> dict[str, int]:
    """`base` = yaku points + bonus yaku × 500 + virtue × 100 (when virtuous)."""
    n = win.yaku
    factor = n * (n + 1) if is_emperor else n * (n - 1)
    virtuous = is_virtuous(rules, players, win.virtue)
    parts = {
        "yaku_points": factor * rules.emperor_yaku_points,
        "bonus_points": win.bonus * rules.emperor_bonus_points,
        "virtue_points": win.virtue * rules.emperor_virtue_points if virtuous else 0,
    }
    return {**parts, "base": sum(parts.values()), "virtuous": int(virtuous)}


def emperor_win(
    rules: Ruleset, out: HandOutcome, win: EmperorWin, n: int, *, emperor: int | None, dealer: int
) -> None:
    if win.special == "tenhou" and win.winner != dealer:
        raise fail("emperor.tenhou", "result.special", dealer=Seat(dealer))
    if win.special == "chiihou" and win.winner == dealer:
        raise fail("emperor.chiihou", "result.special")
    value = win_value(rules, n, win, is_emperor=win.winner == emperor)
    base = value["base"]
    if win.kind == "tsumo":
        for payer in turn_order(win.winner, n):
            out.pay(payer, win.winner, base)
        total = base * (n - 1)
    else:
        assert win.discarder is not None
        total = base * (n - 1)
        out.pay(win.discarder, win.winner, total)
    out.winners = (win.winner,)
    out.details.append({"seat": win.winner, "value": total, **value})


def dynasty_card(dynasty: int) -> str:
    """The dynasty card: A for the first dynasty … Q for the twelfth, then A again."""
    return DYNASTY_CARDS[(dynasty - 1) % len(DYNASTY_CARDS)]


def label(number: int, dynasty: int, generation: int) -> str:
    """`3局目・戦国時代` before any emperor, `7局目・第2王朝 3代` after."""
    if dynasty == 0:
        return f"{number}局目・戦国時代"
    return f"{number}局目・第{dynasty}王朝 {generation}代"
