"""Sending the organizer's queued channel posts (issue 49) with apprise, by the task queue's
worker beside Web Push's messages (tasks.py `notifications_send_task`) or `manage.py
notifications` — never in a request.

Each post is its own call to its own service: one dead channel stops no other, nor a
player's push message, and the organizer's write that queued it has long been answered. A
failure (the service down, a refused token) is tried again later, up to TRIES times, then
given up and logged once. A post whose URL leads to a machine that is not on the public
internet (issue 63) is never sent: checked again here, given up at once, logged once.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from tournament.models import ChannelPost
from tournament.selectors.channels import channel_texts
from tournament.services.channels import channel_plugin, channel_refusal, channel_urls
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
SENT, FAILED = "sent", "failed"  # how a post went, else why it was refused (_send)
# apprise says each failure itself, at WARNING, with the URL's host: this module's one line
# after the last try is what the site's log keeps.
logging.getLogger("apprise").setLevel(logging.ERROR)


def _send(url: str, title: str, body: str) -> str:
    """One post (in a thread of the pool: no database here): SENT, FAILED (tried again later)
    or why the site does not post there, given up at once ("channel.address host=127.0.0.1":
    services/channels.py `channel_refusal`)."""
    from apprise.common import OverflowMode

    plugin = channel_plugin(url)
    if plugin is None:
        return FAILED
    # Checked again right before posting, the hosts' names resolved now: a URL saved before
    # the check existed, or a name whose addresses changed since. A gap stays: the resolver is
    # asked again when apprise connects, and a name that answers a public address here and a
    # private one a moment later (DNS rebinding) gets through. Pinning the address checked has
    # no clean way in: apprise makes its own connections (smtplib, requests), and TLS needs the
    # name for the server's certificate.
    refusal = channel_refusal(url, plugin)
    if refusal is not None:
        code, params = refusal
        if code == "channel.no_address":  # the resolver down, or the name gone: tried again
            return FAILED
        return " ".join([code, *(f"{key}={value}" for key, value in params.items())])
    # A redirect would take the post to a host nobody checked.
    plugin.redirects = False
    # A big round's seating runs past Discord's 2,000 characters: sent as several posts.
    plugin.overflow_mode = OverflowMode.SPLIT
    try:
        return SENT if plugin.notify(body=body, title=title) else FAILED
    except Exception:  # a plugin's own bug fails this post, not the sender
        return FAILED


def _send_in_order(posts: list[tuple[ChannelPost, tuple[str, str]]]) -> dict[int, str]:
    """One channel's posts, in order; how each went (_send)."""
    return {post.pk: _send(post.url, *said) for post, said in posts}


def _settle(posts: list[ChannelPost], sent: dict[int, str], now: datetime) -> int:
    """Sent (or nothing to say, or its URL removed since) deleted; a failure due again later,
    or given up and logged once after TRIES (services/outbox_send.py); a post to a host the
    site does not post to given up at once, logged once."""
    failed = {p.pk: "" for p in posts if sent.get(p.pk) == FAILED}
    for post in posts:
        if sent.get(post.pk) not in (None, SENT, FAILED):
            log.warning(
                "channels: did not post the %s post of round %s of event %s to a %s channel: %s",
                post.kind,
                post.round.number,
                post.event.slug,
                post.url.split(":", 1)[0],  # the service, not the URL's secret
                sent[post.pk],  # channel.resolves host=… address=127.0.0.1
            )

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
    return sum(1 for post in posts if sent.get(post.pk) == SENT)


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
            sent: dict[int, str] = {}
            for outcome in pool.map(_send_in_order, by_url.values()):
                sent.update(outcome)
            return _settle(posts, sent, now)

        return outbox_drain(ChannelPost, BATCH, ("event", "round"), send)


def channel_posts_next() -> datetime | None:
    """When the earliest post still queued is due (a retry), or None."""
    return outbox_next(ChannelPost)
