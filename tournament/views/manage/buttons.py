"""What a button on an organizer's screen does: one service run, its outcome said."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest

from tournament.i18n import error_text
from tournament.services.errors import ServiceError


def act(request: HttpRequest, call: Callable[[], Any], done: str = "") -> None:
    """Run one service for a button; say what happened (or why not) on the next page."""
    try:
        call()
    except ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        if done:
            messages.success(request, done)
