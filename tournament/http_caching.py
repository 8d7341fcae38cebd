"""HTTP caching, the one cache outside the selectors (issue 65), in one module that the views
and the API both import (neither imports the other): a page's or an API answer's ETag from the
versions it shows, with 304 for a reader who holds it already (Django's `condition` decorator),
and a public page kept whole by that tag for every reader who is not signed in.

ETags. Every write to an event moves its `version` on in the write's own transaction, so the
version says whether anything a public page shows can have changed. The tag is made before the
view runs, from one small query (selectors/versions.py; for a page of one event, the event's
row, which the view then gets); a phone that sends it back with nothing new gets 304 Not
Modified and costs no standings work at all. The tag also holds what else changes the page: the
language, the query (stage, sort, page), who is signed in (organizers see links the public do
not), and the release (a deploy may change every page).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import wraps
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.urls import resolve
from django.utils import translation
from django.utils.translation import get_language
from django.views.decorators.http import condition

from tournament.models import Event
from tournament.selectors.cache import event_stamp, keep_latest, latest, tag_hash
from tournament.selectors.events import event_by_slug, event_stamps_by_slug
from tournament.selectors.versions import (
    GameVersion,
    PlayerEvents,
    event_stamp_by_slug,
    featured_stamp,
    game_version,
    player_events,
    table_stamp,
)

__all__ = [
    "GameVersion",
    "PlayerEvents",
    "address_number",
    "answer_by_tag",
    "api_by_event_version",
    "api_by_featured_version",
    "api_by_table_version",
    "by_event_shown",
    "by_event_version",
    "by_game_version",
    "by_player_events",
    "page_kept_for_readers",
    "page_made_for_readers",
    "page_tag",
]

try:
    RELEASE = settings.RELEASE or version("jansou")
except PackageNotFoundError:  # running from a checkout that was never installed
    RELEASE = settings.RELEASE


def page_tag(
    request: HttpRequest, kind: str, stamps: Iterable[Any], *, per_user: bool = True
) -> str:
    """The page's tag: the release, what it is, the language, the query and the stamps — and
    who reads it where the page differs by reader (`per_user`; reading the user opens the
    session, so the answer varies by cookie). The decorators below make it from the event's
    stamp; a page that reads its own stamps (a table's page, the organizer's dashboard and
    round sheet, polled by live.js) calls it with them."""
    user = (request.user.pk if request.user.is_authenticated else "") if per_user else ""
    # STREAMS: a page made where the site streams says so (`data-stream`); switched on or off
    # without a release, no page kept from before is answered as current.
    parts = [RELEASE, settings.STREAMS, kind, get_language(), request.GET.urlencode(), user]
    parts += stamps
    return tag_hash(parts)


def answer_by_tag(
    request: HttpRequest,
    tag: str,
    view: Callable[..., HttpResponse],
    *args: Any,
    public: bool = False,
    **kwargs: Any,
) -> HttpResponse:
    """304 when the reader holds `tag` already (the view not run), else the view's answer
    with the tag. `public`: the page is the same for every reader with the tag but for CSRF
    tokens (no session in it) — kept whole for the next one (`whole_page`, below)."""

    @condition(etag_func=lambda *_args, **_kwargs: tag)
    def answer(request: HttpRequest) -> HttpResponse:
        if public:
            return whole_page(request, tag, lambda: view(request, *args, **kwargs))
        return view(request, *args, **kwargs)

    return answer(request)


def by_event_shown(
    shown: Callable[[Event], list[Any]],
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """For a page of one event, `view(request, event, …)`, tagged by what it shows —
    `shown(event)`, stamps read without making the page (selectors/published.py
    `standings_shown`), from the event's stamps alone (`event_stamps_by_slug`); a phone
    holding the tag gets 304 without the view running, a reader not signed in the kept page,
    and only a page made reads the whole event; an unknown address, 404."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def read_event(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            stamps = event_stamps_by_slug(slug)
            if stamps is None:
                raise Http404
            tag = page_tag(request, request.path, shown(stamps))

            def with_event(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
                # Read whole only when the page is made: a 304 or a kept page needs the
                # stamps alone. Read after the tag, it is never older than the tag says.
                event = event_by_slug(slug)
                if event is None:  # removed since: as if it never was
                    raise Http404
                return view(request, event, *args, **kwargs)

            return answer_by_tag(request, tag, with_event, *args, public=True, **kwargs)

        return read_event

    return decorate


def _every_version(event: Event) -> list[Any]:
    return [event_stamp(event)]


# A page that may show anything about the event: its tag moves with every version.
by_event_version = by_event_shown(_every_version)


def by_game_version(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a game sheet, `view(request, version)`: one query of plain values, a row per seat
    (a GameVersion), for the tag and for the view's key; the view reads the game itself only
    when it makes the sheet. The tag is what the sheet shows — the game's own stamp, round and
    table, its players' names, the event's name, whether it is final — and the event's stamp
    only while the game may reach its last hand (what each player needs moves with the other
    tables): a result at another table leaves a finished game's tag, and its kept page, as
    they were."""

    @wraps(view)
    def read_game(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
        found = game_version(game_id, slug)
        if found is None:  # no such game in this event
            raise Http404
        tag = page_tag(request, request.path, found.shown)
        return answer_by_tag(request, tag, view, found, public=True)

    return read_game


def by_player_events(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a player's page, `view(request, player_id, entered)`: the page shows where they
    stand in every event they entered, so its tag holds each one's stamp, the player's name
    and their rating's newest step (one query) — `entered`, a PlayerEvents, None for a
    player in no event."""

    @wraps(view)
    def read_events(request: HttpRequest, player_id: int) -> HttpResponse:
        entered = player_events(player_id)
        if entered is None:
            return view(request, player_id, None)
        # Their rating too: a correction in an earlier event replays it in later ones.
        stamps = [entered.name, *entered.events.items(), entered.rating_step, entered.ratings_due]
        stamps.append(sorted(entered.running))  # "Notify me" under the events still played
        tag = page_tag(request, "player", stamps)
        return answer_by_tag(request, tag, view, player_id, entered, public=True)

    return read_events


def _api_event_tag(request: HttpRequest, slug: str, **_path: Any) -> str | None:
    """The API's tag: the same answer for everyone, so no user in it — reading the user would
    open the session and make every answer vary by cookie (a shared cache kept one per
    reader; found by the page diff of issue 45)."""
    stamp = event_stamp_by_slug(slug)
    return page_tag(request, request.path, [stamp], per_user=False) if stamp is not None else None


def _api_table_tag(
    request: HttpRequest, slug: str, round_number: int, table: int, **_path: Any
) -> str | None:
    """A table's feed's tag (CONTRACT §9): its game's stamp, not the event's, so a broadcaster
    polling one table gets 304 while the other tables play."""
    numbers = [address_number(round_number), address_number(table)]  # else the answer's 400
    if None in numbers:
        return None
    return _feed_tag(request, table_stamp(slug, *numbers))


def _api_featured_tag(request: HttpRequest, slug: str, **_path: Any) -> str | None:
    """The table on stream's feed's tag: that game's stamp with its id, so it moves when the
    organizer features another table as when the table moves; none while none is featured
    (the answer's 404)."""
    return _feed_tag(request, featured_stamp(slug))


def _feed_tag(request: HttpRequest, stamp: tuple[Any, ...] | None) -> str | None:
    """A table feed's tag from its stamp (selectors/versions.py `TABLE_STAMP`), the same for
    every reader; none without a table (the answer's 404)."""
    return page_tag(request, request.path, list(stamp), per_user=False) if stamp else None


def address_number(value: Any) -> int | None:
    """A round's or a table's number as an address or query gives it, if it can be one (a
    positive database integer); else None — never a query that would fail on it."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 0 < number < 2**31 else None


def api_by_table_version(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """`api_by_event_version` for one table's feed, by its game's stamp."""
    return _tagged_answers(condition(etag_func=_api_table_tag)(view), view)


def api_by_featured_version(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """`api_by_table_version` for the feed of the table on stream, whichever it is."""
    return _tagged_answers(condition(etag_func=_api_featured_tag)(view), view)


def api_by_event_version(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For an API answer about one event, through django-ninja's `decorate_view` (the
    operation's view, which returns an HttpResponse): the tag from the event's stamp (one
    query) before the answer is made, 304 when the reader holds it; an unknown event, no tag
    (the answer's 404). Only an answer (200) carries the tag: a 404 or 400 tagged would be
    answered 304 when asked again, its error gone."""
    return _tagged_answers(condition(etag_func=_api_event_tag)(view), view)


def _tagged_answers(
    tagged: Callable[..., HttpResponse], view: Callable[..., HttpResponse]
) -> Callable[..., HttpResponse]:
    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = tagged(request, *args, **kwargs)
        if response.status_code not in (200, 304) and response.has_header("ETag"):
            del response["ETag"]
        return response

    return answer


# --- A public page kept whole by its tag, for every reader not signed in ---------------------
# A public page's tag (`page_tag`, above) already names everything it shows — the release, the
# address and query, the language, the reader and the versions it was made from — which is why a
# phone holding it gets 304. So the page made for one reader is the page for the next one with
# the same tag, but for its CSRF tokens (the language form's): each reader's must be of their
# own cookie. The page is kept with a hole where its tokens were and handed out with the
# reader's own token put in (Django's `get_token`, which also sends the reader the cookie, as a
# made page would): no template, no fragment read, only the tag's query and one cache read.
# Before this, drawing the frame around the kept content was 40 % of a worker's CPU under
# `make load` (docs/performance.md, "Whole pages kept by their tag").
#
# One entry per page and language — the view and its arguments as the address resolved them, so
# `/players/007/` is `/players/7/` — holding the tag it was made for: a page made again after a
# write replaces it, so the cache holds as many pages as there are pages read, not one per
# version, and nobody can add one by spelling an address another way (issue 31's bounded keys).
# A reader whose tag differs makes the page and keeps theirs; readers who miss it together wait
# for the first one's (after a write every server's readers of the standings miss at once), and
# if that one was not to be kept each makes their own.
#
# Made for each request, as before: a page asked with a query (a stage's tab, a sort, the
# screen's window: its spellings are many), a signed-in reader's page (organizers see links the
# public do not), a page with messages to show (they are the reader's own), anything but a 200
# HTML answer, an answer that sets cookies or varies by a header the tag does not hold.

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


def page_made_for_readers(path: str, language: str) -> HttpResponse:
    """The public page at `path` (no query) in `language`, made and kept as `whole_page` keeps
    it for the next reader not signed in — by the task queue after a result
    (tournament/publish.py), so the readers who come next find it made. The view decides,
    through its tag, whether anything is to be made: a page already kept for its tag is left
    as it is."""
    return _as_reader(path, language)[1]


def page_kept_for_readers(path: str, language: str) -> tuple[str, bytes] | None:
    """The public page at `path` in `language` as readers not signed in get it now — made if
    it was not kept (`page_made_for_readers`) — as (its tag, its bytes with no CSRF token: a
    form in it is not for sending), for a stream that hands it to every follower
    (tournament/streams.py). None when it is not a page for everyone. Http404 for an address
    with no page."""
    request, response = _as_reader(path, language)
    tag = response.get("ETag", "").strip('"')
    body = _shareable_body(request, response) if tag else None
    return (tag, body.replace(HOLE, b"")) if body is not None else None


def _as_reader(path: str, language: str) -> tuple[HttpRequest, HttpResponse]:
    """The page's answer to the request a reader's becomes once the middleware has run (no
    session, no messages, an anonymous user, the language chosen), with that request."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.user = AnonymousUser()
    request.resolver_match = match = resolve(path)
    with translation.override(language):
        request.LANGUAGE_CODE = language
        return request, match.func(request, *match.args, **match.kwargs)


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
