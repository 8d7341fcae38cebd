"""What each player needs at the last hand (オーラス条件, CONTRACT §6).

For every seat and every way to win — tsumo, or ron from each other seat — the cheapest win
that ends the game with the player at rank `target` or better in the stage. Nothing here is a
formula of its own: each candidate win is played on a copy of the table's game (`GameFlow`:
honba, deposits to the winner, busts that end the game, a dealer who plays on or stops) and the
game is settled by the ruleset (uma, oka, chips as points), so a condition is exactly what
entering that hand would give.

The scan goes from the cheapest win up and stops at the first win that is not a failure: one
that reaches the target, or one that does not end the game (`"continues"`: the dealer plays
on, or an extension is played) — the player is not out then, and a dearer win that happened to
end the game (a bust) is not what they need.

A tie on total is not enough: a player reaches rank `target` when fewer than `target` players
end at or above their total (CONTRACT §6).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from itertools import combinations, permutations, product
from typing import Any, NamedTuple

from scoring.emperor import MAX_YAKU
from scoring.errors import ScoringError
from scoring.flow import GameFlow
from scoring.game_types import game_type
from scoring.hand_types import MAX_HAN, EmperorWin, Hand, Ron, Tsumo, Win
from scoring.messages import fail
from scoring.names import normalize_name
from scoring.parse import Doc, check_int, check_table_names
from scoring.payments import price_hand
from scoring.presets import ruleset_from_json
from scoring.prices import basic_points
from scoring.riichi import parse_result as parse_riichi_result
from scoring.rules import SCORE_STEP, Ruleset
from scoring.settlement import Penalty, parse_penalties, rounded, settle
from scoring.standings import Player

ANY, NONE, CONTINUES = "any", "none", "continues"
Bounds = dict[int, tuple[int, int]]  # a place → its lowest and highest score

# A limit hand's name by its basic points (RULES.md §1); below a mangan a hand is "3翻40符".
LIMITS = {2000: "mangan", 3000: "haneman", 4000: "baiman", 5000: "hanebaiman", 6000: "sanbaiman"}
FU_STEPS = (20, 25, *range(30, 120, 10))
MAX_EMPEROR_BONUS = 10  # bonus yaku (500 each) to fill the gaps between two yaku counts


@dataclass(frozen=True)
class WinNeeded:
    """One win: han and fu (fu None where the venue counts none, or from mangan up), or a
    yakuman multiple; the emperor game counts yaku and bonus yaku. `points`: what the winner
    receives without honba or deposits."""

    points: int
    han: int | None = None
    fu: int | None = None
    yakuman: float | None = None
    limit: str | None = None  # mangan … sanbaiman, "kazoe" (counted yakuman), "yakuman"
    yaku: int | None = None  # the emperor game
    bonus: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"points": self.points}
        if self.yaku is not None:
            out.update(yaku=self.yaku, bonus=self.bonus)
            return out
        if self.yakuman is not None:
            out.update(yakuman=self.yakuman, limit="yakuman")
            return out
        out.update(han=self.han, fu=self.fu)
        if self.limit is not None:
            out["limit"] = self.limit
        return out

    @property
    def order(self) -> tuple[float, float, float]:
        """Cheapest first: fewest points, then fewest han, then fewest fu (CONTRACT §6)."""
        han = self.han if self.han is not None else (self.yaku or 0)
        if self.yakuman is not None:
            han = MAX_HAN + self.yakuman
        return (self.points, han, self.fu or self.bonus or 0)


Need = WinNeeded | str  # or ANY, NONE, CONTINUES


@dataclass(frozen=True)
class WinShape:
    """A win as the table would enter it, before it is priced: han (and fu where counted), a
    yakuman multiple, or the emperor game's yaku and bonus yaku. `limit` is named once the
    shape is known to be a han win (see `_Wins._price`)."""

    han: int | None = None
    fu: int | None = None
    yakuman: float | None = None
    limit: str | None = None
    yaku: int | None = None
    bonus: int | None = None

    def entry(self) -> dict[str, Any]:
        """The win's own fields as a result entry writes them (han, fu; or yakuman)."""
        out: dict[str, Any] = {}
        for name in ("han", "fu", "yakuman"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    def priced(self, points: int) -> WinNeeded:
        return WinNeeded(points, self.han, self.fu, self.yakuman, self.limit, self.yaku, self.bonus)


@dataclass
class SeatNeeds:
    seat: int
    player: Player
    now: int  # the stage rank if the game ended with the scores as they are
    tsumo: Need
    ron: dict[int, Need] = field(default_factory=dict)  # discarder's seat → need

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "now": self.now,
            "tsumo": _need_json(self.tsumo),
            "ron": {str(seat): _need_json(need) for seat, need in self.ron.items()},
        }


