"""The tournament day's clients (bench/day.py, `make load`): the players' phones refreshing
the standings, the table phones entering hands and confirming results, the projector turning
the venue screen's pages, and the organizer at the dashboard correcting results — each a
coroutine with a browser of its own (cookies, the ETags it holds), every answer kept with its
time for the report."""

from __future__ import annotations

import argparse
import asyncio
import html
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any

SLUG = "day"
PLAYERS = 256  # the day's field unless --players says otherwise
PAGE_SECONDS = 12  # static/js/screen.js: a page of the screen turns every 12 s
ARRIVE_SECONDS = 60  # the players' phones that follow the stream open the page over this
TABLE_POLL_SECONDS = 4  # templates/tournament/table.html: the table's page asks every 4 s
WINDOW_ROWS = 20  # rows a 1920×1080 screen shows a page, when it asks for them page by page
DASHBOARD_EVERY, STATES_EVERY, FIX_EVERY = 30, 10, 60
SCORES = [40000, 30000, 20000, 10000]


def hand_form(hand: dict[str, Any]) -> list[tuple[str, str]]:
    """A hand of the engine's as the table page's form posts it (tournament/forms/hands.py)."""
    result = hand["result"]
    kind = result["type"]
    fields = [("type", kind)] + [("riichi", str(s)) for s in hand.get("riichi", [])]
    if kind == "ron":
        fields.append(("discarder", str(result["discarder"])))
        for k, win in enumerate(result["wins"]):
            fields += [(f"wins_{k}_{key}", str(v)) for key, v in win.items() if key != "seat"]
            fields.append((f"wins_{k}_seat", str(win["seat"])))
    elif kind == "tsumo":
        fields += [(key, str(result[key])) for key in ("winner", "han", "fu") if key in result]
    elif kind == "draw":
        fields += [("tenpai", str(s)) for s in result["tenpai"]]
    elif kind == "abort":
        fields.append(("reason", result["reason"]))
    else:
        raise ValueError(f"no form for a {kind!r} hand")
    return fields


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    return found.group(1) if found else ""


def attribute(page: str, name: str) -> str | None:
    found = re.search(rf'{name}="([^"]*)"', page)
    return html.unescape(found.group(1)) if found else None


@dataclass
class Answer:
    kind: str
    status: int | str  # the HTTP status, or the error met instead
    ms: float
    expected: bool
    at: float = 0.0  # when it was sent, seconds into the run (the report's slices)


@dataclass
class Day:
    """The run: where the server is, when it ends, every answer so far."""

    base: str
    deadline: float
    session: Any  # aiohttp.ClientSession
    began: float = field(default_factory=time.monotonic)
    tables: int = 0
    answers: list[Answer] = field(default_factory=list)
    hands_sent: int = 0
    confirmed: int = 0
    fixes_saved: int = 0
    # --follow stream: where the stream is served (uvicorn), when each phone was sent a page,
    # and when each result was confirmed (how soon the phones had it: bench/day.py's report).
    stream_base: str | None = None
    pages_sent: list[list[float]] = field(default_factory=list)
    confirmed_at: list[float] = field(default_factory=list)
    # How late this process's own loop woke, ms (`loop_watch`): every answer in flight while it
    # was busy is measured that much late, whatever the server did.
    late: list[float] = field(default_factory=list)
    # The streamed table (table 1, CONTRACT §9): when each of its hands was saved (the POST
    # answered) and first shown on its overlay, by its place in the run (1: the first saved).
    featured_saved: list[float] = field(default_factory=list)
    featured_seen: dict[int, float] = field(default_factory=dict)


