"""Who may change what — the one place every organizer view and service caller asks.

Anyone may read. An event's organizers may change it; admins (superusers) may change every
event. Its referees may do what concerns results — enter and correct them, approve a table's,
renew a table link — but not its settings, players, seating or stages. Creating an event
needs the `tournament.add_event` permission (staff given it in the admin, and every
superuser). A table link is its own right: whoever holds it may enter that table's result
while its game is open (views/table/), nothing else."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.cache import never_cache

from tournament.models import Event, Series

ORGANIZER, REFEREE = "organizer", "referee"


def event_role(user: Any, event: Event) -> str | None:
    """`organizer`, `referee`, or None (a reader)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return None
    if user.is_superuser or event.organizers.filter(pk=user.pk).exists():
        return ORGANIZER
    if event.referees.filter(pk=user.pk).exists():
        return REFEREE
    return None


def can_manage(user: Any, event: Event) -> bool:
    """Everything about the event: settings, players, seating, stages, results."""
    return event_role(user, event) == ORGANIZER


def can_referee(user: Any, event: Event) -> bool:
    """Results: entry, corrections, approvals, table links (organizers too)."""
    return event_role(user, event) is not None


def can_create_events(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.has_perm("tournament.add_event"))


View = Callable[..., HttpResponse]


def _refuse(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def _event_view(allowed: Callable[[Any, Event], bool]) -> Callable[[View], View]:
    def decorate(view: View) -> View:
        # Organizer pages (a round sheet prints every seat's code) are kept by no cache on
        # the way, nor by the browser: `private, no-store` (never_cache).
        @never_cache
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            # Its registration settings joined (no query more): the dashboard's sign-up link.
            events = Event.objects.select_related("venue", "registration")
            event = get_object_or_404(events, slug=slug)
            if not allowed(request.user, event):
                return _refuse(request)
            return view(request, event, *args, **kwargs)

        return wrapper

    return decorate


# For views under /events/<slug>/manage/: the view gets the event instead of the slug.
# Anonymous visitors are sent to log in; other users get 403.
organizer_required = _event_view(can_manage)
referee_required = _event_view(can_referee)


def event_creator_required(view: View) -> View:
    @never_cache
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not can_create_events(request.user):
            return _refuse(request)
        return view(request, *args, **kwargs)

    return wrapper


def can_manage_series(user: Any, series: Series) -> bool:
    """A series is changed by its organizers (whoever made it) and by admins."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return user.is_superuser or series.organizers.filter(pk=user.pk).exists()


def series_organizer_required(view: View) -> View:
    """For views under /series/<slug>/manage/: the view gets the series instead of the slug."""

    @never_cache
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        series = get_object_or_404(Series, slug=slug)
        if not can_manage_series(request.user, series):
            return _refuse(request)
        return view(request, series, *args, **kwargs)

    return wrapper