def _need_json(need: Need) -> Any:
    return need if isinstance(need, str) else need.to_json()


# --- the candidates ---------------------------------------------------------------------------


def _limit(rules: Ruleset, han: int, fu: int | None) -> str | None:
    if rules.kazoe_han is not None and han >= rules.kazoe_han:
        return "kazoe"
    if rules.payment_table is not None:  # a fixed table: the limit rows by han
        value = max((b for h, b in rules.limits if han >= h), default=0)
    else:
        value = int(basic_points(rules, han, fu, None))
        if value < rules.mangan_value():
            return None
    return LIMITS.get(value)


def _riichi_wins(rules: Ruleset, players: int, *, tsumo: bool) -> list[WinShape]:
    """Every win the venue accepts, as the table would enter it: han 1 … counted yakuman with
    each fu, then each yakuman multiple — the parser says which exist (25 fu needs 2 han, no
    20 fu ron, no fu where the venue counts none)."""
    top = rules.kazoe_han if rules.kazoe_han is not None else rules.limits[-1][0]
    shapes: list[WinShape] = []
    for han in range(1, top + 1):
        if not rules.fu or han >= rules.limits[0][0]:
            shapes.append(WinShape(han=han))
        if rules.fu:
            shapes.extend(WinShape(han=han, fu=fu) for fu in FU_STEPS)
    step = 0.5 if rules.yakuman_half_steps else 1
    most = rules.yakuman_max or 6
    shapes.extend(WinShape(yakuman=step * k) for k in range(int(1 / step), int(most / step) + 1))
    accepted = []
    for shape in shapes:
        raw = (
            {"type": "tsumo", "winner": 0, **shape.entry()}
            if tsumo
            else {"type": "ron", "discarder": 1, "wins": [{"seat": 0, **shape.entry()}]}
        )
        try:
            parse_riichi_result(Doc(raw), rules, players)
        except ScoringError:
            continue
        accepted.append(shape)
    return accepted


class _Wins:
    """The wins a seat could make this hand, cheapest first, one per price (a dearer way to the
    same points changes nothing). A price depends on whether the winner deals (or reigns, in
    the emperor game) and on tsumo or ron, so each list is priced once per table."""

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        rules = flow.rules
        self.shapes = {t: _riichi_wins(rules, flow.n, tsumo=t) for t in (True, False)}
        self.priced: dict[tuple[bool, bool, bool], list[tuple[WinNeeded, WinShape]]] = {}

    def cheapest_first(self, winner: int, discarder: int | None) -> list[tuple[WinNeeded, Hand]]:
        flow = self.flow
        key = (winner == flow.dealer, winner == flow.emperor, discarder is None)
        if key not in self.priced:
            self.priced[key] = self._price(winner, discarder)
        return [(need, _hand(shape, winner, discarder)) for need, shape in self.priced[key]]

    def _price(self, winner: int, discarder: int | None) -> list[tuple[WinNeeded, WinShape]]:
        flow = self.flow
        rules = flow.rules
        if not game_type(rules).rotating_deal:
            shapes = [
                WinShape(yaku=yaku, bonus=bonus)
                for yaku in range(rules.emperor_min_yaku[flow.n], MAX_YAKU + 1)
                for bonus in range(MAX_EMPEROR_BONUS + 1)
            ]
        else:
            shapes = [
                replace(shape, limit=_limit(rules, shape.han, shape.fu))
                if shape.han is not None
                else shape
                for shape in self.shapes[discarder is None]
            ]
        priced = []
        for shape in shapes:
            outcome = price_hand(
                rules,
                _hand(shape, winner, discarder),
                players=flow.n,
                dealer=flow.dealer,
                emperor=flow.emperor,
            )  # no honba, no deposits: the points the win itself is worth
            priced.append((shape.priced(outcome.details[0]["value"]), shape))
        priced.sort(key=lambda pair: pair[0].order)
        out = []
        seen: set[tuple[int, bool]] = set()
        for need, shape in priced:
            key = (need.points, need.yakuman is not None)  # a yakuman's chips may be points
            if key not in seen:
                seen.add(key)
                out.append((need, shape))
        return out


