"""What each player needs (CONTRACT §6, issue 35): at a table's last hand of a stage's last
round, and — before that round's games — each player's gap to the lead and the cut and what
each place at their table would need.

The deciding round is the last round of the stage it closes: a stage's `last_round`, or, for a
stage without one (a league), the event's latest round. Its target is the stage's cut (the
players it sends on), or 1 for the last stage. The totals are the stage's as ranked (finished
games only, so a game in play is not in them: "before this game"). Each answer is made once
per version of the event and shared (a hand entered anywhere moves the version on).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Max, Prefetch

from scoring import parse_hand, replay
from scoring.conditions import conditions, place_needs
from scoring.flow import GameFlow
from scoring.standings import StageResult
from tournament.caching import event_stamp, shared
from tournament.models import Event, Game, Hand, Seat
from tournament.selectors.standings import published_standings


@dataclass(frozen=True)
class Deciding:
    """The round that decides a stage, its target and the stage's totals before it."""

    stage: str
    round: int
    target: int
    totals: dict[str, Decimal]
    last_stage: bool


def deciding(event: Event) -> Deciding | None:
    """The event's latest round if it is the last of a stage whose players are known. Two
    queries (the latest round; the standings, shared by version)."""
    latest = event.rounds.filter(games__isnull=False).aggregate(n=Max("number"))["n"]
    if latest is None:
        return None
    result = published_standings(event)
    for i, stage_result in enumerate(result.stages):
        rule = stage_result.stage
        last = rule.last_round if rule.last_round is not None else latest
        if last == latest and rule.counts(latest) and stage_result.ranked_on:
            return _deciding(stage_result, latest, i == len(result.stages) - 1)
    return None


def _deciding(stage_result: StageResult, number: int, last_stage: bool) -> Deciding:
    rule = stage_result.stage
    totals = {str(p): figures[0] for p, figures in stage_result.ranked_on.items()}
    target = min(rule.advance or 1, len(totals))
    return Deciding(rule.name, number, target, totals, last_stage)


# --- at the last hand ---------------------------------------------------------------------------


def game_conditions(event: Event, game: Game, flow: GameFlow, names: list[str]) -> dict | None:
    """The conditions at this game's next hand if it is the last of the deciding round, as
    CONTRACT §6's JSON with the stage, round, target and hand; else None. Shared by version."""
    if game.mode != "hands" or flow.over or not flow.is_last_hand:
        return None

    def make() -> dict | None:
        found = deciding(event)
        if found is None or game.round.number != found.round:
            return None
        return _at_table(event, found, flow, names)

    return shared("conditions-game", event_stamp(event), game.pk, make)


def _at_table(event: Event, found: Deciding, flow: GameFlow, names: list[str]) -> dict | None:
    if not all(name in found.totals for name in names):
        return None  # a substitute, or a table outside the stage
    seats = conditions(event.rules, flow, names, found.totals, found.target)
    return {
        "stage": found.stage,
        "round": found.round,
        "target": found.target,
        "last_stage": found.last_stage,
        "hand": flow.next(),
        "scores": list(flow.scores),
        "seats": [s.to_json() for s in seats],
    }


def event_conditions(event: Event) -> list[dict[str, Any]]:
    """Every table of the deciding round at its last hand (the venue screen's panel), each
    with its table number and game id. Four queries, shared by version."""

    def make() -> list[dict[str, Any]]:
        found = deciding(event)
        if found is None:
            return []
        out = []
        for game, names, flow in _games_in_play(event, found.round):
            if flow.over or not flow.is_last_hand:
                continue
            answer = _at_table(event, found, flow, names)
            if answer is not None:
                out.append({"table": game.table, "game": game.pk, "names": names, **answer})
        return out

    return shared("conditions-event", event_stamp(event), None, make)


def _games_in_play(event: Event, number: int) -> list[tuple[Game, list[str], GameFlow]]:
    games = (
        Game.objects.filter(round__event=event, round__number=number, finished=False, mode="hands")
        .order_by("table")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("player").order_by("position")),
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


def before_last_game(event: Event) -> dict[str, Any] | None:
    """While the deciding round is seated and some of its tables have not begun: each of their
    players' gap to the lead and to the cut, and each place's need. None otherwise. Shared by
    version."""

    def make() -> dict[str, Any] | None:
        found = deciding(event)
        if found is None:
            return None
        tables = _not_begun(event, found.round)
        if not tables:
            return None
        ranked = sorted(found.totals.values(), reverse=True)
        lead = ranked[0]
        inside = ranked[found.target - 1]  # the last one through
        outside = ranked[found.target] if found.target < len(ranked) else None
        rows = []
        for number, names in tables:
            if not all(name in found.totals for name in names):
                continue
            for needs in place_needs(event.rules, names, found.totals, found.target):
                total = found.totals[str(needs.player)]
                # Inside the cut: how far above the first one out; outside: how far below the
                # last one in.
                to_cut = total - outside if total >= inside and outside is not None else None
                if total < inside:
                    to_cut = total - inside
                rows.append(
                    {
                        "table": number,
                        "player": needs.player,
                        "now": needs.now,
                        "total": total,
                        "to_lead": total - lead,
                        "to_cut": to_cut,
                        "places": needs.places,
                    }
                )
        rows.sort(key=lambda r: (r["now"], r["player"]))
        return {
            "stage": found.stage,
            "round": found.round,
            "target": found.target,
            "last_stage": found.last_stage,
            "places": list(range(1, max(len(names) for _, names in tables) + 1)),
            "rows": rows,
        }

    return shared("conditions-before", event_stamp(event), None, make)


def _not_begun(event: Event, number: int) -> list[tuple[int, list[str]]]:
    """The deciding round's tables with no result and no hand yet, with their players."""
    games = (
        Game.objects.filter(round__event=event, round__number=number, finished=False)
        .exclude(hands__isnull=False)
        .order_by("table")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("player").order_by("position"))
        )
    )
    return [(g.table, [s.player.name for s in g.seats.all()]) for g in games]
