"""Hand values: one hand's result in, each seat's point change and the deposits out.

RULES.md §1. Every payment between two seats is kept in order (`HandOutcome.payments`): the
game flow reads it to tell who busted whom, and a user can read it as the hand's breakdown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.errors import Seat
from scoring.messages import fail
from scoring.parse import Doc
from scoring.rules import ABORT_NAMES, ABORT_REASONS, Ruleset

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
    dealer_keeps: bool | None = None  # for draws and aborts: whether the deal stays
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


# --- parsing ----------------------------------------------------------------------------------


def parse_hand(
    data: Any, rules: Ruleset, players: int, path: str = "", extra: tuple[str, ...] = ()
) -> Hand:
    """One hand of a game: `{"riichi": [...], "result": {...}}`; `extra` keys are the caller's."""
    doc = Doc(data, path).only("riichi", "penalties", "result", "stop", "time_up", *extra)
    riichi = doc.seats("riichi", players)
    if riichi and rules.riichi_stick == 0:
        raise fail("riichi.none", doc.field("riichi"), venue=rules.slug)
    penalties = doc.seats("penalties", players)
    if penalties and rules.penalty == 0:
        raise fail("penalty.none", doc.field("penalties"), venue=rules.slug)
    result = parse_result(doc.doc("result"), rules, players)
    if isinstance(result, Draw):
        for seat in riichi:
            if seat not in result.tenpai:
                raise fail("riichi.noten", doc.field("result.tenpai"), seat=Seat(seat))
    return Hand(
        result=result,
        riichi=riichi,
        penalties=penalties,
        stop=doc.bool("stop"),
        time_up=doc.bool("time_up"),
    )


def parse_result(doc: Doc, rules: Ruleset, players: int) -> Result:
    if rules.game == "emperor":
        from scoring.emperor import parse_emperor_result

        return parse_emperor_result(doc, rules, players)
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
        doc.only("type", "winners")
        if rules.nagashi is None:
            raise fail("nagashi.none", doc.field("type"), venue=rules.slug)
        winners = doc.seats("winners", players)
        if not winners:
            raise fail("nagashi.no_winner", doc.field("winners"))
        return Nagashi(winners)
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


# --- prices -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Price:
    """What a win is worth, payer by payer, before honba."""

    ron: int
    tsumo_child: int  # each non-dealer payer of a tsumo
    tsumo_dealer: int  # the dealer, paying a non-dealer's tsumo


