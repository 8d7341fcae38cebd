"""The streams' addresses as gunicorn (or runserver) answers them: 204, no stream here. Where
the site streams, the proxy sends these addresses to uvicorn, whose ASGI application serves them
(tournament/asgi.py, tournament/streams.py): a server of workers would hold one for each open
phone. EventSource takes 204 as "do not connect again", and live.js polls as before."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse


def standings_stream(request: HttpRequest, slug: str) -> HttpResponse:
    return HttpResponse(status=204)


def table_stream(request: HttpRequest, token: str) -> HttpResponse:
    return HttpResponse(status=204)
