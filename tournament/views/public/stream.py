"""The standings' stream's address as gunicorn (or runserver) answers it: 204, no stream here.
Where the site streams, the proxy sends this address to uvicorn, whose ASGI application serves
it (tournament/asgi.py, tournament/streams.py): a server of workers would hold one for each
open phone. EventSource takes 204 as "do not connect again", and live.js polls as before."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse


def standings_stream(request: HttpRequest, slug: str) -> HttpResponse:
    return HttpResponse(status=204)
