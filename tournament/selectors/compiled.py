"""Querysets Django compiles once per process: the small reads every public page makes first
(the reads themselves are at the end of this module, each beside the queryset it stands for).

Building and compiling a queryset costs more than running it. The game sheet's ETag read (a
row per seat across four tables) takes 1.7 ms of CPU through the ORM and 0.3 ms as the same
SQL; under `make load` the pages' first reads were 40 % of the app servers' Python time
(docs/performance.md). A `Compiled` query is built from a queryset once, with stand-in
values for its arguments; each call puts the real ones in their places, runs the SQL and
passes the rows through that compiler's own converters (SQLite's dates, JSON, …), so what
comes back is what the queryset itself would have given — a test compares them.

The compiler is Django's internals (`get_compiler`, `as_sql`, `results_iter`, `select`), not
its promised API: Django is held to its minor version (pyproject.toml) and
tests/tournament/test_compiled.py must pass before the pin moves. What it earns is printed by
`make bench` ("first read, …"): 17–34 % of a cached page on 2026-11-24.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.db.models import Model, OuterRef, QuerySet, Subquery

from tournament.models import Entry, Event, RatingStep, Seat

# Stand-ins for the usual arguments: values no address gives (they only mark the places).
STAND_IN_ID, STAND_IN_SLUG = -2_000_000_001, "compiled-stand-in-slug"


class Compiled:
    """`build(*args)` → a queryset, compiled once with `stand_ins` for `args`. Each stand-in
    must reach the SQL's parameters unchanged and once (an id, a slug): checked when compiled."""

    def __init__(self, build: Callable[..., QuerySet], *stand_ins: Any) -> None:
        self._build = build
        self._stand_ins = stand_ins
        self._compiled: tuple[str, Any, str, list[Any], list[int]] | None = None

    def _get(self) -> tuple[str, Any, str, list[Any], list[int]]:
        if self._compiled is None:  # two threads may both compile: the same result
            queryset = self._build(*self._stand_ins)
            compiler = queryset.query.get_compiler(using=queryset.db)
            sql, params = compiler.as_sql()
            places = []
            for stand_in in self._stand_ins:
                found = [i for i, param in enumerate(params) if param == stand_in]
                if len(found) != 1:
                    raise ImproperlyConfigured(f"{stand_in!r} is not one of {params!r}")
                places.append(found[0])
            self._compiled = (queryset.db, compiler, sql, list(params), places)
        return self._compiled

    def rows(self, *args: Any) -> list[tuple[Any, ...]]:
        """The rows of a `values_list` queryset, as it would give them."""
        _alias, compiler, fetched = self._run(args)
        return list(compiler.results_iter(results=[fetched], tuple_expected=True))

    def instances(self, *args: Any) -> list[Model]:
        """The model instances of a plain queryset (no select_related, no deferred fields)."""
        alias, compiler, fetched = self._run(args)
        model = compiler.query.model
        names = [expression.target.attname for expression, *_ in compiler.select]
        rows = compiler.results_iter(results=[fetched])
        return [model.from_db(alias, names, row) for row in rows]

    def _run(self, args: tuple[Any, ...]) -> tuple[str, Any, list[Any]]:
        alias, compiler, sql, params, places = self._get()
        if any(isinstance(value, int) and not -(2**63) <= value < 2**63 for value in args):
            return alias, compiler, []  # no row has such an id (and SQLite could not bind it)
        bound = list(params)
        for place, value in zip(places, args, strict=True):
            bound[place] = value
        with connections[alias].cursor() as cursor:
            cursor.execute(sql, bound)
            return alias, compiler, cursor.fetchall()


# --- the reads compiled: the first read of every public page (views/conditional.py) --------
# Each is the plain queryset and its compiled form; tests/tournament/test_compiled.py holds the
# two equal, and `make bench` prints what the compiled one saves a page.


def event_by_slug(slug: str) -> QuerySet[Event]:
    """The event a page of one event shows."""
    return Event.objects.filter(slug=slug)


def game_version_rows(game_id: int, slug: str) -> QuerySet[Seat]:
    """What a game sheet is keyed by, a row per seat in seat order: the player's name, the
    game's stamp (created, version), its event's id, stamp and name. None for a game of
    another event."""
    return (
        Seat.objects.filter(game_id=game_id, game__round__event__slug=slug)
        .order_by("position")
        .values_list(
            "player__name",
            "game__created_at",
            "game__version",
            "game__round__event_id",
            "game__round__event__created_at",
            "game__round__event__version",
            "game__round__event__name",
        )
    )


def player_event_rows(player_id: int) -> QuerySet[Entry]:
    """What a player's page is keyed by, a row per event entered: the player's name, the
    event's id, stamp (created, version), name and address; and their site rating's newest
    step (a correction in an earlier event replays ratings in later ones: issue 34)."""
    newest_step = (
        RatingStep.objects.filter(player_id=OuterRef("player_id"), series__isnull=True)
        .order_by("-pk")
        .values("pk")[:1]
    )
    return (
        Entry.objects.filter(player_id=player_id)
        .order_by("event_id")
        .annotate(rating_step=Subquery(newest_step))
        .values_list(
            "player__name",
            "event_id",
            "event__created_at",
            "event__version",
            "event__name",
            "event__slug",
            "rating_step",
        )
    )


EVENT_BY_SLUG = Compiled(event_by_slug, STAND_IN_SLUG)
GAME_VERSION = Compiled(game_version_rows, STAND_IN_ID, STAND_IN_SLUG)
PLAYER_EVENTS = Compiled(player_event_rows, STAND_IN_ID)