def round_up(value: float, unit: int) -> int:
    return int(-(-value // unit) * unit)


def basic_points(rules: Ruleset, han: int | None, fu: int | None, yakuman: float | None) -> float:
    """b in RULES.md §1 (formula rulesets)."""
    if yakuman is not None:
        return 8000 * yakuman
    assert han is not None
    if rules.kazoe_han is not None and han >= rules.kazoe_han:
        return 8000
    for limit_han, value in reversed(rules.limits):
        if han >= limit_han:
            return value
    fu = 30 if fu is None else fu
    mangan = rules.mangan_value()
    if rules.kiriage and (fu, han) in ((30, 4), (60, 3)):
        return mangan
    return min(fu * 2 ** (han + 2), mangan)


def price(
    rules: Ruleset,
    *,
    dealer_wins: bool,
    han: int | None = None,
    fu: int | None = None,
    yakuman: float | None = None,
) -> Price:
    unit = rules.unit
    if rules.payment_table is not None:
        row, k = _table_row(rules, han, yakuman)
        if dealer_wins:
            each = round_up(row.dealer_tsumo * k, unit)
            return Price(round_up(row.dealer_ron * k, unit), each, each)
        return Price(
            round_up(row.ron * k, unit),
            round_up(row.tsumo_child * k, unit),
            round_up(row.tsumo_dealer * k, unit),
        )
    b = basic_points(rules, han, fu, yakuman)
    if dealer_wins:
        each = round_up(2 * b, unit)
        return Price(round_up(6 * b, unit), each, each)
    return Price(round_up(4 * b, unit), round_up(b, unit), round_up(2 * b, unit))


def _table_row(rules: Ruleset, han: int | None, yakuman: float | None) -> tuple[Any, float]:
    assert rules.payment_table is not None and rules.payment_table_yakuman is not None
    if yakuman is not None:
        return rules.payment_table_yakuman, yakuman
    assert han is not None
    if rules.kazoe_han is not None and han >= rules.kazoe_han:
        return rules.payment_table_yakuman, 1
    row = rules.payment_table[0]
    for candidate in rules.payment_table:
        if han >= candidate.han:
            row = candidate
    return row, 1


def mangan_price(rules: Ruleset, *, dealer_wins: bool) -> Price:
    return price(rules, dealer_wins=dealer_wins, han=rules.mangan_han, fu=30)


# --- one hand ---------------------------------------------------------------------------------


def price_hand(
    rules: Ruleset,
    hand: Hand,
    *,
    players: int,
    dealer: int,
    honba: int = 0,
    deposits: int = 0,
    scores: list[int] | None = None,
    emperor: int | None = None,
) -> HandOutcome:
    """Deltas and deposits for one hand. `scores` (before the hand) enables the riichi check."""
    n = players
    if rules.game == "emperor" and emperor is not None:
        dealer = emperor  # the emperor deals
    out = HandOutcome(deltas=[0] * n, deposits=deposits, sticks=[0] * n)
    result = hand.result
    if scores is not None and rules.riichi_min_score is not None:
        for seat in hand.riichi:
            if scores[seat] < rules.riichi_min_score:
                raise fail(
                    "riichi.min_score",
                    "riichi",
                    seat=Seat(seat),
                    score=scores[seat],
                    needed=rules.riichi_min_score,
                )
    if not isinstance(result, Chombo):  # a chombo hand returns its riichi sticks
        for seat in hand.riichi:
            _stick(out, seat, rules.riichi_stick)
    for seat in hand.penalties:
        _stick(out, seat, rules.penalty)

    if isinstance(result, Ron):
        _ron(rules, out, result, n, dealer, honba)
    elif isinstance(result, Tsumo):
        _tsumo(rules, out, result.win, n, dealer, honba)
    elif isinstance(result, Draw):
        _noten(rules, out, result.tenpai, n)
        out.dealer_keeps = dealer in result.tenpai
    elif isinstance(result, Nagashi):
        _nagashi(rules, out, result, n, dealer, honba)
    elif isinstance(result, Abort):
        pass  # sticks stay on the table; the flow decides the deal
    elif isinstance(result, Chombo):
        _chombo(rules, out, result.offender, n, dealer)
    else:
        from scoring.emperor import emperor_win

        emperor_win(rules, out, result, n, emperor=emperor, dealer=dealer)
    return out


def _stick(out: HandOutcome, seat: int, amount: int) -> None:
    out.deltas[seat] -= amount
    out.sticks[seat] += amount
    out.deposits += amount


def _take_deposits(out: HandOutcome, seat: int) -> int:
    taken = out.deposits
    out.deltas[seat] += taken
    out.deposits = 0
    return taken


def _ron(rules: Ruleset, out: HandOutcome, ron: Ron, n: int, dealer: int, honba: int) -> None:
    discarder = ron.discarder
    wins = sorted(ron.wins, key=lambda w: (w.seat - discarder) % n)  # nearest the discarder first
    for i, win in enumerate(wins):
        value = price(
            rules, dealer_wins=win.seat == dealer, han=win.han, fu=win.fu, yakuman=win.yakuman
        )
        gets_honba = i == 0 or rules.multiple_ron_honba == "each"
        honba_total = honba * rules.honba if gets_honba else 0
        if win.pao is not None and win.pao != discarder:
            covered = win.pao_covered
            covered_ron = price(rules, dealer_wins=win.seat == dealer, yakuman=covered).ron
            pao_half = round_up(covered_ron / 2, rules.unit)
            if rules.pao_ron_honba == "split":  # each of the two pays honba × H/(n−1)
                honba_each = honba * rules.honba // (n - 1) if gets_honba else 0
                pao_pays, discarder_honba = pao_half + honba_each, honba_each
            else:
                pao_pays, discarder_honba = pao_half, honba_total
            out.pay(discarder, win.seat, value.ron - pao_half + discarder_honba)
            out.pay(win.pao, win.seat, pao_pays)
        else:
            out.pay(discarder, win.seat, value.ron + honba_total)
        taken = _take_deposits(out, win.seat) if i == 0 else 0
        out.details.append(
            {"seat": win.seat, "value": value.ron, "honba": honba_total, "deposits": taken}
        )
        if win.yakuman is not None:
            out.yakuman.append(
                YakumanWin(
                    win.seat,
                    "ron",
                    win.yakuman,
                    discarder,
                    win.pao if win.pao != discarder else None,
                    win.pao_covered if win.pao not in (None, discarder) else 0,
                )
            )
    out.winners = tuple(w.seat for w in wins)


def _tsumo_payments(
    out: HandOutcome,
    winner: int,
    value: Price,
    n: int,
    dealer: int,
    honba_each: int,
) -> int:
    total = 0
    for payer in turn_order(winner, n):
        amount = value.tsumo_dealer if payer == dealer else value.tsumo_child
        out.pay(payer, winner, amount + honba_each)
        total += amount
    return total


def _tsumo(rules: Ruleset, out: HandOutcome, win: Win, n: int, dealer: int, honba: int) -> None:
    is_dealer = win.seat == dealer
    value = price(rules, dealer_wins=is_dealer, han=win.han, fu=win.fu, yakuman=win.yakuman)
    if win.pao is None:
        total = _tsumo_payments(out, win.seat, value, n, dealer, honba * rules.honba // (n - 1))
    elif win.yakuman is None:
        # Responsibility payment (嶺上開花 after 大明槓): the pao seat pays it as a ron.
        total = value.ron
        out.pay(win.pao, win.seat, value.ron + honba * rules.honba)
    else:
        covered = win.pao_covered
        covered_ron = price(rules, dealer_wins=is_dealer, yakuman=covered).ron
        out.pay(win.pao, win.seat, covered_ron + honba * rules.honba)
        total = covered_ron
        rest = win.yakuman - covered
        if rest > 0:
            rest_value = price(rules, dealer_wins=is_dealer, yakuman=rest)
            total += _tsumo_payments(out, win.seat, rest_value, n, dealer, 0)
    taken = _take_deposits(out, win.seat)
    out.details.append(
        {"seat": win.seat, "value": total, "honba": honba * rules.honba, "deposits": taken}
    )
    out.winners = (win.seat,)
    if win.yakuman is not None:
        out.yakuman.append(
            YakumanWin(
                win.seat,
                "tsumo",
                win.yakuman,
                None,
                win.pao,
                win.pao_covered if win.pao is not None else 0,
            )
        )


def _noten(rules: Ruleset, out: HandOutcome, tenpai: tuple[int, ...], n: int) -> None:
    noten = [s for s in range(n) if s not in tenpai]
    if not tenpai or not noten:
        return  # all tenpai or all noten: nothing moves
    share = rules.noten_total // (len(noten) * len(tenpai))
    for payer in noten:
        for payee in turn_order(payer, n):
            if payee in tenpai:
                out.pay(payer, payee, share)


def _nagashi(
    rules: Ruleset, out: HandOutcome, result: Nagashi, n: int, dealer: int, honba: int
) -> None:
    winners = sorted(result.winners, key=lambda s: (s - dealer) % n)  # dealer first
    if rules.nagashi_multiple == "first":
        winners = winners[:1]
    as_yakuman = rules.nagashi == "yakuman"
    for i, seat in enumerate(winners):
        if as_yakuman:
            value = price(rules, dealer_wins=seat == dealer, yakuman=1)
        else:
            value = mangan_price(rules, dealer_wins=seat == dealer)
        total = _tsumo_payments(out, seat, value, n, dealer, honba * rules.honba // (n - 1))
        taken = _take_deposits(out, seat) if i == 0 else 0
        out.details.append(
            {
                "seat": seat,
                "value": total,
                "honba": honba * rules.honba,
                "deposits": taken,
                "nagashi": True,
            }
        )
        if as_yakuman:
            out.yakuman.append(YakumanWin(seat, "tsumo", 1))
    out.winners = tuple(winners)


def _chombo(rules: Ruleset, out: HandOutcome, offender: int, n: int, dealer: int) -> None:
    if rules.chombo == "fixed":
        for other in turn_order(offender, n):
            out.pay(offender, other, rules.chombo_amount)
        return
    # Reverse mangan: the offender pays what each would have paid on a mangan tsumo.
    value = mangan_price(rules, dealer_wins=offender == dealer)
    for other in turn_order(offender, n):
        out.pay(offender, other, value.tsumo_dealer if other == dealer else value.tsumo_child)


def turn_order(seat: int, n: int) -> list[int]:
    """The other seats in turn order from `seat`'s 下家."""
    return [(seat + i) % n for i in range(1, n)]


# --- bust attribution -------------------------------------------------------------------------


def is_bust(rules: Ruleset, score: int) -> bool:
    if rules.bust == "below_zero":
        return score < 0
    if rules.bust == "zero_or_below":
        return score <= 0
    return False


def busted_by(rules: Ruleset, out: HandOutcome, seat: int, score_before: int, n: int) -> list[int]:
    """Who gets the bust prize for `seat` (RULES.md: baba 'receivers', jan-niki 'sequential')."""
    paid = [p for p in out.payments if p.payer == seat]
    paid.sort(key=lambda p: (p.payee - seat) % n)  # turn order from the payer's next seat
    if rules.bust_attribution == "receivers":
        return list(dict.fromkeys(p.payee for p in paid))
    score = score_before - out.sticks[seat]
    for payment in paid:
        if is_bust(rules, score):
            return [payment.payee]  # already empty from a riichi stick: the first payee
        score -= payment.amount
        if is_bust(rules, score):
            return [payment.payee]
    return []


def busts_after(rules: Ruleset, out: HandOutcome, before: list[int]) -> list[Bust]:
    """Every seat the hand left busted, with who busted them."""
    n = len(before)
    return [
        Bust(seat, tuple(busted_by(rules, out, seat, before[seat], n)))
        for seat in range(n)
        if is_bust(rules, before[seat] + out.deltas[seat])
    ]
