"""What makes a table's page an installable web app that opens without a connection (issue
47, CONTRACT §3): its manifest, and the service worker that keeps the page and its static
files on the phone (templates/tournament/table_sw.js; the outbox itself is static/js/outbox.js).
"""

from __future__ import annotations

import hashlib

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournament.selectors.tables import table_link_by_token

# The files a table's page needs, kept on the phone when the worker installs: the page
# opens from them with no connection. The Workbox modules are the worker's own.
SHELL = [
    "css/site.css",
    "favicon.svg",
    "js/entry.js",
    "js/clock.js",
    "js/kept.js",
    "js/outbox.js",
    "vendor/idb-8.0.4/umd.js",
]
WORKBOX = [
    f"vendor/workbox-7.4.1/workbox-{name}.prod.js"
    for name in ("core", "routing", "strategies", "precaching")
]


def _revision(path: str) -> str:
    """A file's content hash: the worker fetches it again when it changes (production's
    hashed names change with it anyway; development's do not)."""
    found = finders.find(path)
    if not found:
        return ""
    with open(found, "rb") as file:
        return hashlib.md5(file.read(), usedforsecurity=False).hexdigest()[:12]


@never_cache  # the browser asks for the worker again on each visit; the shell's hashes move
@require_GET
def table_sw(request: HttpRequest) -> HttpResponse:
    """/t/sw.js: the worker, served from /t/ so its scope covers every table's page."""
    context = {
        "workbox": [static(path) for path in WORKBOX],
        "kept": static("js/kept.js"),
        "shell": [{"url": static(path), "revision": _revision(path)} for path in SHELL],
    }
    return render(request, "tournament/table_sw.js", context, content_type="text/javascript")


@require_GET
def table_manifest(request: HttpRequest, token: str) -> HttpResponse:
    """/t/<token>/manifest.webmanifest: installed, the app opens this table's page, named in
    the page's language. One query."""
    link = table_link_by_token(token)
    if link is None:
        return HttpResponse(status=404)
    game = link.game
    page = reverse("table-page", args=[link.token])
    name = _("Table %(t)s · %(event)s") % {"t": game.table, "event": game.round.event.name}
    manifest = {
        "name": name,
        "short_name": _("Table entry"),
        "lang": get_language(),
        "start_url": page,
        "id": page,
        "scope": reverse("table-code"),
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#ffffff",
        "icons": [{"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response