def _hand(shape: WinShape, winner: int, discarder: int | None) -> Hand:
    """The hand that makes this win: `winner`'s tsumo, or ron from `discarder`."""
    if shape.yaku is not None:
        kind = "tsumo" if discarder is None else "ron"
        return Hand(EmperorWin(kind, winner, discarder, shape.yaku, shape.bonus or 0))
    win = Win(winner, shape.han, shape.fu, shape.yakuman)
    return Hand(Tsumo(win)) if discarder is None else Hand(Ron(discarder, (win,)))


# --- the conditions ---------------------------------------------------------------------------


class _Field:
    """The stage's totals with this table's players taken out: who ends at or above a total."""

    def __init__(self, standings: Mapping[Player, Decimal], table: Sequence[Player]) -> None:
        seated = set(table)
        self.others = sorted(total for player, total in standings.items() if player not in seated)
        self.base = [standings[player] for player in table]

    def totals(self, points: Sequence[float]) -> list[Decimal]:
        return [b + Decimal(str(p)) for b, p in zip(self.base, points, strict=True)]

    def at_or_above(self, totals: Sequence[Decimal], seat: int) -> int:
        """How many players other than `seat` end at or above its total."""
        mine = totals[seat]
        table = sum(1 for s, t in enumerate(totals) if s != seat and t >= mine)
        return len(self.others) - bisect_left(self.others, mine) + table

    def above(self, totals: Sequence[Decimal], seat: int) -> int:
        """How many players end above `seat`'s total."""
        mine = totals[seat]
        table = sum(1 for t in totals if t > mine)
        return len(self.others) - bisect_right(self.others, mine) + table


def conditions(
    rules: Ruleset,
    flow: GameFlow,
    table: Sequence[Player],
    standings: Mapping[Player, Decimal],
    target: int,
    penalties: Sequence[Penalty] = (),
) -> list[SeatNeeds]:
    """Each seat's needs at `flow`'s next hand, the game's last. `standings`: every ranked
    player's stage total before this game (one decimal at most, as points are); `penalties`:
    the organizer's, on this game."""
    assert len(table) == flow.n and all(p in standings for p in table)
    field_ = _Field(standings, table)
    wins = _Wins(flow)
    now_totals = field_.totals([p.points for p in flow.settlement(penalties).players])
    out = []
    for seat, player in enumerate(table):
        now = 1 + field_.above(now_totals, seat)
        tsumo = _need(flow, field_, wins, seat, None, target, penalties)
        ron = {
            discarder: _need(flow, field_, wins, seat, discarder, target, penalties)
            for discarder in range(flow.n)
            if discarder != seat
        }
        out.append(SeatNeeds(seat, player, now, tsumo, ron))
    return out


def _need(
    flow: GameFlow,
    field_: _Field,
    wins: _Wins,
    winner: int,
    discarder: int | None,
    target: int,
    penalties: Sequence[Penalty],
) -> Need:
    for i, (need, hand) in enumerate(wins.cheapest_first(winner, discarder)):
        played = _play(flow, hand, winner)
        if not played.over:
            return CONTINUES
        totals = field_.totals([p.points for p in played.settlement(penalties).players])
        if field_.at_or_above(totals, winner) < target:
            return ANY if i == 0 else need
    return NONE


