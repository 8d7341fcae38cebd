"""Hanchan settlement: final scores → ranks and points (RULES.md §3).

All arithmetic is in whole score points; results are divided by `point_value` only at the end,
so a table's totals sum to exactly zero (unless deposits were lost).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.busts import is_bust
from scoring.errors import Seat
from scoring.hand_types import Bust, YakumanWin
from scoring.knobs import SCORE_STEP
from scoring.messages import fail
from scoring.parse import Doc, check_int
from scoring.prices import round_up
from scoring.rules import Ruleset

PENALTY_LIMIT = 10_000  # points: far beyond any real penalty, well inside the arithmetic
BREAKDOWN = ("base", "uma", "oka", "bust", "shugi", "penalty")
__all__ = ["Bust", "Penalty", "SeatResult", "Settlement", "settle"]


@dataclass(frozen=True)
class Penalty:
    """Points added to a seat's result after ranking (negative for a penalty): never changes
    ranks, uma or oka (CONTRACT §1 "Penalties"; an EMA chombo is −20)."""

    seat: int
    points: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "points": self.points}


@dataclass
class SeatResult:
    seat: int
    rank: int
    score: int  # final score, leftover deposits included
    points: float
    chips: int = 0
    breakdown: dict[str, float] = field(default_factory=dict)
    chips_breakdown: dict[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "rank": self.rank,
            "score": self.score,
            "points": self.points,
            "chips": self.chips,
            "breakdown": self.breakdown,
        }
        if self.chips_breakdown is not None:
            out["chips_breakdown"] = self.chips_breakdown
        return out


@dataclass
class Settlement:
    players: list[SeatResult]
    deposits_lost: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players], "deposits_lost": self.deposits_lost}


def rank_order(rules: Ruleset, scores: Sequence[int]) -> list[int]:
    """Seats from first to last; equal scores: the seat nearer the starting dealer first."""
    return sorted(range(len(scores)), key=lambda s: (-scores[s], s))


def settle(
    rules: Ruleset,
    scores: Sequence[int],
    deposits: int = 0,
    busts: Sequence[Bust] = (),
    yakuman: Sequence[YakumanWin] = (),
    penalties: Sequence[Penalty] = (),
) -> Settlement:
    n = len(scores)
    _check(rules, scores, deposits, busts, yakuman)
    for i, penalty in enumerate(penalties):
        if not 0 <= penalty.seat < n:
            raise fail("seat.unknown", f"penalties[{i}].seat", value=penalty.seat, last=n - 1)
    pv = rules.point_value
    order = rank_order(rules, scores)
    final = list(scores)
    lost = 0
    if rules.leftover_deposits == "top":
        lost = _to_the_top(rules, scores, order, final, deposits)
    else:
        lost = deposits

    parts = {name: [0] * n for name in BREAKDOWN}
    chips = {"bust": [0] * n, "shugi": [0] * n}

    # Base, and oka to the top (with rounding, the top takes minus the others' sum: oka and the
    # rounding are in it — jan-niki, Tenhou).
    if rules.rounding != "exact":
        for seat in order[1:]:
            parts["base"][seat] = rounded(rules, final[seat]) - rules.return_points
        top = order[0]
        parts["base"][top] = rounded(rules, final[top]) - rules.return_points
        parts["oka"][top] = -sum(parts["base"])
    else:
        for seat in range(n):
            parts["base"][seat] = final[seat] - rules.return_points
        parts["oka"][order[0]] = rules.oka_for(n)

    # Uma by rank (fixed, or by how many float at or above the return points).
    if rules.uma_floating is not None:
        floaters = sum(1 for s in final if s >= rules.return_points)
        table = rules.uma_floating.get(floaters, (0,) * n)
    else:
        table = rules.uma_for(n)
    for position, seat in enumerate(order):
        parts["uma"][seat] = round(table[position] * pv)

    ranks = [0] * n
    for position, seat in enumerate(order):
        ranks[seat] = position + 1
    if rules.tie == "split":
        _split_ties(rules, final, order, parts, ranks, pv)

    # Prizes never change ranks.
    prize_parts = chips if rules.prizes_in_chips else parts
    scale = 1 if rules.prizes_in_chips else pv
    _bust_prizes(rules, busts, prize_parts["bust"], scale)
    _yakuman_chips(rules, n, yakuman, prize_parts["shugi"], scale)
    for penalty in penalties:
        parts["penalty"][penalty.seat] += round(penalty.points * pv)

    results = []
    places = rules.points_places
    for seat in range(n):
        total = sum(parts[name][seat] for name in BREAKDOWN)
        results.append(
            SeatResult(
                seat=seat,
                rank=ranks[seat],
                score=final[seat],
                points=to_points(total, pv, places),
                chips=sum(chips[name][seat] for name in chips) if rules.prizes_in_chips else 0,
                breakdown={name: to_points(parts[name][seat], pv, places) for name in BREAKDOWN},
                chips_breakdown=(
                    {name: chips[name][seat] for name in chips} if rules.prizes_in_chips else None
                ),
            )
        )
    return Settlement(results, lost)


def _to_the_top(
    rules: Ruleset, scores: Sequence[int], order: list[int], final: list[int], deposits: int
) -> int:
    """Give the leftover deposits to first place (in `final`); return what nobody gets. Tied
    first places split them where the rules say so, each share rounded down to SCORE_STEP:
    results are kept to 0.1 point, so 1000 three ways (EMA 2025: 333, decimals down) is 300
    each here — the same 0.3 once cut to one decimal — and 100 goes to nobody."""
    tied = [seat for seat in order if scores[seat] == scores[order[0]]]
    if rules.leftover_deposits_tie == "split_down" and len(tied) > 1:
        share = deposits // len(tied) // SCORE_STEP * SCORE_STEP
        for seat in tied:
            final[seat] += share
        return deposits - share * len(tied)
    final[order[0]] += deposits
    return 0


def to_points(score_points: int, point_value: int, places: int = 1) -> float:
    """Score points as result points, to `places` decimals (Ruleset.points_places)."""
    return round(score_points / point_value, places) + 0.0  # + 0.0 turns -0.0 into 0.0


def rounded(rules: Ruleset, score: int) -> int:
    """A final score as the ruleset rounds it to whole points (in score points): every seat
    but the top, who takes the rest. Exact rounding leaves it as it is."""
    if rules.rounding == "exact":
        return score
    to_whole = _gosha_rokunyu if rules.rounding == "gosha_rokunyu" else _half_up
    return to_whole(score, rules.point_value)


def _gosha_rokunyu(score: int, pv: int) -> int:
    """五捨六入 to whole points: …500 rounds down, …600 up; the same formula below zero."""
    return math.floor((score + 0.4 * pv) / pv) * pv


def _half_up(score: int, pv: int) -> int:
    """To whole points, half up (Tenhou): 17500 → 18000 (−12.5 → −12), 31500 → 32000."""
    return math.floor(score / pv + 0.5) * pv


def _split_ties(
    rules: Ruleset,
    final: list[int],
    order: list[int],
    parts: dict[str, list[int]],
    ranks: list[int],
    pv: int,
) -> None:
    """Tied players share the rank and the summed uma and oka of the places they cover."""
    position = 0
    while position < len(order):
        end = position
        while end + 1 < len(order) and final[order[end + 1]] == final[order[position]]:
            end += 1
        group = order[position : end + 1]
        if len(group) > 1:
            pool = sum(parts["uma"][s] + parts["oka"][s] for s in group)
            step = min(100, pv)
            share = (pool // len(group)) // step * step
            for i, seat in enumerate(sorted(group)):
                parts["uma"][seat] = share + (pool - share * len(group) if i == 0 else 0)
                parts["oka"][seat] = 0
                ranks[seat] = position + 1
        position = end + 1


def _bust_prizes(rules: Ruleset, busts: Sequence[Bust], column: list[int], scale: int) -> None:
    prize = round(rules.bust_prize * scale)
    unit = max(1, round(rules.bust_prize_share_unit * scale))
    for bust in busts:
        if not bust.by or not prize:
            continue
        share = prize // len(bust.by) // unit * unit  # three busters of 10000: 3300 each
        for seat in bust.by:
            column[seat] += share
        column[bust.seat] -= share * len(bust.by)


def _yakuman_chips(
    rules: Ruleset, n: int, wins: Sequence[YakumanWin], column: list[int], scale: int
) -> None:
    step = 1 if rules.prizes_in_chips else min(100, scale)
    for win in wins:
        covered = win.pao_count if (rules.chips_follow_pao and win.pao is not None) else 0
        rest = win.count - covered
        if win.kind == "tsumo":
            each = rules.yakuman_chips_tsumo * scale
            for seat in range(n):
                if seat != win.winner:
                    _move(column, seat, win.winner, round(each * rest))
            if covered:
                assert win.pao is not None
                _move(column, win.pao, win.winner, round(each * covered) * (n - 1))
        else:
            assert win.source is not None
            amount = rules.yakuman_chips_ron * scale
            _move(column, win.source, win.winner, round(amount * rest))
            if covered:
                assert win.pao is not None
                covered_amount = round(amount * covered)
                pao_half = round_up(covered_amount / 2, step)
                _move(column, win.pao, win.winner, pao_half)
                _move(column, win.source, win.winner, covered_amount - pao_half)


def _move(column: list[int], payer: int, payee: int, amount: int) -> None:
    column[payer] -= amount
    column[payee] += amount


def _check(
    rules: Ruleset,
    scores: Sequence[int],
    deposits: int,
    busts: Sequence[Bust],
    yakuman: Sequence[YakumanWin],
) -> None:
    n = len(scores)
    if n not in rules.player_counts:
        counts = " or ".join(str(c) for c in rules.player_counts)
        raise fail("players.count", "scores", venue=rules.slug, counts=counts, players=n)
    for i, score in enumerate(scores):
        if score % rules.score_step:  # 50 where a tsumo's honba share is (Pantheon's sanma)
            raise fail("score.step", f"scores[{i}]", value=score, step=rules.score_step)
    if deposits % SCORE_STEP:
        raise fail("score.step", "deposits", value=deposits, step=SCORE_STEP)
    expected = n * rules.start
    if sum(scores) + deposits != expected:
        raise fail(
            "scores.sum",
            "scores",
            total=sum(scores),
            deposits=deposits,
            expected=expected,
            players=n,
            start=rules.start,
        )
    seen = set()
    for i, bust in enumerate(busts):
        if rules.bust == "never":
            raise fail("bust.none", f"busts[{i}]", venue=rules.slug)
        if bust.seat in seen:
            raise fail("seat.twice", f"busts[{i}].seat", seat=Seat(bust.seat))
        seen.add(bust.seat)
        if not is_bust(rules, scores[bust.seat]):
            code = "bust.not_below_zero" if rules.bust == "below_zero" else "bust.not_zero_or_below"
            raise fail(code, f"busts[{i}].seat", seat=Seat(bust.seat), score=scores[bust.seat])
        if bust.seat in bust.by:
            raise fail("bust.self", f"busts[{i}].by")


def parse_penalties(doc: Doc, n: int) -> list[Penalty]:
    """`penalties`: `[{"seat": 2, "points": -20}, …]` (CONTRACT §1 "Penalties")."""
    out = []
    for i, item in enumerate(doc.list("penalties", default=[])):
        p = Doc(item, f"penalties[{i}]").only("seat", "points")
        points = p.number("points", low=-PENALTY_LIMIT)
        if points > PENALTY_LIMIT:
            raise fail("value.max", p.field("points"), high=PENALTY_LIMIT)
        out.append(Penalty(p.seat("seat", n), points))
    return out


def parse_settle(data: Any, rules: Ruleset) -> tuple[list[int], int, list[Bust], list[YakumanWin]]:
    doc = Doc(data)
    raw = doc.list("scores")
    scores = [check_int(v, f"scores[{i}]") for i, v in enumerate(raw)]
    n = len(scores)
    if n not in rules.player_counts:
        counts = " or ".join(str(c) for c in rules.player_counts)
        raise fail("players.count", "scores", venue=rules.slug, counts=counts, players=n)
    deposits = doc.int("deposits", default=0, low=0)
    busts = []
    for i, item in enumerate(doc.list("busts", default=[])):
        b = Doc(item, f"busts[{i}]").only("seat", "by")
        busts.append(Bust(b.seat("seat", n), b.seats("by", n)))
    wins = [
        parse_yakuman(Doc(item, f"yakuman[{i}]"), rules, n)
        for i, item in enumerate(doc.list("yakuman", default=[]))
    ]
    return scores, deposits, busts, wins


def parse_yakuman(doc: Doc, rules: Ruleset, n: int) -> YakumanWin:
    doc.only("winner", "kind", "count", "from", "pao", "pao_count")
    winner = doc.seat("winner", n)
    kind = doc.text("kind", ("tsumo", "ron"))
    count = doc.number("count", default=1, low=0.5)
    source = None
    if kind == "ron":
        source = doc.seat("from", n)
        if source == winner:
            raise fail("yakuman.own_discard", doc.field("from"))
    elif doc.has("from"):
        raise fail("yakuman.tsumo_from", doc.field("from"))
    pao = doc.seat("pao", n, default=None)
    if pao == winner:
        raise fail("pao.self", doc.field("pao"))
    pao_count = doc.number("pao_count", default=count if pao is not None else 0, low=0)
    if pao_count > count:
        raise fail("pao.too_many", doc.field("pao_count"), count=f"{count:g}")
    return YakumanWin(winner, kind, count, source, pao, pao_count)
