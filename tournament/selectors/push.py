"""The words of queued Web Push messages (CONTRACT §7), made when they are sent, in each
subscriber's language: JSON `{"title", "body", "url"}` (static/js/push_sw.js shows it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.translation import gettext, pgettext

from tournament.i18n import rank_text, wind_name
from tournament.models import Entry, Event, Notification, Seat, TableLink
from tournament.numbers import format_points
from tournament.selectors.published import published


def push_player_ids(event: Event, names: Sequence[str]) -> dict[str, int]:
    """The ids of the event's players named (the find-your-seat page's "Notify me" sends
    one). One query."""
    entries = Entry.objects.filter(event=event, player__name__in=list(names))
    return dict(entries.values_list("player__name", "player_id"))


def _wind(position: int) -> str:
    """A seat by its wind as a player is told it: North in English, 北家 in Japanese
    (i18n.wind_name). Seat 0 is East, the dealer."""
    if not 0 <= position < 4:
        return str(position + 1)
    return pgettext("seat wind", "%(wind)s") % {"wind": wind_name(position)}


def _links(game_ids: set[int]) -> dict[int, str]:
    """Each game's live table link's path (/t/<token>/). One query."""
    live = TableLink.objects.filter(game_id__in=game_ids, revoked_at__isnull=True)
    return {
        game: reverse("table-page", args=[token])
        for game, token in live.values_list("game_id", "token")
    }


def notification_payloads(rows: Sequence[Notification]) -> dict[int, dict[str, str] | None]:
    """The message for each row (read with its subscription, player, round, event and game),
    by the row's id; None where there is nothing left to say (the player no longer sits in
    the round, or no longer stands in the event; the result to confirm is no longer waiting —
    confirmed or approved while the message was queued or retried). Three queries at most,
    whatever the rows: the seats of the seated rounds' players, the tables' links, and each
    finished event's standings (shared with the pages)."""
    seated = [r for r in rows if r.kind == "seated"]
    seats: dict[tuple[int, int], tuple[int, int, int]] = {}
    if seated:
        found = Seat.objects.filter(
            round_id__in={r.round_id for r in seated},
            player_id__in={r.subscription.player_id for r in seated},
        ).values_list("round_id", "player_id", "game_id", "game__table", "position")
        seats = {(rnd, player): (game, table, pos) for rnd, player, game, table, pos in found}
    games = {game for game, _t, _p in seats.values()}
    games |= {r.game_id for r in rows if r.kind == "confirm" and r.game_id}
    links = _links(games) if games else {}
    standings: dict[int, dict[str, Any]] = {}
    out: dict[int, dict[str, str] | None] = {}
    for row in rows:
        event = row.round.event
        if row.kind == "finished" and event.pk not in standings:
            result = published(event).standings.rows
            standings[event.pk] = {"field": len(result), "rows": {r.player: r for r in result}}
        with translation.override(row.subscription.language):
            out[row.pk] = _payload(row, seats, links, standings)
    return out


def _payload(
    row: Notification,
    seats: dict[tuple[int, int], tuple[int, int, int]],
    links: dict[int, str],
    standings: dict[int, dict[str, Any]],
) -> dict[str, str] | None:
    rnd, player = row.round, row.subscription.player
    event = rnd.event
    if row.kind == "seated":
        seat = seats.get((rnd.pk, player.pk))
        if seat is None:  # moved out of the round since (a seat fixed, a bye)
            return None
        game, table, position = seat
        body = gettext("Round %(round)s: table %(table)s, %(wind)s") % {
            "round": rnd.number,
            "table": table,
            "wind": _wind(position),
        }
        find = reverse("find-seat", args=[event.slug]) + "?" + urlencode({"name": player.name})
        return {"title": event.name, "body": body, "url": links.get(game, find)}
    if row.kind == "confirm":
        game = row.game
        if game is None or game.confirmation != "waiting":  # confirmed, disputed or approved since
            return None
        # The table's page it opens confirms with a seat's code typed (views/table): a phone
        # that never held the seat needs the code on the player's slip, so the message says so.
        body = gettext(
            "Round %(round)s, table %(table)s: a result waits for your confirmation. Check it "
            "and confirm it with the code on your seat's slip."
        ) % {"round": rnd.number, "table": game.table}
        url = links.get(game.pk, reverse("game-detail", args=[event.slug, game.pk]))
        return {"title": event.name, "body": body, "url": url}
    ranked = standings[event.pk]
    standing = ranked["rows"].get(player.name)
    if standing is None:  # not ranked here (a stand-in), or no longer registered
        return None
    body = gettext("Round %(round)s is over: you are %(rank)s of %(field)s, total %(total)s") % {
        "round": rnd.number,
        "rank": rank_text(standing.rank),  # 7th (of 8); 7位 in Japanese
        "field": ranked["field"],
        "total": format_points(standing.total, event.rules.whole_points),  # as the pages
    }
    url = reverse("player-detail", args=[player.pk])
    return {"title": event.name, "body": body, "url": url}