def _play(flow: GameFlow, hand: Hand, winner: int) -> GameFlow:
    """The hand played on a copy; a dealer who may stop after winning the last hand (アガリ止め)
    stops, as the CONTRACT assumes."""
    if flow.game.rotating_deal and winner == flow.dealer and flow.rules.table_marks_stop:
        stopped = flow.fork()
        try:
            stopped.play(Hand(hand.result, stop=True))
            return stopped
        except ScoringError:
            pass  # not allowed here (not the top): the dealer plays on
    played = flow.fork()
    played.play(hand)
    return played


# --- the command line (CONTRACT §6) -------------------------------------------------------------


def conditions_command(data: Any) -> dict[str, Any]:
    doc = Doc(data).only(
        "ruleset",
        "target",
        "standings",
        "table",
        "scores",
        "dealer",
        "honba",
        "deposits",
        "extended",
        "emperor",
        "penalties",
    )
    rules = ruleset_from_json(doc.raw("ruleset"))
    standings = read_standings(doc.raw("standings"))
    table = check_table_names(doc.list("table"), "table")
    if len(table) not in rules.player_counts:
        counts = " or ".join(str(c) for c in rules.player_counts)
        raise fail("players.count", "table", venue=rules.slug, counts=counts, players=len(table))
    for i, player in enumerate(table):
        if player not in standings:
            raise fail("conditions.unranked", f"table[{i}]", player=player)
    target = doc.int("target", default=1, low=1)
    if target > len(standings):
        raise fail("conditions.target", "target", target=target, ranked=len(standings))
    n = len(table)
    raw_scores = doc.list("scores")
    if len(raw_scores) != n:
        raise fail("scores.per_seat", "scores", players=n)
    scores = [check_int(v, f"scores[{i}]") for i, v in enumerate(raw_scores)]
    emperor = None
    if not game_type(rules).rotating_deal:
        emperor = doc.seat("emperor", n, default=None)
    flow = GameFlow.at_last_hand(
        rules,
        scores,
        dealer=doc.seat("dealer", n, default=n - 1),
        honba=doc.int("honba", default=0, low=0),
        deposits=doc.int("deposits", default=0, low=0),
        extended=doc.bool("extended"),
        emperor=emperor,
    )
    penalties = parse_penalties(doc, n)
    seats = conditions(rules, flow, table, standings, target, penalties)
    return {"target": target, "seats": [s.to_json() for s in seats]}


def read_standings(raw: Any) -> dict[str, Decimal]:
    """`{"name": total, …}`: names in their one spelling, totals as exact decimals."""
    doc = Doc(raw, "standings")
    out: dict[str, Decimal] = {}
    for key in doc.data:
        name = normalize_name(key, f"standings.{key}")
        total = doc.number(key)
        if name in out:
            raise fail("conditions.twice", f"standings.{key}", name=name)
        out[name] = Decimal(str(total))
    if not out:
        raise fail("conditions.no_standings", "standings")
    return out


# --- before the last game: each place's floor -------------------------------------------------


@dataclass
class PlaceNeeds:
    """What a player needs from the last game for each place at the table (CONTRACT §6, "Before
    the last game"): `"any"` when the lowest score that can hold the place is enough, the
    lowest final score that is, or `"none"`. `witnesses[k]`: for a place that can be enough,
    the table's final scores in seat order that make it so (the player's score the answer)."""

    player: Player
    now: int
    places: list[int | str]  # place 1 … n
    witnesses: list[tuple[int, ...] | None] = field(default_factory=list)