class Browser:
    """One phone's browser as far as the model needs one: its cookies (kept by hand: the
    production cookies are Secure and this is plain HTTP behind a pretend TLS proxy) and the
    ETags its cache holds."""

    def __init__(self, day: Day) -> None:
        self.day = day
        self.cookies: dict[str, str] = {}
        self.etags: dict[str, str] = {}

    async def send(
        self,
        kind: str,
        path: str,
        *,
        form: list[tuple[str, str]] | None = None,
        fetch: bool = False,
        expect: tuple[int, ...] = (200,),
    ) -> tuple[int, str, str]:
        """The answer's status, body and Location; every answer is kept in the day's list."""
        origin = self.day.base.replace("http://", "https://")
        headers = {"X-Forwarded-Proto": "https"}
        if fetch:
            headers["X-Requested-With"] = "fetch"
        if form is None and path in self.etags:
            headers["If-None-Match"] = self.etags[path]
        if form is not None:
            headers["Origin"], headers["Referer"] = origin, origin + path
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        start = time.perf_counter()
        at = time.monotonic() - self.day.began
        try:
            async with self.day.session.request(
                "POST" if form is not None else "GET",
                self.day.base + path,
                data=form,
                headers=headers,
                allow_redirects=False,
            ) as response:
                body = await response.text()
                status = response.status
        except Exception as exc:  # a refused or dropped connection, a timeout: an error
            self.day.answers.append(Answer(kind, type(exc).__name__, 0.0, False, at))
            return 0, "", ""
        ms = (time.perf_counter() - start) * 1000
        self.day.answers.append(Answer(kind, status, ms, status in expect, at))
        for header in response.headers.getall("Set-Cookie", []):
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if response.headers.get("ETag") and form is None:
            self.etags[path] = response.headers["ETag"]
        return status, body, response.headers.get("Location", "")


EVENT_START = b"\nid: "  # a server-sent event's first line (tournament/streams.py `_sse`)


