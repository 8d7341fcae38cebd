"""The tournament day's watchers (bench/day.py): the streamed table's overlay, asked as a
streaming program's browser source asks it, and this load generator's own loop — how late it
wakes, which every answer in flight is then measured late by. Beside the day's clients
(bench/day_clients.py), which they share the `Day` and the `Browser` with."""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING

from bench.day_clients import SLUG, Browser, until

if TYPE_CHECKING:
    from bench.day_clients import Day

OVERLAY_LOOK_SECONDS = 1  # static/js/overlay.js LOOK_MS
FEATURED_ROUND, FEATURED_TABLE = 4, 1  # the round being played, its first table


async def overlay(day: Day, start: float) -> None:
    """A streaming program's browser source on the first table (CONTRACT §9): the overlay's
    page once, then its feed every second with the ETag it holds, as overlay.js asks it; when
    each hand first shows there (`last.number`)."""
    source = Browser(day)
    if not await until(day, start):
        return
    where = f"round={FEATURED_ROUND}&table={FEATURED_TABLE}"
    await source.send("overlay: page", f"/events/{SLUG}/overlay/?{where}")
    feed = f"/api/v1/events/{SLUG}/tables/{FEATURED_ROUND}/{FEATURED_TABLE}/live"
    shown = base = None
    tick = 1
    while await until(day, start + tick * OVERLAY_LOOK_SECONDS):
        status, body, _ = await source.send("overlay: feed", feed, expect=(200, 304))
        if status == 200:
            last = json.loads(body).get("last")
            number = last["number"] if last else 0
            base = number if base is None else base  # the hands played before the run
            if shown is not None and number > shown:
                for hand in range(shown + 1, number + 1):  # the run's n-th hand: n
                    day.featured_seen.setdefault(hand - base, time.monotonic())
            shown = number
        tick += 1


LOOP_WATCH_SECONDS = 0.01


async def loop_watch(day: Day) -> None:
    """How late this process wakes from a short sleep, all run long: the load generator's own
    stalls, which a request's measured time includes."""
    while time.monotonic() < day.deadline:
        asleep = time.perf_counter()
        await asyncio.sleep(LOOP_WATCH_SECONDS)
        day.late.append((time.perf_counter() - asleep - LOOP_WATCH_SECONDS) * 1000)
