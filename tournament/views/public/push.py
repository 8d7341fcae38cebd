"""Web Push for players (issue 49, CONTRACT §7): a browser's subscription taken and stopped,
and the service worker that shows the messages (templates/tournament/push_sw.js)."""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from tournament.i18n import error_text
from tournament.push_keys import vapid_of
from tournament.selectors.events import event_by_slug
from tournament.services.errors import ServiceError
from tournament.services.push import (
    push_enabled,
    push_stop,
    push_subscribe,
    subscription_parse,
)
from tournament.services.throttle import Throttled, client_network, guess_take
from tournament.views.errors import stopped

log = logging.getLogger(__name__)


def push_context() -> dict[str, str] | None:
    """What a page's "Notify me" (templates/tournament/_push.html) needs: the VAPID public
    key, the page's language and the worker's scope; None when the site sends nothing."""
    if not push_enabled():
        return None
    try:
        _signer, public = vapid_of(settings.VAPID_PRIVATE_KEY)
    except ValueError:
        log.warning("push: VAPID_PRIVATE_KEY is not a key; no page offers notifications")
        return None
    worker = reverse("push-sw")
    language = "ja" if (get_language() or "").startswith("ja") else "en"
    return {"key": public, "language": language, "scope": worker.rsplit("/", 1)[0] + "/"}


def _refused(exc: ServiceError, status: int = 400) -> JsonResponse:
    return JsonResponse({"field": exc.field, "error": error_text(exc)}, status=status)


def _body(request: HttpRequest) -> object:
    """The request's JSON, or a ServiceError naming none of its fields."""
    try:
        return json.loads(request.body)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested past reason
        raise ServiceError("push.json", "") from None


# No CSRF token: the subscription is sent by the page's script with no session behind it —
# nothing a cookie grants is used, and anyone may ask for any player's notifications (§7).
@csrf_exempt
@require_POST
def push_subscribe_view(request: HttpRequest, slug: str) -> HttpResponse:
    """`POST /events/<slug>/push/`: 201, or 400 with the field named (JSON)."""
    event = event_by_slug(slug)
    if event is None:
        return JsonResponse({"error": "no such event"}, status=404)
    if not push_enabled():
        return _refused(ServiceError("push.off", ""), status=503)
    # Each subscription takes a place in its address's count (services/throttle.py), as a
    # sign-up does: a script cannot fill the table from one address.
    try:
        guess = guess_take("push", address=client_network(request))
    except Throttled as stop:
        return stopped(JsonResponse({"error": _too_many(stop)}, status=429), stop)
    try:
        subscription = push_subscribe(event=event, fields=subscription_parse(_body(request)))
    except ServiceError as exc:
        guess.right()  # refused: nothing written, its place given back
        return _refused(exc)
    return JsonResponse({"player": subscription.player_id}, status=201)


def _too_many(stop: Throttled) -> str:
    return ngettext(
        "Too many phones turned notifications on from this network. Try again in %(n)d minute.",
        "Too many phones turned notifications on from this network. Try again in %(n)d minutes.",
        stop.minutes,
    ) % {"n": stop.minutes}


@csrf_exempt  # as above
@require_POST
def push_stop_view(request: HttpRequest, slug: str) -> HttpResponse:
    """`POST /events/<slug>/push/stop/` with JSON `{"endpoint": url}`: the browser's
    subscription at the event ended (204, whether or not there was one), or 400."""
    event = event_by_slug(slug)
    if event is None:
        return JsonResponse({"error": "no such event"}, status=404)
    try:
        data = _body(request)
        if not isinstance(data, dict):
            raise ServiceError("push.json", "")
        push_stop(event=event, endpoint=data.get("endpoint"))
    except ServiceError as exc:
        return _refused(exc)
    return HttpResponse(status=204)


@never_cache  # the browser asks for the worker again and takes a new one at once
@require_GET
def push_sw(request: HttpRequest) -> HttpResponse:
    """/push/sw.js: the players' worker, under /push/ so that its scope is its own (the
    tables' worker keeps /t/)."""
    context = {"icon": static("favicon.svg")}
    return render(request, "tournament/push_sw.js", context, content_type="text/javascript")
