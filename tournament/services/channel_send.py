"""Sending the organizer's queued channel posts (issue 49) with apprise, by the task queue's
worker beside Web Push's messages (tasks.py `notifications_send_task`) or `manage.py
notifications` — never in a request.

Each post is its own call to its own service: one dead channel stops no other, nor a
player's push message, and the organizer's write that queued it has long been answered. A
failure (the service down, a refused token) is tried again later, up to TRIES times, then
given up and logged once.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from tournament.models import ChannelPost
from tournament.selectors.channels import channel_texts
from tournament.services.channels import channel_urls
from tournament.services.outbox_send import (  # one loop and one retry pace for both queues
    TRIES,
    outbox_drain,
    outbox_next,
    outbox_settle,
)

log = logging.getLogger(__name__)

BATCH = 50  # posts taken at once: an event posts three a round per channel
__all__ = ["TRIES", "channel_posts_next", "channel_posts_send"]
SENDERS = 4  # posts in flight at once
# apprise says each failure itself, at WARNING, with the URL's host: this module's one line
# after the last try is what the site's log keeps.
logging.getLogger("apprise").setLevel(logging.ERROR)


def _send(url: str, title: str, body: str) -> bool:
    """One post (in a thread of the pool: no database here); whether the service took it."""
    import apprise
    from apprise.common import OverflowMode

    plugin = apprise.Apprise.instantiate(url)
    if plugin is None:
        return False
    # A big round's seating runs past Discord's 2,000 characters: sent as several posts.
    plugin.overflow_mode = OverflowMode.SPLIT
    try:
        return bool(plugin.notify(body=body, title=title))
    except Exception:  # a plugin's own bug fails this post, not the sender
        return False


def _send_in_order(posts: list[tuple[ChannelPost, tuple[str, str]]]) -> dict[int, bool]:
    """One channel's posts, in order; whether each was taken."""
    return {post.pk: _send(post.url, *said) for post, said in posts}


def _settle(posts: list[ChannelPost], sent: dict[int, bool], now: datetime) -> int:
    """Sent (or nothing to say, or its URL removed since) deleted; a failure due again later,
    or given up and logged once after TRIES (services/outbox_send.py)."""
    failed = {p.pk: "" for p in posts if not sent.get(p.pk, True)}

    def gave_up(post: ChannelPost, tries: int, _detail: str) -> None:
        log.warning(
            "channels: gave up the %s post of round %s of event %s to a %s channel after %s tries",
            post.kind,
            post.round.number,
            post.event.slug,
            post.url.split(":", 1)[0],  # the service, not the URL's secret
            tries,
        )

    outbox_settle(ChannelPost, posts, failed, now, gave_up=gave_up)
    return sum(1 for post in posts if sent.get(post.pk) is True)


def channel_posts_send() -> int:
    """Post everything due now, a batch at a time, until nothing is; how many were posted."""
    with ThreadPoolExecutor(SENDERS) as pool:

        def send(posts: list[ChannelPost], now: datetime) -> int:
            texts = channel_texts(posts)
            live = [
                (post, texts[post.pk])
                for post in posts
                if texts[post.pk] is not None and post.url in channel_urls(post.event)
            ]
            # A channel's posts one after another, oldest first (a round's results before the
            # final standings); the channels side by side.
            by_url: dict[str, list[tuple[ChannelPost, tuple[str, str]]]] = {}
            for post, said in live:
                by_url.setdefault(post.url, []).append((post, said))
            sent: dict[int, bool] = {}
            for outcome in pool.map(_send_in_order, by_url.values()):
                sent.update(outcome)
            return _settle(posts, sent, now)

        return outbox_drain(ChannelPost, BATCH, ("event", "round"), send)


def channel_posts_next() -> datetime | None:
    """When the earliest post still queued is due (a retry), or None."""
    return outbox_next(ChannelPost)
