"""A player's page: their games in every event, where they stand, their rating."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import ScoringError
from scoring.names import normalize_name
from scoring.ratings import NEW
from tournament.charts import score_chart
from tournament.http_caching import (
    PlayerEvents,
    by_player_events,
)
from tournament.i18n import round_heading, scale_text
from tournament.models import Player
from tournament.selectors.placings import published_placings
from tournament.selectors.players import (
    OwnGames,
    OwnIndex,
    own_games,
    player_named,
    player_of,
    player_own_games,
)
from tournament.selectors.ratings import rating_history
from tournament.views.public.push import push_context
from tournament.views.query import known_query


def player_by_name(request: HttpRequest, name: str) -> HttpResponse:
    """An address made from a name before players had ids: on to the player's page."""
    try:
        name = normalize_name(name)
    except ScoringError:
        raise Http404 from None
    player = player_named(name)
    if player is None:
        raise Http404
    return redirect("player-detail", player.pk, permanent=True)


@known_query()
@by_player_events
def player_detail(
    request: HttpRequest, player_id: int, entered: PlayerEvents | None
) -> HttpResponse:
    """A player's games in every event: totals, rank distribution, top rate, cumulative chart,
    and where they stand in each event. What comes from their own games is made once until
    one of them changes (a result at another table leaves it as it was); where they stand,
    which any result may move, comes from the placings made once per version of the event
    for every player (selectors/standings.py) — no ranking here."""
    if entered is None:  # in no event: little to show, nothing to key it by
        player = player_of(player_id)
        if player is None:
            raise Http404
        own = own_games(player)
        page = _player_body(player, OwnIndex.of(own), lambda: own)
        body = {"page": page, "sections": [], "waiting": []}
        return _render(request, player_id, player.name, body, PlayerEvents(player.name, {}, None))
    return _render(request, player_id, entered.name, _PlayerPage(player_id, entered), entered)


def _render(
    request: HttpRequest, player_id: int, name: str, body: Any, entered: PlayerEvents
) -> HttpResponse:
    language = get_language()
    push = push_context() if entered.running else None
    context = {
        "title": name,
        "body": body,
        # The page's content, kept by what its tag holds but the reader (the content is the
        # same for everyone): a kept one reads none of its parts (issue 46: two thirds of a
        # player page was its parts, read again per request while nothing had moved).
        "page_key": (player_id, name, entered, language, push is not None),
        # The rating's figures are kept by the player's newest step; whether ratings are being
        # brought up to date — which every result anywhere moves — is put in beside them.
        "rating_key": (player_id, entered.rating_step, language),
        "ratings_due": entered.ratings_due,
        "scale": scale_text,
        # "Notify me" under each event still being played (issue 49: CONTRACT §7).
        "player_id": player_id,
        "running": entered.running,
        "push": push,
    }
    return render(request, "tournament/player_page.html", context)


class _PlayerPage:
    """A player's page's parts, each read only when the template asks for it."""

    def __init__(self, player_id: int, entered: PlayerEvents) -> None:
        self.player_id, self.entered = player_id, entered

    @cached_property
    def page(self) -> dict[str, Any]:
        player = Player(pk=self.player_id, name=self.entered.name)
        # Their own games, kept until one of them changes or an event is renamed — not by the
        # events' versions (selectors/players.py).
        shown = [(pk, name, slug) for pk, (_stamp, name, slug) in self.entered.events.items()]
        return _player_body(player, *player_own_games(player, shown))

    @cached_property
    def sections(self) -> list[dict[str, Any]]:
        """A section per event with a finished game of theirs (a seat needs an entry), with
        where they stand in it."""
        events = self.entered.events
        shown = [s for s in self.page["sections"] if s["event_id"] in events]
        placings = published_placings(
            [(s["event_id"], events[s["event_id"]][0]) for s in shown], self.entered.name
        )
        sections = []
        for section in shown:
            _stamp, name, slug = events[section["event_id"]]
            placing = placings.get(section["event_id"])
            sections.append({**section, "name": name, "slug": slug, "placing": placing})
        return sections

    @cached_property
    def waiting(self) -> list[dict[str, Any]]:
        """The events still being played where they have no finished game yet (round 1 not
        seated or not over): "Notify me" there too, or the first round's seating reaches
        nobody (issue 49)."""
        shown = {s["event_id"] for s in self.sections}
        events = self.entered.events
        return [
            {"event_id": pk, "name": events[pk][1], "slug": events[pk][2]}
            for pk in sorted(self.entered.running)
            if pk not in shown and pk in events
        ]

    @cached_property
    def rating(self) -> dict[str, Any] | None:
        return _rating_section(self.player_id)


def _rating_section(player_id: int) -> dict[str, Any] | None:
    """The player's site rating and its history after each game as a chart (one query: their
    steps); None before their first game is rated. Read only when player_page.html does not
    hold it for the player's newest step (a correction in an earlier event replays ratings in
    later ones: the page's tag holds that step, http_caching/conditional.py)."""
    history = rating_history(player_id)
    if not history:
        return None
    chart = score_chart(
        [_("Rating")],
        NEW.rating,
        [[point.rating] for point in history],
        [str(k) for k in range(1, len(history) + 1)],
    )
    return {"now": history[-1].rating, "games": len(history), "chart": chart}


def _player_body(player: Player, index: OwnIndex, own: Callable[[], OwnGames]) -> dict[str, Any]:
    """What a player's page shows from their own games: the title, and — each rendered only
    when player_page.html does not hold it for `key` already, the games (`own()`) read only
    then — the top, and per event the figures and the rest of the section (player_page.html
    puts the rest)."""

    def intro() -> str:
        games = own()
        records = games.records
        totals = {
            "stats": games.overall,
            "games": sum(r.games for r in records),
            "events": len(records),
        }
        return render_to_string(
            "tournament/_player_intro.html", {"player": player, "totals": totals}
        )

    sections = []
    for event_id, total in index.sections:
        section = _Section(player, event_id, own)
        sections.append(
            {"event_id": event_id, "total": total, "figures": section.figures, "html": section.html}
        )
    return {
        "title": player.name,
        "intro": intro,
        "sections": sections,
        "key": (player.pk, player.name, index.key, get_language()),
    }


class _Section:
    """One event's part of a player's page, drawn when the template asks for it."""

    def __init__(self, player: Player, event_id: int, own: Callable[[], OwnGames]) -> None:
        self.player, self.event_id, self.own = player, event_id, own

    @cached_property
    def context(self) -> dict[str, Any]:
        games = self.own()
        record = next(r for r in games.records if r.event.pk == self.event_id)
        points = record.cumulative()
        chart = score_chart(
            [self.player.name],
            0,
            [[total] for _n, total in points],
            [round_heading(n) for n, _t in points],
        )
        return {"record": record, "chart": chart, "stats": games.per_event.get(self.event_id)}

    def figures(self) -> str:
        return render_to_string("tournament/_player_figures.html", self.context)

    def html(self) -> str:
        return render_to_string("tournament/_player_section.html", self.context)
