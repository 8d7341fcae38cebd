"""A player's page: their games in every event, where they stand, their rating."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields as dataclass_fields
from functools import cached_property
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
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
from tournament.selectors.player_page import PlayerPage, player_page
from tournament.selectors.players import OwnGames, player_named, player_of
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
    if entered is None:  # in no event: little to show, their own games read for this request
        player = player_of(player_id)
        if player is None:
            raise Http404
        entered = PlayerEvents(player.name, {}, None)
    push = push_context() if entered.running else None
    page = player_page(player_id, entered, notify=push is not None)
    context = {
        "title": entered.name,
        "page": page,  # each fragment kept by a key of its own (player_page.html)
        "body": _PlayerBody(page),
        "scale": scale_text,
        # "Notify me" under each event still being played (issue 49: CONTRACT §7).
        "player_id": player_id,
        "running": entered.running,
        "push": push,
    }
    return render(request, "tournament/player_page.html", context)


class _PlayerBody:
    """A player's page's parts drawn from its record, each only when the template asks for it
    (when it does not hold it)."""

    def __init__(self, page: PlayerPage) -> None:
        self.page = page

    def intro(self) -> str:
        """The top: their totals over every event."""
        games = self.page.own[1]()
        records = games.records
        totals = {
            "stats": games.overall,
            "games": sum(r.games for r in records),
            "events": len(records),
        }
        context = {"player": self.page.player, "totals": totals}
        return render_to_string("tournament/_player_intro.html", context)

    @cached_property
    def sections(self) -> list[dict[str, Any]]:
        """Each event's section as the record has it (kept by its `key`), with its figures and
        the rest drawn from their own games."""
        drawn = []
        for shown in self.page.sections:
            section = _Section(self.page.player, shown.event_id, self.page.own[1])
            fields = {f.name: getattr(shown, f.name) for f in dataclass_fields(shown)}
            drawn.append({**fields, "figures": section.figures, "html": section.html})
        return drawn

    @property
    def waiting(self) -> list[dict[str, object]]:
        return self.page.waiting

    @cached_property
    def rating(self) -> dict[str, Any] | None:
        return _rating_section(self.page.player.pk)


def _rating_section(player_id: int) -> dict[str, Any] | None:
    """The player's site rating and its history after each game as a chart (one query: their
    steps); None before their first game is rated. Read only when player_page.html does not
    hold it for the player's newest step (a correction in an earlier event replays ratings in
    later ones: the page's tag holds that step, http_caching.py)."""
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
