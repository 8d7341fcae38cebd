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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from scoring.conditions.field import ANY, CONTINUES, NONE, StageField
from scoring.emperor import MAX_YAKU
from scoring.errors import ScoringError
from scoring.flow import GameFlow
from scoring.game_types import game_type
from scoring.hand_types import MAX_HAN, EmperorWin, Hand, Ron, Tsumo, Win
from scoring.parse import Doc
from scoring.payments import price_hand
from scoring.prices import basic_points
from scoring.riichi import parse_result as parse_riichi_result
from scoring.rules import Ruleset
from scoring.settlement import Penalty
from scoring.standings import Player

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
    field_ = StageField(standings, table)
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
    field_: StageField,
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
