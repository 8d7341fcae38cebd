"""A player's page as one record (`player_page`): who, their events at the versions its tag
read (PlayerEvents), and each part read only when player_page.html does not hold it — their
own games, where they stand in each event, the events still being played. Every fragment of
the page is kept by a property here (`key`, `own_key`, `rating_key`, each section's `key`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from django.utils.translation import get_language

from tournament.models import Player
from tournament.selectors.placings import Placing, published_placings
from tournament.selectors.players import OwnGames, OwnIndex, own_games, player_own_games
from tournament.selectors.versions import PlayerEvents


@dataclass(frozen=True)
class PlayerSection:
    """One event's part of a player's page: its name and address, their total there from
    their own games and where they stand (`placing`, which any result may move); its
    figures and games kept by `key` — their own games, not the event's version."""

    event_id: int
    total: Decimal
    name: str
    slug: str
    placing: Placing | None
    key: tuple


@dataclass(frozen=True)
class PlayerPage:
    """A player's page at the versions its tag read (`entered`; for a player in no event,
    their name and nothing else). `notify`: "Notify me" is offered under the events still
    being played (the site sends notifications)."""

    player: Player
    entered: PlayerEvents
    notify: bool

    @property
    def key(self) -> tuple:
        """What the whole content is kept by: what it shows — the player, their own games
        (`own_key`), where they stand in each event (the placings, not the events' versions),
        each event's name and address, their rating's step and whether ratings wait, the
        events still played, the language and whether it offers notifications. A result
        elsewhere in an event moves its version, and with it the page's tag (the page is made
        again), but most players' places stay as they were: their content is then found kept,
        and only the frame is drawn (issue 67: at 10,000 players a result moved a few thousand
        of them; before, every player's content was made again after every result). A kept
        one reads none of its parts but the two its key is made of: the index of their own
        games and their placings (issue 46: two thirds of a player page was its parts, read
        again per request)."""
        entered = self.entered
        placings = tuple((s.event_id, s.placing) for s in self.sections)
        return (
            self.own_key,  # with their events' names and addresses (selectors/players.py)
            placings,
            entered.rating_step,
            entered.ratings_due,
            tuple(sorted(entered.running)),
            self.notify,
        )

    @property
    def rating_key(self) -> tuple:
        """What the rating's figures and chart are kept by: the player's newest step, which no
        other player's result moves. Whether ratings are being brought up to date — which
        every result anywhere moves — is put in beside them, not in them."""
        return (self.player.pk, self.entered.rating_step, get_language())

    @property
    def rated(self) -> bool:
        """The page has a rating section: a rated game, or ratings waiting for a replay."""
        return self.entered.rating_step is not None or self.entered.ratings_due

    @cached_property
    def own(self) -> tuple[OwnIndex, Callable[[], OwnGames]]:
        """Their own games' index and the games themselves (read only when a part kept by
        `own_key` is not held): kept until one of their games changes or an event of theirs is
        renamed — not by the events' versions (selectors/players.player_own_games). For a
        player in no event, read for this request alone."""
        if not self.entered.events:
            games = own_games(self.player)
            return OwnIndex.of(games), lambda: games
        shown = [(pk, name, slug) for pk, (_stamp, name, slug) in self.entered.events.items()]
        return player_own_games(self.player, shown)

    @property
    def own_key(self) -> tuple:
        """What the parts made from their own games are kept by (the top, and with each
        event's id its figures and games): their own games and their events' names."""
        return (self.player.pk, self.player.name, self.own[0].key, get_language())

    @cached_property
    def sections(self) -> list[PlayerSection]:
        """A section per event with a finished game of theirs (a seat needs an entry), newest
        first, with where they stand in it (the published placings: no ranking here)."""
        events = self.entered.events
        shown = [(pk, total) for pk, total in self.own[0].sections if pk in events]
        placings = published_placings([(pk, events[pk][0]) for pk, _t in shown], self.player.name)
        own_key = self.own_key
        return [
            PlayerSection(pk, total, events[pk][1], events[pk][2], placings.get(pk), (own_key, pk))
            for pk, total in shown
        ]

    @cached_property
    def waiting(self) -> list[dict[str, object]]:
        """The events still being played where they have no finished game yet (round 1 not
        seated or not over): "Notify me" there too, or the first round's seating reaches
        nobody (issue 49)."""
        shown = {s.event_id for s in self.sections}
        events = self.entered.events
        return [
            {"event_id": pk, "name": events[pk][1], "slug": events[pk][2]}
            for pk in sorted(self.entered.running)
            if pk not in shown and pk in events
        ]


def player_page(player_id: int, entered: PlayerEvents, *, notify: bool) -> PlayerPage:
    """The page of the player `player_id` whose events the tag read (`entered`). No query: its
    parts are read when the template asks for them."""
    return PlayerPage(Player(pk=player_id, name=entered.name), entered, notify)
