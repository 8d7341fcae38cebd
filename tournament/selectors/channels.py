"""The words of the organizer's channel posts (issue 49), made when they are sent, in the
language the organizer chose for the event's posts: short lines a phone reads well, a table a
line, and the standings as their first lines and a link to the page."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tournament.i18n import wind_name
from tournament.models import ChannelPost, Event, Seat, SitOut
from tournament.numbers import format_points
from tournament.selectors.published import published

TOP_LINES = 8  # the final standings' lines posted; the rest is a link away
SEPARATOR = " · "


def _wind(position: int) -> str:
    """A seat's wind in the channel's language (西, West: i18n.wind_name). Seat 0 is East,
    the dealer."""
    return wind_name(position)


def _points(points: Decimal | None, whole: bool) -> str:
    """Points as every page and download of the site write them (exports/formats.py
    `format_points`: 42.0, -12.5; whole where the venue keeps whole points)."""
    return "–" if points is None else format_points(points, whole)


def standings_address(event: Event) -> str:
    """The standings page's address: on the site's own (SITE_URL), else the address the
    organizer saved the channels from."""
    site = (settings.SITE_URL or str((event.channels or {}).get("site") or "")).rstrip("/")
    return site + reverse("event-detail", args=[event.slug])


def channel_texts(posts: Sequence[ChannelPost]) -> dict[int, tuple[str, str] | None]:
    """Each post's (title, body) by its id; None when there is nothing left to say (a round
    without tables). One query for the seats of the rounds posted, one for a seated round's
    byes, and each event's standings for its final post (shared with the pages)."""
    rounds = {p.round_id for p in posts if p.kind in ("seated", "results")}
    tables: dict[int, dict[int, list[tuple[int, str, int | None, Decimal | None]]]] = {}
    if rounds:
        seats = Seat.objects.filter(round_id__in=rounds).order_by("game__table", "position")
        for rnd, table, position, name, rank, points in seats.values_list(
            "round_id", "game__table", "position", "player__name", "rank", "points"
        ):
            tables.setdefault(rnd, {}).setdefault(table, []).append((position, name, rank, points))
    # Who sits a seated round out for want of a table: told too, as the wall would.
    byes: dict[int, list[str]] = {}
    seated = {p.round_id for p in posts if p.kind == "seated"}
    if seated:
        sit_outs = SitOut.objects.filter(round_id__in=seated, reason="bye").order_by("player__name")
        for rnd, name in sit_outs.values_list("round_id", "player__name"):
            byes.setdefault(rnd, []).append(name)
    out: dict[int, tuple[str, str] | None] = {}
    for post in posts:
        event = post.event
        language = (event.channels or {}).get("language") or "en"
        with translation.override(language):
            said = _text(post, tables.get(post.round_id, {}))
            if said is not None and post.kind == "seated" and byes.get(post.round_id):
                names = gettext(", ").join(byes[post.round_id])
                bye = gettext("Bye: %(names)s") % {"names": names}
                said = (said[0], f"{said[1]}\n{bye}")
            out[post.pk] = said
    return out


def _text(
    post: ChannelPost, tables: dict[int, list[tuple[int, str, int | None, Decimal | None]]]
) -> tuple[str, str] | None:
    event, number = post.event, post.round.number
    whole = event.rules.whole_points
    if post.kind == "final":
        rows = published(event).standings.rows
        lines = [
            gettext("%(rank)s. %(name)s %(total)s")
            % {"rank": r.rank, "name": r.player, "total": format_points(r.total, whole)}
            for r in rows[:TOP_LINES]
        ]
        title = gettext("%(event)s: final standings") % {"event": event.name}
        lines.append(gettext("All standings: %(url)s") % {"url": standings_address(event)})
        return title, "\n".join(lines)
    if not tables:
        return None
    if post.kind == "seated":
        title = gettext("%(event)s: round %(round)s seating") % {
            "event": event.name,
            "round": number,
        }
        lines = [
            gettext("Table %(table)s: %(seats)s")
            % {
                "table": table,
                "seats": SEPARATOR.join(f"{_wind(pos)} {name}" for pos, name, _r, _p in seats),
            }
            for table, seats in tables.items()
        ]
        return title, "\n".join(lines)
    title = gettext("%(event)s: round %(round)s results") % {"event": event.name, "round": number}
    lines = []
    for table, seats in tables.items():
        ranked = sorted(seats, key=lambda s: (s[2] is None, s[2] or 0, s[0]))
        said = SEPARATOR.join(f"{name} {_points(pts, whole)}" for _pos, name, _r, pts in ranked)
        lines.append(gettext("Table %(table)s: %(seats)s") % {"table": table, "seats": said})
    lines.append(gettext("Standings: %(url)s") % {"url": standings_address(event)})
    return title, "\n".join(lines)