async def follow_stream(
    day: Day,
    phone: Browser,
    path: str,
    opened: str = "phone: stream opened",
    told: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """A phone's EventSource: the stream held open until the run ends (or the phone stops
    it). The standings' stream sends the page (live.js swaps it in; nothing is asked
    meanwhile): each arrival kept. A table's says the table moved, and `told` asks the page as
    live.js does."""
    import aiohttp

    arrivals: list[float] = []
    if told is None:
        day.pages_sent.append(arrivals)
    headers = {"X-Forwarded-Proto": "https", "Accept": "text/event-stream"}
    if phone.cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
    start, at = time.perf_counter(), time.monotonic() - day.began
    try:
        async with asyncio.timeout(max(0.0, day.deadline - time.monotonic())):
            async with day.session.get(
                f"{day.stream_base}{path}", headers=headers, timeout=aiohttp.ClientTimeout()
            ) as response:
                ms = (time.perf_counter() - start) * 1000
                day.answers.append(Answer(opened, response.status, ms, response.status == 200, at))
                # Events counted by the chunk: 1,024 phones reading each standings page line
                # by line held this process 0.4 s a result, every answer then measured late.
                tail = b"\n"
                async for chunk in response.content.iter_any():
                    seen = tail + chunk
                    tail = seen[-(len(EVENT_START) - 1) :]
                    for _ in range(seen.count(EVENT_START)):
                        arrivals.append(time.monotonic())
                        if told is not None:
                            await told()
    except TimeoutError:
        pass  # the run is over
    except Exception as exc:  # a dropped stream: an error
        day.answers.append(
            Answer(opened.replace("opened", "dropped"), type(exc).__name__, 0.0, False, at)
        )


async def until(day: Day, when: float) -> bool:
    """Sleep until `when`; False if the run ends first."""
    if when >= day.deadline:
        return False
    await asyncio.sleep(max(0.0, when - time.monotonic()))
    return True


async def player_phone(day: Day, start: float, every: float) -> None:
    phone = Browser(day)
    if not await until(day, start):
        return
    _, page, _ = await phone.send("phone: standings page", f"/events/{SLUG}/")
    assets = re.findall(r'<(?:link rel="stylesheet" href|script[^>]* src)="(/static/[^"]+)"', page)
    for asset in assets:
        await phone.send("phone: static file", asset)
    stream = attribute(page, "data-stream")
    if day.stream_base and stream:
        await follow_stream(day, phone, stream)
        return
    live = attribute(page, "data-live")
    if live is None:  # the page is not refreshing itself: nothing to model
        day.answers.append(Answer("phone: standings refresh", "no data-live", 0.0, False))
        return
    tick = 1
    while await until(day, start + tick * every):
        await phone.send("phone: standings refresh", live, fetch=True, expect=(200, 304))
        tick += 1


async def table_phone(day: Day, table: dict[str, Any], start: float, every: float) -> None:
    phone = Browser(day)
    token, codes = table["token"], table["codes"]
    if not await until(day, start):
        return
    # The seat's slip (its QR code): the phone now holds seat 0, and lands on the table's page.
    await phone.send("table: slip scanned", f"/t/{token}/seat/{codes[0]}/", expect=(302,))
    _, page, _ = await phone.send("table: page", f"/t/{token}/")
    held = {"page": page}

    async def look() -> None:
        """live.js's look: the page asked with the ETag it holds (410 once the game is over)."""
        status, body, _ = await phone.send(
            "table: refresh", f"/t/{token}/", fetch=True, expect=(200, 304, 410)
        )
        held["page"] = body if status == 200 else held["page"]

    # Where the site streams, the page follows the table's stream and polls nothing. A hand
    # is sent by outbox.js and the page then loaded again (location.replace): the new page
    # opens its own stream, from the table as it shows it (`since`), and the old one closes.
    streaming = bool(day.stream_base and attribute(page, "data-stream"))
    follower: asyncio.Task[None] | None = None

    def reopen(page: str) -> None:
        nonlocal follower
        if follower is not None:
            follower.cancel()
        stream = attribute(page, "data-stream")
        if stream:
            follower = asyncio.create_task(
                follow_stream(day, phone, stream, "table: stream opened", look)
            )

    if streaming:
        reopen(page)
    try:
        await _hands(day, phone, table, (start, every), held, None if streaming else look, reopen)
    finally:
        if follower is not None:
            follower.cancel()


async def _hands(
    day: Day,
    phone: Browser,
    table: dict[str, Any],
    pace: tuple[float, float],
    held: dict[str, str],
    poll: Callable[[], Awaitable[None]] | None,
    reopen: Callable[[str], None],
) -> None:
    """The table's hands, one every `every` seconds, each entered from the page the phone
    holds (between them the page polls every TABLE_POLL_SECONDS unless it follows a stream);
    then another seat's phone confirms the result."""
    token, codes = table["token"], table["codes"]
    start, every = pace
    for n, hand in enumerate(table["hands"], start=1):
        due = start + n * every
        # Between hands the page follows the table as live.js does (table.html's data-interval).
        while poll is not None and time.monotonic() + TABLE_POLL_SECONDS < due:
            if not await until(day, time.monotonic() + TABLE_POLL_SECONDS):
                return
            await poll()
        if not await until(day, due):
            return
        page = held["page"]
        form = [
            ("csrfmiddlewaretoken", hidden(page, "csrfmiddlewaretoken")),
            ("do", "hand"),
            ("version", hidden(page, "version")),
            ("number", hidden(page, "number")),
            *hand_form(hand),
        ]
        status, _, _ = await phone.send(
            "table: hand entered", f"/t/{token}/", form=form, expect=(302,)
        )
        day.hands_sent += 1
        if table.get("featured") and status == 302:
            day.featured_saved.append(time.monotonic())
        _, held["page"], _ = await phone.send("table: page", f"/t/{token}/")
        if poll is None:
            reopen(held["page"])
    # The game is over: another seat's phone confirms the result it entered.
    other = Browser(day)
    if not await until(day, time.monotonic() + every / 4):
        return
    _, page, _ = await other.send("table: page", f"/t/{token}/")
    form = [
        ("csrfmiddlewaretoken", hidden(page, "csrfmiddlewaretoken")),
        ("do", "confirm"),
        ("code", codes[1]),
    ]
    status, _, _ = await other.send(
        "table: result confirmed", f"/t/{token}/", form=form, expect=(302,)
    )
    day.confirmed += status == 302
    if status == 302:
        day.confirmed_at.append(time.monotonic())


async def projector(day: Day, start: float) -> None:
    screen = Browser(day)
    if not await until(day, start):
        return
    path = f"/events/{SLUG}/screen/"
    _, page, _ = await screen.send("screen: page", path)
    body = attribute(page, "data-screen") or path
    every = int(attribute(page, "data-interval") or 30)
    total = int(attribute(page, "data-rows-total") or 0)
    held = len(re.findall(r"<tr", page))
    next_body, next_page, turn = start + every, start + PAGE_SECONDS, 1
    while await until(day, min(next_body, next_page)):
        if time.monotonic() >= next_body - 0.01:
            await screen.send("screen: body", body, fetch=True, expect=(200, 304))
            next_body += every
        else:
            # A field longer than the body holds: each page's rows asked for as it turns.
            if total > held:
                first = (turn * WINDOW_ROWS) % total
                window = f"{body}{'&' if '?' in body else '?'}from={first}&rows={WINDOW_ROWS}"
                await screen.send("screen: rows as it turns", window, fetch=True, expect=(200, 304))
            next_page += PAGE_SECONDS
            turn += 1


async def organizer(day: Day, fixes: list[dict[str, Any]], start: float) -> None:
    desk = Browser(day)
    if not await until(day, start):
        return
    _, page, _ = await desk.send("organizer: sign-in", "/accounts/login/")
    form = [
        ("csrfmiddlewaretoken", hidden(page, "csrfmiddlewaretoken")),
        ("username", "desk"),
        ("password", "desk-password"),
    ]
    await desk.send("organizer: sign-in", "/accounts/login/", form=form, expect=(302,))
    dashboard = f"/events/{SLUG}/manage/"
    _, page, _ = await desk.send("organizer: dashboard", dashboard)
    states = asyncio.create_task(table_states(day, desk, attribute(page, "data-live"), start))
    rng = random.Random(5)
    tick = 1
    while await until(day, start + tick * DASHBOARD_EVERY):
        # A correction every FIX_EVERY seconds, the first after DASHBOARD_EVERY.
        if (tick - 1) * DASHBOARD_EVERY % FIX_EVERY == 0 and fixes:
            fix = fixes[(tick - 1) % len(fixes)]
            scores = f"/events/{SLUG}/manage/games/{fix['pk']}/scores/"
            _, page, _ = await desk.send("organizer: score form", scores)
            form = [
                ("csrfmiddlewaretoken", hidden(page, "csrfmiddlewaretoken")),
                ("version", hidden(page, "version")),
                ("deposits", "0"),
            ]
            for i, (name, score) in enumerate(
                zip(fix["names"], rng.sample(SCORES, 4), strict=True)
            ):
                form += [(f"seat_{i}", name), (f"score_{i}", str(score))]
            status, _, _ = await desk.send(
                "organizer: score saved", scores, form=form, expect=(302,)
            )
            day.fixes_saved += status == 302
        await desk.send("organizer: dashboard", dashboard)
        tick += 1
    await states


async def table_states(day: Day, desk: Browser, live: str | None, start: float) -> None:
    """The dashboard's own refresh (live.js on its `data-live`)."""
    if live is None:
        day.answers.append(Answer("organizer: tables' states", "no data-live", 0.0, False))
        return
    tick = 1
    while await until(day, start + tick * STATES_EVERY):
        await desk.send("organizer: tables' states", live, fetch=True, expect=(200, 304))
        tick += 1


async def the_day(
    args: argparse.Namespace,
    base: str,
    plan: dict[str, Any],
    stream_base: str | None = None,
    watchers: Callable[[Day, float], list[Awaitable[None]]] | None = None,
) -> Day:
    """The day's clients until the run's end, and `watchers(day, start)` beside them."""
    import aiohttp

    rng = random.Random(10)
    timeout = aiohttp.ClientTimeout(total=30)
    # No pool limit: each phone is its own browser (gunicorn's sync workers close every
    # connection anyway). Cookies by hand (Browser), so the session's jar keeps none.
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(
        connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()
    ) as session:
        now = time.monotonic()
        day = Day(
            base=base,
            deadline=now + args.seconds,
            session=session,
            tables=len(plan["tables"]),
            began=now,
            stream_base=stream_base,
        )
        jobs = [projector(day, now), organizer(day, plan["fixes"], now + 1)]
        jobs += watchers(day, now) if watchers is not None else []
        plan["tables"][0]["featured"] = True  # table 1 of round 4 (bench/day_watchers.py)
        # A phone that polls opens the page at its poll's phase, one refresh at most into the
        # run (the polls are the load). One that follows the stream opens it once, and 1,024
        # phones in the first 5 s is no room's moment: the players open it as they sit down,
        # over the round's first minute (ARRIVE_SECONDS; --arrive 5 is that storm, measured).
        arrive = args.arrive or (ARRIVE_SECONDS if stream_base else args.refresh)
        jobs += [
            player_phone(day, now + rng.uniform(0, arrive), args.refresh)
            for _ in range(args.players)
        ]
        jobs += [
            table_phone(day, table, now + rng.uniform(0, args.hand_every), args.hand_every)
            for table in plan["tables"]
        ]
        await asyncio.gather(*jobs)
    return day
