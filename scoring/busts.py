"""Who went bust in a hand, and who busted them (飛び), by the venue's rule."""

from __future__ import annotations

from scoring.hand_types import Bust, HandOutcome
from scoring.rules import Ruleset

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
