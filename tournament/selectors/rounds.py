"""Reads of an event's rounds and their games for the organizer's round screens and the
public round pages. One query each; None when there is none (the view answers 404)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.utils.translation import get_language

from tournament.models import Event, Game, Round
from tournament.selectors import games
from tournament.selectors.cache import event_stamp
from tournament.selectors.tables import Clock, round_clock


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


@dataclass(frozen=True)
class RoundPage:
    """A round's public page (round_detail.html): the round with its games, the rounds it
    links, its clock (drawn per request from the server's time) and whether a table still
    plays; its tables kept by `tables_key`."""

    event: Event
    round: Round
    numbers: list[int]
    clock: Clock | None

    @property
    def live(self) -> bool:
        """A table still plays: the page follows the round (live.js)."""
        return any(not game.finished for game in self.round.games.all())

    @property
    def tables_key(self) -> tuple:
        """What the rendered tables are kept by: the event's version (every hand and result
        moves it) and the language. 64 tables took 50 ms to draw, and each hand anywhere in
        the event makes every following phone ask again."""
        return (event_stamp(self.event), self.round.number, get_language())

    @cached_property
    def tables(self) -> list[Game]:
        """The tables as shown (two queries): read only when the template does not hold them
        for `tables_key`."""
        return games.round_games(self.round)


def round_page(event: Event, number: int) -> RoundPage | None:
    """The public page of the event's round `number` (three queries: the round, its games,
    the numbers); None for a round not seated."""
    rnd = round_with_games(event, number)
    if rnd is None:
        return None
    return RoundPage(event, rnd, round_numbers(event), round_clock(rnd))


def round_table_count(rnd: Round) -> int:
    return rnd.games.count()


def event_game(event: Event, game_id: int) -> Game | None:
    """One of the event's games, with its round and event."""
    return (
        Game.objects.select_related("round__event").filter(pk=game_id, round__event=event).first()
    )


def game_exists(game_id: int) -> bool:
    return Game.objects.filter(pk=game_id).exists()
