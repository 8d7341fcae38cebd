"""One hand's payments: each seat's point change and the deposits after it (RULES.md §1).
Every payment between two seats is kept in order (`HandOutcome.payments`): the game flow reads
it to tell who busted whom, and a user can read it as the hand's breakdown."""

from __future__ import annotations

from scoring.emperor import emperor_win
from scoring.errors import Seat
from scoring.game_types import game_type
from scoring.hand_types import (
    Abort,
    Chombo,
    Draw,
    Hand,
    HandOutcome,
    Nagashi,
    Ron,
    Tsumo,
    Win,
    YakumanWin,
    turn_order,
)
from scoring.messages import fail
from scoring.prices import Price, mangan_price, price, round_up
from scoring.rules import Ruleset

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
    if not game_type(rules).rotating_deal and emperor is not None:
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
        _ron(rules, out, result, n, dealer, honba, riichi=hand.riichi)
    elif isinstance(result, Tsumo):
        _tsumo(rules, out, result.win, n, dealer, honba)
    elif isinstance(result, Draw):
        _noten(rules, out, result.tenpai, n)
    elif isinstance(result, Nagashi):
        _nagashi(rules, out, result, n, dealer, honba)
    elif isinstance(result, Abort):
        pass  # sticks stay on the table; the flow decides the deal
    elif isinstance(result, Chombo):
        _chombo(rules, out, result.offender, n, dealer)
    else:
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


def _ron(
    rules: Ruleset,
    out: HandOutcome,
    ron: Ron,
    n: int,
    dealer: int,
    honba: int,
    *,
    riichi: tuple[int, ...],
) -> None:
    discarder = ron.discarder
    wins = sorted(ron.wins, key=lambda w: (w.seat - discarder) % n)  # nearest the discarder first
    # A farther winner in riichi takes back their own stick first (`multiple_ron_sticks: own`);
    # whatever is left on the table goes to the nearest winner below.
    own_back: dict[int, int] = {}
    if rules.multiple_ron_sticks == "own":
        own_back = {w.seat: rules.riichi_stick for w in wins[1:] if w.seat in riichi}
    for seat, stick in own_back.items():
        out.deltas[seat] += stick
        out.deposits -= stick
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
            elif rules.pao_ron_honba == "pao":
                pao_pays, discarder_honba = pao_half + honba_total, 0
            else:
                pao_pays, discarder_honba = pao_half, honba_total
            out.pay(discarder, win.seat, value.ron - pao_half + discarder_honba)
            out.pay(win.pao, win.seat, pao_pays)
        else:
            out.pay(discarder, win.seat, value.ron + honba_total)
        taken = _take_deposits(out, win.seat) if i == 0 else own_back.get(win.seat, 0)
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
    north_half: int = 0,
) -> int:
    total = 0
    for payer in turn_order(winner, n):
        amount = (value.tsumo_dealer if payer == dealer else value.tsumo_child) + north_half
        out.pay(payer, winner, amount + honba_each)
        total += amount
    return total


def _north_half(rules: Ruleset, value: Price, n: int) -> int:
    """北家折半 (`sanma_tsumo: split`): what each of the three seats' payers adds for the
    missing North — half a non-dealer's share, rounded up to the unit."""
    if n != 3 or rules.sanma_tsumo != "split":
        return 0
    return round_up(value.tsumo_child / 2, rules.unit)


def _tsumo(rules: Ruleset, out: HandOutcome, win: Win, n: int, dealer: int, honba: int) -> None:
    is_dealer = win.seat == dealer
    value = price(rules, dealer_wins=is_dealer, han=win.han, fu=win.fu, yakuman=win.yakuman)
    if win.pao is None:
        honba_each = honba * rules.honba // (n - 1)
        north = _north_half(rules, value, n)
        total = _tsumo_payments(out, win.seat, value, n, dealer, honba_each, north)
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
            north = _north_half(rules, rest_value, n)
            total += _tsumo_payments(out, win.seat, rest_value, n, dealer, 0, north)
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
    honba_each = honba * rules.honba // (n - 1) if rules.nagashi_honba else 0
    for i, seat in enumerate(winners):
        if as_yakuman:
            value = price(rules, dealer_wins=seat == dealer, yakuman=1)
        else:
            value = mangan_price(rules, dealer_wins=seat == dealer)
        total = _tsumo_payments(out, seat, value, n, dealer, honba_each)
        # Tenhou and EMA leave the riichi sticks on the table for the next win.
        takes = i == 0 and rules.nagashi_deposits == "winner"
        taken = _take_deposits(out, seat) if takes else 0
        out.details.append(
            {
                "seat": seat,
                "value": total,
                "honba": honba_each * (n - 1),
                "deposits": taken,
                "nagashi": True,
            }
        )
        if as_yakuman:
            out.yakuman.append(YakumanWin(seat, "tsumo", 1))
    out.winners = tuple(winners)


def _chombo(rules: Ruleset, out: HandOutcome, offender: int, n: int, dealer: int) -> None:
    if rules.chombo == "result_penalty":
        return  # no score changes hands; the flow takes the points off the result (EMA)
    if rules.chombo == "fixed":
        for other in turn_order(offender, n):
            out.pay(offender, other, rules.chombo_amount)
        return
    # Reverse mangan: the offender pays what each would have paid on a mangan tsumo.
    value = mangan_price(rules, dealer_wins=offender == dealer)
    for other in turn_order(offender, n):
        out.pay(offender, other, value.tsumo_dealer if other == dealer else value.tsumo_child)
