"""The site as an ASGI application, for uvicorn: the addresses that follow an event's standings
and a table without polling (tournament/streams.py `stream_app`, `make serve`), one coroutine
per open phone. Every other page is gunicorn's (tournament/wsgi.py); a proxy sends the streams'
addresses here (README "Following without polling"), and anything else asked here is Django's
as usual."""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django_application = get_asgi_application()

from tournament.streams import Receive, Send, is_stream, stream_app  # noqa: E402 (apps loaded)


async def application(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    if is_stream(scope):
        await stream_app(scope, receive, send)
    else:
        await django_application(scope, receive, send)