def place_needs(
    rules: Ruleset,
    table: Sequence[Player],
    standings: Mapping[Player, Decimal],
    target: int,
) -> list[PlaceNeeds]:
    """For each player at `table` (seat order) and each place, the lowest final score with
    which that place can still bring them to `target` in the stage: over every way the
    tablemates' final scores could fall — multiples of 100, none below zero, summing to the
    table's total, ranked in order with ties by seat — the one most favourable to the player.
    Every other table's players keep their totals."""
    field_ = _Field(standings, table)
    search = _TableSearch(rules, field_, target)
    out = []
    for seat, player in enumerate(table):
        now = 1 + field_.above(field_.base, seat)
        places: list[int | str] = []
        witnesses: list[tuple[int, ...] | None] = []
        for place in range(len(table)):
            lowest, found = search.lowest(seat, place)
            if found is None:
                places.append(NONE)
            else:
                places.append(ANY if found[seat] == lowest else found[seat])
            witnesses.append(found)
        out.append(PlaceNeeds(player, now, places, witnesses))
    return out


class _Context(NamedTuple):
    """A kind of table under which each place's points move with its own score only: bounds
    (place → lowest, highest), the places tied to the next one, and each place's distance to
    the next (`None`: as the seats allow, 0 where an earlier seat sits above)."""

    bounds: Bounds
    ties: frozenset[int]
    steps: tuple[int, ...] | None


def _contexts(rules: Ruleset, n: int) -> list[_Context]:
    """Every kind of table the ruleset pays differently: one where points depend on a seat's
    own score and place; one per number of players floating (uma by the number floating); one
    per way the places tie, the others one step apart (tied players share uma and oka)."""
    total = rules.start * n
    if rules.uma_floating is not None:
        line = rules.return_points
        return [
            _Context(
                {q: (line, total) if q < k else (0, line - SCORE_STEP) for q in range(n)},
                frozenset(),
                None,
            )
            for k in range(n + 1)
        ]
    if rules.tie == "split":
        gaps = range(n - 1)
        return [
            _Context({}, frozenset(ties), tuple(0 if q in ties else SCORE_STEP for q in gaps))
            for size in range(n)
            for ties in combinations(gaps, size)
        ]
    return [_Context({}, frozenset(), None)]


class _Curve(NamedTuple):
    """One place's points in one context: by score (None where the place cannot be held), and
    sorted by points with the highest score up to each (what "the highest score still under a
    total" looks up)."""

    by_score: list[Decimal | None]
    points: list[Decimal]
    highest: list[int]

    def under(self, bar: Decimal) -> int:
        """The highest score whose points stay below `bar` (−1: none)."""
        below = bisect_left(self.points, bar)
        return self.highest[below - 1] if below else -1


_CURVES: dict[tuple[str, int], list[list[_Curve]]] = {}


