"""Reads of an event's own rows for its pages and screens: the event by its id or address,
its stages, its entries, its penalties, whether it has a seating plan; and a series by its
address, with the events it holds or could take. One query each; None when there is none
(the view answers 404)."""

from __future__ import annotations

from functools import cache

from django.db.models import QuerySet
from django.utils.translation import get_language, gettext

from scoring.standings import FORMATS
from tournament.models import Entry, Event, Penalty, SeatingPlan, Series, SeriesEvent, Stage


@cache
def _event_sql() -> str:
    return f"SELECT * FROM {Event._meta.db_table} WHERE slug = %s"


def event_by_slug(slug: str) -> Event | None:
    """The event at this address, for every page, download and answer of one event, in one
    query written as SQL: it is the tag of every standings page, live table and screen
    (http_caching.py), and most of what a page found whole costs — Django took longer to
    build the queryset than the database to answer it (selectors/versions.py says how much;
    tests/tournament/test_tag_queries.py holds it to its queryset)."""
    return next(iter(Event.objects.raw(_event_sql(), [slug])), None)


# What a page's tag is made of (http_caching.by_event_shown): the event's stamps alone.
STAMP_FIELDS = ("id", "slug", "created_at", "version", "rows_version", "structure_version")


@cache
def _stamps_sql() -> str:
    return f"SELECT {', '.join(STAMP_FIELDS)} FROM {Event._meta.db_table} WHERE slug = %s"


def event_stamps_by_slug(slug: str) -> Event | None:
    """The event at this address with its stamps alone (STAMP_FIELDS; any other field is read
    when asked, as Django reads a deferred one): what a poll needs to be answered 304. A
    whole row was two thirds of a 304's cost under gunicorn — building the model from every
    column (the rules' snapshot among them) took longer than asking for it (issue 67,
    docs/performance.md "A poll with nothing new"). One query."""
    return next(iter(Event.objects.raw(_stamps_sql(), [slug])), None)


def event_stages(event: Event) -> list[Stage]:
    """The event's stages in the order they are played."""
    return list(event.stages.order_by("position"))


def stage_at(event: Event, position: int) -> Stage | None:
    return Stage.objects.filter(event=event, position=position).first()


def first_stage_end(event: Event) -> int | None:
    """The last round of the event's first stage; None for a league's open end, or no stage."""
    return event.stages.order_by("position").values_list("last_round", flat=True).first()


def registered_entries(event: Event) -> list[Entry]:
    """Every entry with its player, as registered (the pasted list), stand-ins last."""
    return list(event.entries.select_related("player").order_by("substitute", "pk"))


def players_key(event: Event, entries: list[Entry], can_organize: bool) -> str:
    """Everything the dashboard's list of players shows, for keeping it (dashboard.html): each
    entry's name, badges, profile, check-in and withdrawal, who may act on them, the language."""
    rows = tuple(
        (
            e.pk,
            e.player.name,
            e.substitute,
            e.withdrawn,
            e.present,
            e.checked_in_by,
            str(e.country),
            e.ema_number,
        )
        for e in entries
    )
    return repr((event.slug, event.checkin_required, can_organize, get_language(), rows))


def entry_of(event: Event, entry_id: int) -> Entry | None:
    """One of the event's entries, with its player and event."""
    return Entry.objects.select_related("player", "event").filter(pk=entry_id, event=event).first()


def names_in_play(event: Event) -> list[str]:
    """The names of the players not withdrawn, as registered, stand-ins last."""
    return list(
        event.entries.filter(withdrawn=False)
        .order_by("substitute", "pk")
        .values_list("player__name", flat=True)
    )


def event_has_plan(event: Event) -> bool:
    return SeatingPlan.objects.filter(event=event).exists()


def penalty_list(event: Event) -> QuerySet[Penalty]:
    """Every penalty given, cancelled ones kept, with who gave and who cancelled it."""
    return event.penalties.select_related("player", "created_by", "cancelled_by")


def penalty_of(event: Event, penalty_id: int) -> Penalty | None:
    return Penalty.objects.select_related("player").filter(pk=penalty_id, event=event).first()


def series_by_slug(slug: str) -> Series | None:
    return Series.objects.filter(slug=slug).first()


def series_choices() -> QuerySet:
    """(slug, name) of every series, newest first: the ratings page's pool menu."""
    return Series.objects.order_by("-created_at", "name").values_list("slug", "name")


def series_members(series: Series) -> QuerySet[SeriesEvent]:
    """The series' events in its order, each with its event."""
    return series.members.select_related("event").order_by("position")


def events_outside(series: Series) -> QuerySet[Event]:
    """The events not in the series, newest first: what may be added to it."""
    return Event.objects.exclude(series_members__series=series).order_by("-created_at")


def event_by_id(event_id: int, *, venue: bool = False) -> Event | None:
    """The event (with its venue, for a page that names it)."""
    events = Event.objects.select_related("venue") if venue else Event.objects
    return events.filter(pk=event_id).first()


def entry_count(event: Event) -> int:
    """The event's entries, stand-ins and those withdrawn after a game too: the rows its
    standings can show (one withdrawn before any game is in none, selectors/standings.py)."""
    return Entry.objects.filter(event=event).exclude(withdrawn=True, games=0).count()


def format_text(event: Event, stages: list[Stage]) -> str:
    """The event's format as its pages say it: the format's own words — or, where a stage was
    closed early (services/stages.stage_close_early), the rounds its stages are played in now
    (issue 66's walk: the headline still said 1–6 and 7–8 beside a final of rounds 2–3).
    `stages`: the event's stored stages, in order."""
    planned = FORMATS[event.format].stages
    stored = [(s.name, s.first_round, s.last_round) for s in stages]
    if (
        event.format != "baba"
        or len(stages) != len(planned)
        or stored == [(p.name, p.first_round, p.last_round) for p in planned]
    ):
        return str(event.get_format_display())
    qualifier, final = stages
    said = gettext("Baba: qualifier rounds %(a)s–%(b)s, top %(n)s to the final rounds %(c)s–%(d)s")
    return said % {
        "a": qualifier.first_round,
        "b": qualifier.last_round,
        "n": qualifier.advance,
        "c": qualifier.last_round + 1,
        "d": final.last_round,
    }
