"""Reads of an event's rounds and their games for the organizer's round screens and the
public round pages. One query each; None when there is none (the view answers 404)."""

from __future__ import annotations

from tournament.models import Event, Game, Round


def table_size(event: Event) -> int:
    """The players at each of the event's tables (its ruleset's: four, or three): no query."""
    return event.rules.players


def round_numbers(event: Event) -> list[int]:
    """The numbers of the event's rounds seated, in order."""
    return list(event.rounds.order_by("number").values_list("number", flat=True))


def any_round_seated(event: Event) -> bool:
    """Whether a round of the event is seated (a round exists only seated): one query."""
    return event.rounds.exists()


def round_of(event: Event, number: int) -> Round | None:
    """The event's round of this number, with its event."""
    return Round.objects.filter(event=event, number=number).select_related("event").first()


def round_with_games(event: Event, number: int) -> Round | None:
    """The event's round of this number with its games (two queries): a round's public page
    reads whether a table still plays from them. The round's event is `event` (the clock reads
    its minutes), not read again."""
    try:
        rnd = Round.objects.prefetch_related("games").get(event=event, number=number)
    except Round.DoesNotExist:
        return None
    rnd.event = event
    return rnd


def round_games(rnd: Round) -> list[Game]:
    """The round's tables, in table order."""
    return list(rnd.games.all())


def round_table_count(rnd: Round) -> int:
    return rnd.games.count()


def event_game(event: Event, game_id: int) -> Game | None:
    """One of the event's games, with its round and event."""
    return (
        Game.objects.select_related("round__event").filter(pk=game_id, round__event=event).first()
    )


def game_exists(game_id: int) -> bool:
    return Game.objects.filter(pk=game_id).exists()