def _curves(rules: Ruleset, n: int) -> list[list[_Curve]]:
    """Each context's points of each place at each score, from one settled table apiece: the
    same for every table of a ruleset, so made once per process."""
    key = (repr(rules), n)
    if key not in _CURVES:
        total = rules.start * n
        seats = list(range(n))
        out = []
        for context in _contexts(rules, n):
            steps = list(context.steps or (0,) * (n - 1))
            places = []
            for place in range(n):
                by_score: list[Decimal | None] = []
                for units in range(total // SCORE_STEP + 1):
                    chain = _chain(total, steps, place, units * SCORE_STEP, context)
                    if chain is None:
                        by_score.append(None)
                        continue
                    points = settle(rules, [chain[q] for q in seats]).players[place].points
                    by_score.append(Decimal(str(points)))
                pairs = sorted((p, u * SCORE_STEP) for u, p in enumerate(by_score) if p is not None)
                highest, best = [], -1
                for _points, score in pairs:
                    best = max(best, score)
                    highest.append(best)
                places.append(_Curve(by_score, [p for p, _ in pairs], highest))
            out.append(places)
        _CURVES[key] = out
    return _CURVES[key]


def _chain(
    total: int, steps: Sequence[int], place: int, score: int, context: _Context
) -> list[int] | None:
    """Scores in place order — `score` in `place`, each place at least the next one plus its
    step (equal to it where the context ties them), each within the context's bounds, none below
    zero — summing to `total`: the lowest such chain, raised from the top down. None when there
    is none. (Raising from the top keeps the chain in order, so every sum between the lowest
    and the highest chain is one of them.)"""
    n = len(steps) + 1
    groups: list[list[int]] = []  # places tied together, best first
    for q in range(n):
        if q - 1 in context.ties:
            if steps[q - 1]:
                return None  # a later seat cannot tie above an earlier one
            groups[-1].append(q)
        else:
            groups.append([q])
    low, high, weight, gaps = [], [], [], []
    for members in groups:
        lo, hi = 0, total
        for q in members:
            b_lo, b_hi = (score, score) if q == place else context.bounds.get(q, (0, total))
            lo, hi = max(lo, b_lo), min(hi, b_hi)
        low.append(lo)
        high.append(hi)
        weight.append(len(members))
        gaps.append(steps[members[-1]] if members[-1] < n - 1 else 0)
    k = len(groups)
    for g in range(k - 2, -1, -1):
        low[g] = max(low[g], low[g + 1] + gaps[g])
    for g in range(1, k):
        high[g] = min(high[g], high[g - 1] - gaps[g - 1])
    if any(lo > hi for lo, hi in zip(low, high, strict=True)):
        return None
    excess = total - sum(w * lo for w, lo in zip(weight, low, strict=True))
    if excess < 0:
        return None
    values = list(low)
    for g in range(k):
        raise_by = min(high[g] - values[g], excess // (weight[g] * SCORE_STEP) * SCORE_STEP)
        values[g] += raise_by
        excess -= raise_by * weight[g]
    if excess:
        return None
    return [values[g] for g, members in enumerate(groups) for _q in members]


# The tablemates' seats in place order, and the contexts (index, context, steps) it can be in.
Order = tuple[list[int], list[tuple[int, _Context, list[int]]]]


def _steps_under(gap: Decimal, point_value: int) -> int:
    """How many score steps a seat can gain and stay `gap` points below (−1 or less: none)."""
    return math.ceil(gap * point_value / SCORE_STEP) - 1


class _TableSearch:
    """The search behind `place_needs`, for one table. For a score S of the player in a place,
    the tablemates are given the other places in every order, under each kind of table the
    ruleset pays differently (`_contexts`); there each place's points are read off its curve,
    so a tablemate stays below the player's total up to a score looked up at once, and the
    question is whether one chain of scores — in order, each within its bounds — with as few
    tablemates at or above the player as the target allows sums to the table's total. A chain
    found is settled by the ruleset itself before it counts, so every answer comes with a
    table that proves it.

    Where the top's points depend on the others' too (a rounding the top takes the rest of),
    the points are read off the settled chain and the chain is looked for again, a few times."""

    def __init__(self, rules: Ruleset, field_: _Field, target: int) -> None:
        self.rules, self.field_, self.target = rules, field_, target
        self.n = n = len(field_.base)
        self.total = rules.start * n
        self.contexts = _contexts(rules, n)
        self.curves = _curves(rules, n)
        # Where the top takes the rest of a rounding, its points are its score's unrounded
        # ones and the others' remainders: up to half a point each, either way.
        self.top_slack = Decimal(0) if rules.rounding == "exact" else Decimal(n - 1) / 2
        top = _curves(replace(rules, rounding="exact"), n) if self.top_slack else None
        # Per context, each place's curve as the search reads it: the top's unrounded where a
        # rounding gives it the rest (made once here, not on every score tried).
        self.search_curves = [
            [top[index][0], *places[1:]] if top else places
            for index, places in enumerate(self.curves)
        ]
        # Each place's scores it can be held with, in any context (the scan's range).
        self.holding = [
            [
                units * SCORE_STEP
                for units in range(self.total // SCORE_STEP + 1)
                if any(c[place].by_score[units] is not None for c in self.curves)
            ]
            for place in range(n)
        ]
        self.roundings: dict[tuple[int, int], tuple[int, int]] = {}

    def lowest(self, seat: int, place: int) -> tuple[int, tuple[int, ...] | None]:
        """The lowest score that can hold `place` at all, and the settled table (seat order)
        with the lowest score of the player's that brings them to the target (None: none)."""
        holding = self.holding[place]
        orders = self._orders(seat, place)
        lowest = next((s for s in holding if self._holds(orders, place, s)), None)
        if lowest is None or self._hopeless(seat, place):
            return (lowest or 0), None
        for score in holding:
            if score < lowest:
                continue
            found = self._reaches(orders, seat, place, score)
            if found is not None:
                return lowest, found
        return lowest, None

    def _orders(
        self, seat: int, place: int
    ) -> list[tuple[list[int], list[tuple[int, _Context, list[int]]]]]:
        """Each way the tablemates can fill the other places (seats in place order), with the
        contexts it can be in and their steps."""
        n = self.n
        out = []
        for order in permutations([s for s in range(n) if s != seat]):
            seats = [*order[:place], seat, *order[place:]]
            by_seat = [SCORE_STEP if seats[q] > seats[q + 1] else 0 for q in range(n - 1)]
            usable = []
            for index, context in enumerate(self.contexts):
                if any(by_seat[q] for q in context.ties):
                    continue  # a later seat cannot tie above an earlier one
                steps = list(context.steps) if context.steps is not None else by_seat
                steps = [max(a, b) for a, b in zip(steps, by_seat, strict=True)]
                usable.append((index, context, steps))
            out.append((seats, usable))
        return out

    def _holds(self, orders: list[Order], place: int, score: int) -> bool:
        return any(
            _chain(self.total, steps, place, score, context) is not None
            for _seats, usable in orders
            for _index, context, steps in usable
        )

    def _hopeless(self, seat: int, place: int) -> bool:
        """Whether even the player's best points in `place` leave `target` players or more at
        or above them whatever the table does (a quick "none" for the field's tail)."""
        if self.rules.rounding != "exact":
            return False  # the top's points are not on its curve
        best = max(
            (p for c in self.curves for p in c[place].by_score if p is not None), default=None
        )
        if best is None:
            return True
        total = self.field_.base[seat] + best
        others = self.field_.others
        count = len(others) - bisect_left(others, total)
        least = min(p for c in self.curves for curve in c for p in curve.points[:1])
        count += sum(1 for s, b in enumerate(self.field_.base) if s != seat and b + least >= total)
        return count >= self.target

    def _reaches(
        self, orders: list[Order], seat: int, place: int, score: int
    ) -> tuple[int, ...] | None:
        """A settled table that brings the player to the target with `score` in `place`."""
        n, base = self.n, self.field_.base
        others = self.field_.others
        for seats, usable in orders:
            for index, context, steps in usable:
                curves = self.search_curves[index]
                points = curves[place].by_score[score // SCORE_STEP]
                if points is None:
                    continue
                # The top's points as best they can be for the player (`top_slack`): the
                # settlement below says what they are.
                total = base[seat] + points + (self.top_slack if place == 0 else 0)
                room = self.target - (len(others) - bisect_left(others, total))
                if room <= 0:
                    continue
                caps = {
                    q: curves[q].under(total - base[seats[q]] + (self.top_slack if q == 0 else 0))
                    for q in range(n)
                    if q != place
                }
                chain = self._capped(steps, place, score, context, caps, room)
                if chain is None:
                    continue
                found = self._settled(seats, steps, place, score, context, chain)
                if found is not None:
                    return found
        return None

    def _capped(
        self,
        steps: list[int],
        place: int,
        score: int,
        context: _Context,
        caps: dict[int, int],
        room: int,
    ) -> list[int] | None:
        """A chain with fewer than `room` tablemates above their caps (fewest first)."""
        mates = [q for q in range(self.n) if q != place]
        for dangerous in range(min(room, self.n)):
            for chosen in combinations(mates, dangerous):
                bounds = dict(context.bounds)
                for q, cap in caps.items():
                    if q not in chosen:
                        lo, hi = bounds.get(q, (0, self.total))
                        bounds[q] = (lo, min(hi, cap))
                capped = _Context(bounds, context.ties, context.steps)
                chain = _chain(self.total, steps, place, score, capped)
                if chain is not None:
                    return chain
        return None

    def _settled(
        self,
        seats: list[int],
        steps: list[int],
        place: int,
        score: int,
        context: _Context,
        chain: list[int],
    ) -> tuple[int, ...] | None:
        """The chain's table in seat order if its settlement brings the player to the target.
        If not (the top's rounding), the caps are read off this settlement — a place's points
        move with its own score by the point value — and a chain looked for again, a few times."""
        n, seat = self.n, seats[place]
        others, base = self.field_.others, self.field_.base
        pv = self.rules.point_value
        seen: set[tuple[int, ...]] = set()
        for _round in range(4):
            table = [0] * n
            for q, s in enumerate(seats):
                table[s] = chain[q]
            key = tuple(table)
            if key in seen:
                return None
            seen.add(key)
            points = [Decimal(str(p.points)) for p in settle(self.rules, table).players]
            totals = [b + p for b, p in zip(base, points, strict=True)]
            if self.field_.at_or_above(totals, seat) < self.target:
                return key
            if self.top_slack:
                shifted = self._shifted(seats, steps, place, context, chain)
                if shifted is not None:
                    return shifted
            total = totals[seat]
            room = self.target - (len(others) - bisect_left(others, total))
            if room <= 0:
                return None
            caps = {
                q: chain[q]
                + (math.ceil((total - totals[seats[q]]) * pv / SCORE_STEP) - 1) * SCORE_STEP
                for q in range(n)
                if q != place
            }
            found = self._capped(steps, place, score, context, caps, room)
            if found is None:
                return None
            chain = found
        return None

    def _shifted(
        self, seats: list[int], steps: list[int], place: int, context: _Context, chain: list[int]
    ) -> tuple[int, ...] | None:
        """The chain with its tablemates moved within and across their roundings, settled:
        where the top takes the rest of a rounding, which side of a rounding the others end on
        moves the top's points by up to half a point each. Each tablemate is kept to its
        rounding, the one below or the one above, and the scores found again within them."""
        mates = [q for q in range(self.n) if q != place]
        for shifts in product((0, -1, 1), repeat=len(mates)):
            bounds = dict(context.bounds)
            for q, shift in zip(mates, shifts, strict=True):
                lo, hi = self._rounding(chain[q], shift)
                b_lo, b_hi = bounds.get(q, (0, self.total))
                bounds[q] = (max(lo, b_lo), min(hi, b_hi))
            trial = _chain(self.total, steps, place, chain[place], context._replace(bounds=bounds))
            if trial is not None:
                found = self._proves(seats, place, trial)
                if found is not None:
                    return found
        return None

    def _rounding(self, score: int, shift: int) -> tuple[int, int]:
        """The lowest and highest scores that round as `score` does, or as the rounding
        `shift` (±1) away from it. Kept: the search asks the same few many times."""
        key = (score, shift)
        if key not in self.roundings:
            self.roundings[key] = self._rounding_made(score, shift)
        return self.roundings[key]

    def _rounding_made(self, score: int, shift: int) -> tuple[int, int]:
        unit = self.rules.point_value
        level = rounded(self.rules, score) + shift * unit
        lo = hi = max(0, score + shift * unit)
        while rounded(self.rules, lo) > level:
            lo -= SCORE_STEP
        while rounded(self.rules, hi) < level:
            hi += SCORE_STEP
        while lo - SCORE_STEP >= 0 and rounded(self.rules, lo - SCORE_STEP) == level:
            lo -= SCORE_STEP
        while rounded(self.rules, hi + SCORE_STEP) == level:
            hi += SCORE_STEP
        return lo, hi

    def _proves(self, seats: list[int], place: int, chain: list[int]) -> tuple[int, ...] | None:
        """The chain's table in seat order if its settlement brings the player to the target."""
        table = [0] * self.n
        for q, s in enumerate(seats):
            table[s] = chain[q]
        points = settle(self.rules, table).players
        base = self.field_.base
        totals = [b + Decimal(str(p.points)) for b, p in zip(base, points, strict=True)]
        return tuple(table) if self.field_.at_or_above(totals, seats[place]) < self.target else None
