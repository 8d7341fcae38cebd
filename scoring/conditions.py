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

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import permutations
from typing import Any

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
from scoring.settlement import Penalty, parse_penalties, settle
from scoring.standings import Player

ANY, NONE, CONTINUES = "any", "none", "continues"

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
Shape = dict[str, Any]  # a win's WinNeeded fields but its points: han, fu, yakuman, limit, yaku…


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


def _riichi_wins(rules: Ruleset, players: int, *, tsumo: bool) -> list[dict[str, Any]]:
    """Every win the venue accepts, as the table would enter it: han 1 … counted yakuman with
    each fu, then each yakuman multiple — the parser says which exist (25 fu needs 2 han, no
    20 fu ron, no fu where the venue counts none)."""
    top = rules.kazoe_han if rules.kazoe_han is not None else rules.limits[-1][0]
    shapes: list[dict[str, Any]] = []
    for han in range(1, top + 1):
        if not rules.fu or han >= rules.limits[0][0]:
            shapes.append({"han": han})
        if rules.fu:
            shapes.extend({"han": han, "fu": fu} for fu in FU_STEPS)
    step = 0.5 if rules.yakuman_half_steps else 1
    most = rules.yakuman_max or 6
    shapes.extend({"yakuman": step * k} for k in range(int(1 / step), int(most / step) + 1))
    accepted = []
    for shape in shapes:
        raw = (
            {"type": "tsumo", "winner": 0, **shape}
            if tsumo
            else {"type": "ron", "discarder": 1, "wins": [{"seat": 0, **shape}]}
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
        self.priced: dict[tuple[bool, bool, bool], list[tuple[WinNeeded, Shape]]] = {}

    def cheapest_first(self, winner: int, discarder: int | None) -> list[tuple[WinNeeded, Hand]]:
        flow = self.flow
        key = (winner == flow.dealer, winner == flow.emperor, discarder is None)
        if key not in self.priced:
            self.priced[key] = self._price(winner, discarder)
        return [(need, _hand(shape, winner, discarder)) for need, shape in self.priced[key]]

    def _price(self, winner: int, discarder: int | None) -> list[tuple[WinNeeded, Shape]]:
        flow = self.flow
        rules = flow.rules
        if not game_type(rules).rotating_deal:
            shapes: list[Shape] = [
                {"yaku": yaku, "bonus": bonus}
                for yaku in range(rules.emperor_min_yaku[flow.n], MAX_YAKU + 1)
                for bonus in range(MAX_EMPEROR_BONUS + 1)
            ]
        else:
            shapes = [
                {**shape, "limit": _limit(rules, shape["han"], shape.get("fu"))}
                if "han" in shape
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
            priced.append((WinNeeded(outcome.details[0]["value"], **shape), shape))
        priced.sort(key=lambda pair: pair[0].order)
        out = []
        seen: set[tuple[int, bool]] = set()
        for need, shape in priced:
            key = (need.points, need.yakuman is not None)  # a yakuman's chips may be points
            if key not in seen:
                seen.add(key)
                out.append((need, shape))
        return out


def _hand(shape: Shape, winner: int, discarder: int | None) -> Hand:
    """The hand that makes this win: `winner`'s tsumo, or ron from `discarder`."""
    if "yaku" in shape:
        kind = "tsumo" if discarder is None else "ron"
        return Hand(EmperorWin(kind, winner, discarder, shape["yaku"], shape["bonus"]))
    win = Win(winner, shape.get("han"), shape.get("fu"), shape.get("yakuman"))
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
        needs = SeatNeeds(
            seat, player, now, _need(flow, field_, wins, seat, None, target, penalties)
        )
        for discarder in range(flow.n):
            if discarder != seat:
                needs.ron[discarder] = _need(flow, field_, wins, seat, discarder, target, penalties)
        out.append(needs)
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
    """What a player needs from the last game for each place at the table: `"any"` (any score
    in that place), the lowest final score that does it, or `"none"`. Every other table's
    results stand; at this table the others share the rest of the points evenly on either side
    of the player (those placed above at the player's score or more, those below at it or
    less), and the places above go to whichever of them suits the player best."""

    player: Player
    now: int
    places: list[int | str]  # place 1 … n


def place_needs(
    rules: Ruleset,
    table: Sequence[Player],
    standings: Mapping[Player, Decimal],
    target: int,
) -> list[PlaceNeeds]:
    n = len(table)
    total = rules.start * n
    field_ = _Field(standings, table)
    shapes = _PlacePoints(rules, n)
    out = []
    for seat, player in enumerate(table):
        now = 1 + field_.above(field_.base, seat)
        mine = field_.base[seat]
        mates = [field_.base[s] for s in range(n) if s != seat]
        places: list[int | str] = []
        for place in range(1, n + 1):
            low = _round_up(total / n) if place == 1 else -total
            high = total // n // SCORE_STEP * SCORE_STEP if place == n else total
            check = _Reaches(field_, shapes, mine, mates, place, target)
            if check(low):
                places.append(ANY)
            elif not check(high):
                places.append(NONE)
            else:  # the total rises with the score: the lowest score that does it
                lo, hi = low // SCORE_STEP, high // SCORE_STEP
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    if check(mid * SCORE_STEP):
                        hi = mid
                    else:
                        lo = mid
                places.append(hi * SCORE_STEP)
        out.append(PlaceNeeds(player, now, places))
    return out


def _round_up(value: float) -> int:
    return int(-(-value // SCORE_STEP) * SCORE_STEP)


@dataclass
class _Reaches:
    """Whether the player, taking `place` with a final score, reaches the target."""

    field_: _Field
    shapes: _PlacePoints
    mine: Decimal
    mates: list[Decimal]
    place: int
    target: int

    def __call__(self, score: int) -> bool:
        points = self.shapes.of(self.place, score)
        total = self.mine + points[self.place - 1]
        others = self.field_.others
        outside = len(others) - bisect_left(others, total)
        # The places above: whichever tablemates it suits the player best to see there.
        above = min(
            sum(1 for q, j in enumerate(order) if self.mates[j] + points[q] >= total)
            for order in permutations(range(len(self.mates)), self.place - 1)
        )
        return outside + above < self.target


class _PlacePoints:
    """Each place's points when the player ends in `place` with a score: the table shaped
    around them (above at that score, below at it, the difference to the table's total shared
    by whichever side must take it) and settled by the ruleset — rounding, oka, uma as the
    venue counts them. Kept: a search asks the same few many times."""

    def __init__(self, rules: Ruleset, n: int) -> None:
        self.rules, self.n = rules, n
        self.kept: dict[tuple[int, int], list[Decimal]] = {}

    def of(self, place: int, score: int) -> list[Decimal]:
        key = (place, score)
        if key not in self.kept:
            self.kept[key] = self._settle(place, score)
        return self.kept[key]

    def _settle(self, place: int, score: int) -> list[Decimal]:
        n = self.n
        scores = [score] * n  # seat order is rank order: a tie ranks the earlier seat first
        gap = self.rules.start * n - score * n
        side = range(place - 1) if gap > 0 else range(place, n)  # above take more, below less
        if gap and side:  # (the search's bounds keep a side to take it)
            share = int(gap / len(side)) // SCORE_STEP * SCORE_STEP
            for s in side:
                scores[s] += share
            scores[side[0]] += gap - share * len(side)
        players = settle(self.rules, scores).players
        return [Decimal(str(players[s].points)) for s in range(n)]
