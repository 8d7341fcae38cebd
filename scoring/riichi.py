"""Riichi mahjong as a kind of game: reading a hand's result (ron, tsumo, draw, nagashi,
abortive draw, chombo) and checking each win's han, fu, yakuman and pao against the venue."""

from __future__ import annotations

from scoring.errors import Seat
from scoring.hand_types import (
    MAX_HAN,
    MAX_YAKUMAN,
    RESULT_TYPES,
    Abort,
    Chombo,
    Draw,
    Nagashi,
    Result,
    Ron,
    Tsumo,
    Win,
)
from scoring.knobs import ABORT_NAMES, ABORT_REASONS
from scoring.messages import fail
from scoring.parse import Doc
from scoring.rules import Ruleset


def parse_result(doc: Doc, rules: Ruleset, players: int) -> Result:
    """A riichi hand's result: ron (one winner or several), tsumo, draw, nagashi, abortive draw
    or chombo, each checked against the venue's rules."""
    kind = doc.text("type", RESULT_TYPES)
    if kind == "ron":
        doc.only("type", "discarder", "wins")
        discarder = doc.seat("discarder", players)
        raw_wins = doc.list("wins")
        if not raw_wins:
            raise fail("ron.no_winner", doc.field("wins"))
        wins = tuple(
            _parse_win(Doc(w, f"{doc.field('wins')}[{i}]"), rules, players, "seat", tsumo=False)
            for i, w in enumerate(raw_wins)
        )
        _check_ron_winners(doc, rules, players, discarder, wins)
        return Ron(discarder, wins)
    if kind == "tsumo":
        doc.only("type", "winner", "han", "fu", "yakuman", "pao", "pao_yakuman")
        return Tsumo(_parse_win(doc, rules, players, "winner", tsumo=True))
    if kind == "draw":
        doc.only("type", "tenpai")
        return Draw(doc.seats("tenpai", players))
    if kind == "nagashi":
        doc.only("type", "winners", "tenpai")
        if rules.nagashi is None:
            raise fail("nagashi.none", doc.field("type"), venue=rules.slug)
        winners = doc.seats("winners", players)
        if not winners:
            raise fail("nagashi.no_winner", doc.field("winners"))
        # Where nagashi is an exhaustive draw for the deal, the dealer keeps it by being tenpai.
        return Nagashi(winners, doc.seats("tenpai", players, default=()))
    if kind == "abort":
        doc.only("type", "reason")
        reason = doc.text("reason", ABORT_REASONS)
        if reason not in rules.aborts:
            allowed = ", ".join(rules.aborts) or "none"
            raise fail(
                "abort.not_allowed",
                doc.field("reason"),
                reason=ABORT_NAMES[reason],
                venue=rules.slug,
                allowed=allowed,
            )
        return Abort(reason)
    doc.only("type", "offender")
    return Chombo(doc.seat("offender", players))


def _parse_win(doc: Doc, rules: Ruleset, players: int, seat_key: str, *, tsumo: bool) -> Win:
    if not tsumo:
        doc.only("seat", "han", "fu", "yakuman", "pao", "pao_yakuman")
    seat = doc.seat(seat_key, players)
    yakuman = None
    han = fu = None
    if doc.has("yakuman"):
        if doc.has("han") or doc.has("fu"):
            raise fail("win.yakuman_and_han", doc.field("yakuman"))
        yakuman = _check_multiple(doc, "yakuman", rules, low=1)
    else:
        han = doc.int("han", low=1, high=MAX_HAN)
        fu = _check_fu(doc, rules, han, tsumo=tsumo)
    pao = doc.seat("pao", players, default=None)
    pao_yakuman = None
    if pao is not None and pao == seat:
        raise fail("pao.self", doc.field("pao"))
    if doc.has("pao_yakuman"):
        if pao is None or yakuman is None:
            raise fail("pao.needs_yakuman", doc.field("pao_yakuman"))
        pao_yakuman = _check_multiple(doc, "pao_yakuman", rules, low=0.5)
        if pao_yakuman > yakuman:
            raise fail("pao.too_many", doc.field("pao_yakuman"), count=f"{yakuman:g}")
    if pao is not None and yakuman is None and not tsumo:
        raise fail("pao.ron", doc.field("pao"))
    return Win(seat, han, fu, yakuman, pao, pao_yakuman)


def _check_multiple(doc: Doc, key: str, rules: Ruleset, low: float) -> float:
    value = doc.number(key, low=low)
    step = 0.5 if rules.yakuman_half_steps else 1
    if value > MAX_YAKUMAN or (value / step) != int(value / step):
        code = "yakuman.half" if rules.yakuman_half_steps else "yakuman.whole"
        raise fail(code, doc.field(key), low=f"{low:g}", high=MAX_YAKUMAN)
    if rules.yakuman_max is not None and value > rules.yakuman_max:
        raise fail("yakuman.most", doc.field(key), most=rules.yakuman_max)
    return int(value) if value == int(value) else value


def _check_fu(doc: Doc, rules: Ruleset, han: int, *, tsumo: bool) -> int | None:
    if not rules.fu:
        if doc.has("fu") and doc.raw("fu") != 30:
            raise fail("fu.none", doc.field("fu"), venue=rules.slug)
        return None
    mangan_from = rules.limits[0][0]
    if not doc.has("fu"):
        if han >= mangan_from:
            return None  # fu does not matter from mangan up
        raise fail("fu.required", doc.field("fu"), han=mangan_from)
    fu = doc.raw("fu")
    path = doc.field("fu")
    if (
        not isinstance(fu, int)
        or isinstance(fu, bool)
        or not (fu in (20, 25) or (fu % 10 == 0 and 30 <= fu <= 110))
    ):
        raise fail("fu.invalid", path, value=fu)
    if fu == 25 and han < 2:
        raise fail("fu.25_han", path)
    if fu == 20 and not tsumo:
        raise fail("fu.20_ron", path)
    if fu == 20 and han < 2:
        raise fail("fu.20_han", path)
    return fu


def _check_ron_winners(
    doc: Doc, rules: Ruleset, players: int, discarder: int, wins: tuple[Win, ...]
) -> None:
    seen: set[int] = set()
    for i, win in enumerate(wins):
        path = f"{doc.field('wins')}[{i}].seat"
        if win.seat == discarder:
            raise fail("ron.own_discard", path)
        if win.seat in seen:
            raise fail("seat.twice", path, seat=Seat(win.seat))
        seen.add(win.seat)
    if len(wins) > rules.max_ron_winners:
        nearest = min(wins, key=lambda w: (w.seat - discarder) % players).seat
        path = doc.field("wins")
        if rules.max_ron_winners == 1:
            raise fail("ron.atamahane", path, seat=Seat(nearest))
        if "sanchahou" in rules.aborts and len(wins) == 3:
            raise fail("ron.sanchahou", path, max=rules.max_ron_winners)
        raise fail("ron.too_many", path, max=rules.max_ron_winners, venue=rules.slug)
