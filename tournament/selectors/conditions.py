"""What each player needs (CONTRACT §6, issue 35): at a table's last hand of a stage's last
round, and — before that round's games — each player's gap to the lead and the cut and what
each place at their table would need.

The deciding round is the last round of the stage it closes: a stage's `last_round`; a stage
without one (a league) has none, since nothing says which of its games is the last. Its target
is the stage's cut (the players it sends on), or 1 for the last stage. The totals are the
stage's as ranked (finished games only, so a game in play is not in them: "before this
game"). Each answer is made once per version of the event and shared (a hand entered anywhere
moves the version on).

The answers are TypedDicts, not dataclasses: they are JSON as CONTRACT §6 writes it (the API
sends a table's answer on, `seats` is the engine's own `to_json`) and each is one literal.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypedDict

from django.db.models import Prefetch

from scoring import parse_hand, replay
from scoring.conditions import PlaceNeeds, conditions, place_needs
from scoring.flow import GameFlow
from scoring.standings import StageResult
from tournament.models import Event, Game, Hand
from tournament.selectors.cache import event_stamp, shared
from tournament.selectors.games import game_sheet
from tournament.selectors.published import published
from tournament.selectors.sheets import seats_prefetch


class TableAnswer(TypedDict):
    """One table at its last hand: CONTRACT §6's answer (`seats`) with where it stands."""

    stage: str
    round: int
    target: int
    last_stage: bool
    hand: dict[str, Any] | None  # the hand to play: label, dealer, honba… (GameFlow.next)
    scores: list[int]
    seats: list[dict[str, Any]]  # SeatNeeds.to_json, seat by seat


class TablePanel(TableAnswer):
    """A table's answer on the standings and the venue screen: which table, which game."""

    table: int
    game: int


class BeforeRow(TypedDict):
    """A player at a table not begun: their total, gaps and each place's need."""

    table: int
    player: str
    now: int  # the rank the stage's totals give them now
    total: Decimal
    to_lead: Decimal
    to_cut: Decimal | None  # None: nobody on the other side of the cut
    places: list[int | str]  # PlaceNeeds.places: a score, "any" or "none" per place


class BeforePanel(TypedDict):
    stage: str
    round: int
    target: int
    last_stage: bool
    places: list[int]  # 1 … the largest table's size: the columns
    rows: list[BeforeRow]
    tables: int  # how many tables the rows come from


class Panels(TypedDict):
    table_conditions: list[TablePanel]
    before: BeforePanel | None


@dataclass(frozen=True)
class Deciding:
    """The round that decides a stage, its target and the stage's totals before it."""

    stage: str
    round: int
    target: int
    totals: dict[str, Decimal]
    last_stage: bool


def deciding(event: Event) -> Deciding | None:
    """The event's latest round if it is the last of a stage whose players are known. No query
    of its own: the rounds in play and the standings are shared by version."""
    record = published(event)
    rounds, in_progress = record.progress.rounds, record.progress.in_progress
    latest = max([*rounds, *([in_progress] if in_progress else [])], default=None)
    if latest is None:
        return None
    result = record.standings
    for i, stage_result in enumerate(result.stages):
        rule = stage_result.stage
        # A stage without a last round (a league) has no game known to be its last: a panel
        # "before the last game" at its latest round would be a forecast (issue 43).
        if rule.last_round == latest and rule.counts(latest) and stage_result.ranked_on:
            return _deciding(stage_result, latest, i == len(result.stages) - 1)
    return None


def _deciding(stage_result: StageResult, number: int, last_stage: bool) -> Deciding:
    rule = stage_result.stage
    totals = {str(p): figures[0] for p, figures in stage_result.ranked_on.items()}
    target = min(rule.advance or 1, len(totals))
    return Deciding(rule.name, number, target, totals, last_stage)


# --- at the last hand ---------------------------------------------------------------------------


def game_conditions(
    event: Event, game: Game, flow: GameFlow, names: list[str]
) -> TableAnswer | None:
    """The conditions at this game's next hand if it is the last of the deciding round, as
    CONTRACT §6's JSON with the stage, round, target and hand; else None. `flow`: the game
    played so far (a game not at its last hand costs nothing more)."""
    if game.mode != "hands" or flow.over or not flow.is_last_hand:
        return None
    found = deciding(event)
    if found is None or game.round.number != found.round:
        return None
    return _at_table(event, found, game, flow, names)


def conditions_of(event: Event, game: Game) -> TableAnswer | None:
    """`game_conditions` for a game read without its hands (the public sheet, the API): its
    hands are read and played only while it is in play."""
    if game.finished or game.mode != "hands":
        return None
    sheet = game_sheet(event, game)
    return game_conditions(event, game, sheet.flow, sheet.names)


