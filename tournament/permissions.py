"""Who may change what — the one place every organizer view and service caller asks.

Anyone may read. An event's organizers may change it; admins (superusers) may change every
event. Creating an event needs the `tournament.add_event` permission (staff given it in the
admin, and every superuser)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournament.models import Event


def can_manage(user: Any, event: Event) -> bool:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return event.organizers.filter(pk=user.pk).exists()


def can_create_events(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.has_perm("tournament.add_event"))


View = Callable[..., HttpResponse]


def _refuse(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def organizer_required(view: View) -> View:
    """For views under /events/<slug>/manage/: the view gets the event instead of the slug.
    Anonymous visitors are sent to log in; other users get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        event = get_object_or_404(Event.objects.select_related("venue"), slug=slug)
        if not can_manage(request.user, event):
            return _refuse(request)
        return view(request, event, *args, **kwargs)

    return wrapper


def event_creator_required(view: View) -> View:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not can_create_events(request.user):
            return _refuse(request)
        return view(request, *args, **kwargs)

    return wrapper
