"""Reads for table links and the tables' states (the organizer's dashboard)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, OuterRef, Subquery

from tournament.models import Event, Game, Hand, Round, TableLink

STATES = ("not_started", "playing", "waiting", "disputed", "done")


def table_link_by_token(token: str) -> TableLink | None:
    """The link, live or revoked (the page says which), with its game and event. One query."""
    return TableLink.objects.select_related("game__round__event").filter(token=token[:64]).first()


def table_link_by_code(code: str) -> TableLink | None:
    """The live link a typed code names. One query."""
    return TableLink.objects.filter(code=code, revoked_at__isnull=True).first()


def live_links(rnd: Round) -> dict[int, TableLink]:
    """Each table's live link in a round, by game id (the round sheet prints them). One query."""
    links = TableLink.objects.filter(game__round=rnd, revoked_at__isnull=True)
    return {link.game_id: link for link in links}


@dataclass
class TableState:
    game: Game
    state: str  # one of STATES
    last_label: str  # the last hand recorded ("E3-1"), if any


def table_states(event: Event) -> tuple[int | None, list[TableState]]:
    """The latest round's tables and where each stands: not started · playing (the last hand)
    · waiting for confirmation · disputed · done. Two queries, whatever the number of tables."""
    number = event.rounds.order_by("-number").values_list("number", flat=True).first()
    if number is None:
        return None, []
    last = Hand.objects.filter(game=OuterRef("pk")).order_by("-number").values("label")[:1]
    games = (
        Game.objects.filter(round__event=event, round__number=number)
        .annotate(hand_count=Count("hands"), last_label=Subquery(last))
        .order_by("table")
    )
    states = []
    for game in games:
        if game.finished:
            state = "done"
        elif game.confirmation:
            state = game.confirmation
        elif game.hand_count:
            state = "playing"
        else:
            state = "not_started"
        states.append(TableState(game, state, game.last_label or ""))
    return number, states