def _at_table(
    event: Event, found: Deciding, game: Game, flow: GameFlow, names: list[str]
) -> TableAnswer | None:
    """One table's answer, made once per version of the game and of the stage's totals and
    shared: the table's sheet, the public sheet, the API and the venue screen read the same
    (a hand at another table leaves it as it is)."""
    if not all(name in found.totals for name in names):
        return None  # a substitute, or a table outside the stage

    def make() -> TableAnswer:
        seats = conditions(event.rules, flow, names, found.totals, found.target)
        return TableAnswer(
            stage=found.stage,
            round=found.round,
            target=found.target,
            last_stage=found.last_stage,
            hand=flow.next(),
            scores=list(flow.scores),
            seats=[s.to_json() for s in seats],
        )

    game_stamp = event_stamp((game.pk, game.created_at, game.version))
    totals = tuple(sorted(found.totals.items()))
    return shared("conditions-table", game_stamp, (found.stage, found.target, totals), make)


def event_panels(event: Event) -> Panels:
    """The standings' and venue screen's panels: `table_conditions`, every table of the
    deciding round at its last hand (with its table number and game id); `before`, while some
    of its tables have not begun, their players' gaps and places (`_before`). Made
    once per version and shared; no query unless a round is in play, then three (its games
    still playing, their seats, their hands)."""

    def make() -> Panels:
        found = deciding(event)
        if found is None or published(event).progress.in_progress is None:
            return Panels(table_conditions=[], before=None)
        tables: list[TablePanel] = []
        not_begun = []
        for game, names, flow in _games_in_play(event, found.round):
            if not flow.records:  # no hand yet (or a table entering its final scores)
                not_begun.append((game.table, names))
            elif not flow.over and flow.is_last_hand:
                answer = _at_table(event, found, game, flow, names)
                if answer is not None:
                    tables.append(TablePanel(table=game.table, game=game.pk, **answer))
        return Panels(table_conditions=tables, before=_before(event, found, not_begun))

    return shared("conditions-panels", event_stamp(event), None, make)


def _games_in_play(event: Event, number: int) -> list[tuple[Game, list[str], GameFlow]]:
    games = (
        Game.objects.filter(round__event=event, round__number=number, finished=False)
        .order_by("table")
        .prefetch_related(
            seats_prefetch(),
            Prefetch("hands", Hand.objects.order_by("number")),
        )
    )
    rules = event.rules
    out = []
    for game in games:
        names = [s.player.name for s in game.seats.all()]
        hands = [parse_hand(h.data, rules, len(names)) for h in game.hands.all()]
        out.append((game, names, replay(rules, len(names), hands)))
    return out


# --- before the last game ---------------------------------------------------------------------


def _table_needs(event: Event, found: Deciding, names: list[str]) -> list[PlaceNeeds]:
    """One table's places (scoring.conditions.place_needs), made once per table, stage totals
    and ruleset and shared: while the deciding round is played its totals stand (a game in play
    is not in them), so a hand entered elsewhere does not search every table again."""
    stamp = f"{event.pk}.{event.created_at.timestamp():.6f}"
    totals = tuple(sorted(found.totals.items()))
    parts = (repr(event.rules), tuple(names), totals, found.target)
    return shared(
        "before-table",
        stamp,
        parts,
        lambda: place_needs(event.rules, names, found.totals, found.target),
    )


def _before(
    event: Event, found: Deciding, tables: list[tuple[int, list[str]]]
) -> BeforePanel | None:
    """Before the deciding round's games: each player's gap to the lead and to the cut, and
    each place's need, for the tables in `tables` (not begun)."""
    if not tables:
        return None
    ranked = sorted(found.totals.values(), reverse=True)
    lead = ranked[0]
    inside = ranked[found.target - 1]  # the last one through
    outside = ranked[found.target] if found.target < len(ranked) else None
    rows: list[BeforeRow] = []
    for number, names in tables:
        if not all(name in found.totals for name in names):
            continue
        for needs in _table_needs(event, found, names):
            total = found.totals[str(needs.player)]
            # Inside the cut: how far above the first one out; outside: how far below the
            # last one in.
            if total < inside:
                to_cut: Decimal | None = total - inside
            else:
                to_cut = total - outside if outside is not None else None
            rows.append(
                BeforeRow(
                    table=number,
                    player=str(needs.player),
                    now=needs.now,
                    total=total,
                    to_lead=total - lead,
                    to_cut=to_cut,
                    places=needs.places,
                )
            )
    if not rows:
        return None
    rows.sort(key=lambda r: (r["now"], r["player"]))
    return BeforePanel(
        stage=found.stage,
        round=found.round,
        target=found.target,
        last_stage=found.last_stage,
        places=list(range(1, max(len(names) for _, names in tables) + 1)),
        rows=rows,
        tables=len({row["table"] for row in rows}),
    )
