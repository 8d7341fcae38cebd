"""A public page kept whole by its tag, for every reader who is not signed in.

A public page's tag (http_caching/conditional.py `page_tag`) already names everything it shows — the
release, the address and query, the language, the reader and the versions it was made from —
which is why a phone holding it gets 304. So the page made for one reader is the page for the
next one with the same tag, but for its CSRF tokens (the language form's): each reader's must
be of their own cookie. The page is kept with a hole where its tokens were and handed out with
the reader's own token put in (Django's `get_token`, which also sends the reader the cookie, as
a made page would): no template, no fragment read, only the tag's query and one cache read.
Before this, drawing the frame around the kept content was 40 % of a worker's CPU under
`make load` (docs/performance.md, "Whole pages kept by their tag").

One entry per page and language — the view and its arguments as the address resolved them, so
`/players/007/` is `/players/7/` — holding the tag it was made for: a page made again after a
write replaces it, so the cache holds as many pages as there are pages read, not one per
version, and nobody can add one by spelling an address another way (issue 31's bounded keys).
A reader whose tag differs makes the page and keeps theirs; readers who miss it together wait
for the first one's (after a write every server's readers of the standings miss at once), and
if that one was not to be kept each makes their own.

Made for each request, as before: a page asked with a query (a stage's tab, a sort, the
screen's window: its spellings are many), a signed-in reader's page (organizers see links the
public do not), a page with messages to show (they are the reader's own), anything but a 200
HTML answer, an answer that sets cookies or varies by a header the tag does not hold.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from tournament.selectors.cache import keep_latest, latest

# Django's {% csrf_token %}: `<input type="hidden" name="csrfmiddlewaretoken" value="…">`.
TOKEN_FIELD = re.compile(rb'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"')
# Where a token was: bytes no page holds (a NUL is refused in every address and form, and no
# template writes one).
HOLE = b"\x00csrf-token\x00"


def whole_page(request: HttpRequest, tag: str, make: Callable[[], HttpResponse]) -> HttpResponse:
    """The page for `tag`: the kept one with the reader's token, or `make()`'s (kept when it
    may be)."""
    if not _may_share(request):
        return make()
    page = _page(request)
    held = latest("whole-page", page, tag)
    if held is None:
        made: list[HttpResponse] = []  # the page, when this request makes it

        def make_kept() -> tuple[list[tuple[str, str]], bytes] | None:
            response = make()
            made.append(response)
            body = _shareable_body(request, response)
            return (list(response.items()), body) if body is not None else None

        # Made by one reader at a time: the others wait for it (selectors/cache.py).
        held = keep_latest("whole-page", page, tag, make_kept)
        if made:
            return made[0]
    headers, body = held
    response = HttpResponse(body.replace(HOLE, get_token(request).encode()))
    for name, value in headers:
        response[name] = value
    return response


def _may_share(request: HttpRequest) -> bool:
    # len() loads the reader's messages without marking them shown (iterating would).
    return (
        request.method == "GET"
        and not request.GET
        and request.resolver_match is not None
        and not request.user.is_authenticated
        and not len(get_messages(request))
    )


def _page(request: HttpRequest) -> tuple[str, list[tuple[str, object]], str]:
    match = request.resolver_match
    return (match.view_name, sorted(match.kwargs.items()), get_language())


def _shareable_body(request: HttpRequest, response: HttpResponse) -> bytes | None:
    """The page's bytes with a hole for each token, or None when it is not to be kept."""
    if (
        response.status_code != 200
        or response.streaming
        or response.cookies
        or response.has_header("Vary")
        or not response.get("Content-Type", "").startswith("text/html")
        or len(get_messages(request))  # the view added one
    ):
        return None
    body = response.content
    if HOLE in body:
        return None
    found = TOKEN_FIELD.findall(body)
    if len(found) != body.count(b"csrfmiddlewaretoken"):
        # A token field written some other way than Django's tag: kept, it would hand this
        # reader's token to the next.
        return None
    for token in set(found):
        body = body.replace(token, HOLE)
    return body
