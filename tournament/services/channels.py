"""The organizer's channels (issue 49): an event's chat rooms and mailboxes, named by apprise
URLs (github.com/caronc/apprise, BSD-2-Clause: Discord, Slack, Telegram, e-mail and a
hundred more through one library), and the posts queued for them — in the transaction of the
write they tell of, sent by the task queue's worker beside Web Push's messages
(services/channel_send.py; tasks.py), never from the organizer's request.

Posted: each round's seating when it is seated, each round's results when its last table
finishes, and the final standings when the event's last round does (the last round a stage
or the seating plan names) — or, for an event that names none, when its last stage is
closed. The words are made when a post is sent, in the language the
organizer chose for the event's posts.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournament.models import ChannelPost, Event, Game, Round, SeatingPlan, Stage
from tournament.public_hosts import address_named, address_public, host_addresses
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError
from tournament.services.locks import event_lock
from tournament.services.queue import enqueue_on_commit

CHANNELS_MOST = 10  # an event's channels: a club's Discord, a Telegram group, a mailbox or two
URL_MOST = 2000  # ChannelPost.url's column
LANGUAGES = ("ja", "en")


# The services that post to hosts of their own whatever the URL says (apprise 2.3's plugins:
# discord.com/api/webhooks, hooks.slack.com or slack.com/api, api.telegram.org): the URL's
# "host" is a token there, not a machine.
OWN_HOSTS = frozenset({"discord", "slack", "tgram"})
# apprise's options that have the sender read a file of this machine or fetch another address:
# Discord's, Slack's and Telegram's message template (a path or a URL, read when posting) and
# e-mail's PGP (key files, keys made in a folder, or fetched from the recipient's domain: WKD).
OPTIONS_REFUSED = ("template", "pgp", "pgppub", "pgpprv", "wkd")


def channel_plugin(url: str) -> Any | None:
    """apprise's notifier for the URL, or None when apprise knows no service by it or the URL
    lacks what the service needs (its tokens)."""
    import apprise  # only the organizer's screen and the sender load it

    return apprise.Apprise.instantiate(url)


def _protocols(plugin: Any) -> list[str]:
    """The names a notifier's service goes by ("mailtos", "mailto")."""
    names: list[str] = []
    for protocol in (plugin.secure_protocol, plugin.protocol):  # a str, a tuple, or None
        names += [protocol] if isinstance(protocol, str) else list(protocol or ())
    return names


def channel_kind(url: str) -> str | None:
    """The apprise service a URL names ("discord", "slack", "tgram", "mailto", "json", …; a
    pasted https://discord.com/api/webhooks/… or https://hooks.slack.com/… too), "" for a
    service the site does not post to (settings.CHANNEL_SERVICES), or None if apprise knows
    no service by it or the URL lacks what the service needs (its tokens)."""
    return _kind(channel_plugin(url))


def _kind(plugin: Any | None) -> str | None:
    """channel_kind of apprise's notifier for a URL."""
    if plugin is None:
        return None
    names = _protocols(plugin)
    known = [n for n in names if n in set(settings.CHANNEL_SERVICES)]
    return known[0] if known else ("" if names else None)


def channel_hosts(plugin: Any) -> list[str]:
    """The hosts a post through `plugin` connects to, as its URL names them: e-mail's mail
    server (the URL's host, its `smtp=`, or the server apprise knows for the provider:
    gmail.com → smtp.gmail.com); the URL's host for a service that posts there (json://);
    none for the services with hosts of their own (OWN_HOSTS)."""
    smtp = getattr(plugin, "smtp_host", None)
    if isinstance(smtp, str):
        return [smtp]
    if OWN_HOSTS & set(_protocols(plugin)):
        return []
    return [str(plugin.host or "")]


def channel_refusal(url: str, plugin: Any) -> tuple[str, dict[str, str]] | None:
    """Why the site does not post to `url` (`plugin`: apprise's notifier for it), as an error
    code and its params, or None: an option that reads a file or another address
    ("channel.option"); a host that is not a public machine, by number ("channel.address") or
    by an address its name leads to now ("channel.resolves"); a host with no address now
    ("channel.no_address"). Resolves names: as slow as the resolver."""
    from apprise.utils.parse import parse_url

    options = (parse_url(url, verify_host=False) or {}).get("qsd") or {}  # keys lower-cased
    for option in OPTIONS_REFUSED:
        if option in options:
            return "channel.option", {"option": option}
    loopback = settings.CHANNEL_LOCAL
    # Any service's host that reads as an address must be a public one, even where it is a
    # token and never connected to (discord://127.0.0.1/…): nobody means it.
    named = address_named(str(plugin.host or ""))
    if named is not None and not address_public(named, loopback=loopback):
        return "channel.address", {"host": str(plugin.host)}
    for host in channel_hosts(plugin):
        try:
            addresses = host_addresses(host)
        except OSError:
            return "channel.no_address", {"host": host}
        for address in addresses:
            if address_public(address, loopback=loopback):
                continue
            if address_named(host) == address:
                return "channel.address", {"host": host}
            return "channel.resolves", {"host": host, "address": str(address)}
    return None


class ChannelLinesError(ServiceError):
    """Every line of the channels typed that is refused, each its own error (`errors`): the
    screen names them all at once rather than one a save. It reads as the first."""

    def __init__(self, errors: list[ServiceError]) -> None:
        first = errors[0]
        super().__init__(first.code, first.field, **first.params)
        self.errors = errors


def _line_error(number: int, url: str) -> ServiceError | None:
    """Why the URL on line `number` is refused, or None."""
    if len(url) > URL_MOST:
        return ServiceError("channel.long", "channels", line=number, most=URL_MOST)
    plugin = channel_plugin(url)
    kind = _kind(plugin)
    if kind is None:
        return ServiceError("channel.unknown", "channels", line=number)
    if not kind:
        services = ", ".join(settings.CHANNEL_SERVICES)
        return ServiceError("channel.service", "channels", line=number, services=services)
    refusal = channel_refusal(url, plugin)
    if refusal is not None:
        code, params = refusal
        return ServiceError(code, "channels", line=number, **params)
    return None


def channels_parse(text: str) -> list[str]:
    """The URLs typed, one a line (blank lines skipped, each once); a ChannelLinesError
    naming the line of every one that apprise does not know or the site does not post to."""
    urls: list[str] = []
    errors: list[ServiceError] = []
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)]
    for number, url in lines:
        if not url or url in urls:
            continue
        error = _line_error(number, url)
        if (
            error is not None
            and error.code == "channel.unknown"
            and any(e.code == error.code for e in errors)
        ):
            error = ServiceError("channel.unknown_again", "channels", line=number)
        if error is not None:
            errors.append(error)
        else:
            urls.append(url)
    if len(urls) > CHANNELS_MOST:
        errors.append(ServiceError("channel.many", "channels", most=CHANNELS_MOST))
    if errors:
        raise ChannelLinesError(errors)
    return urls


@transaction.atomic
def channels_set(
    *, event: Event, urls: list[str], language: str, site: str, user: Any = None
) -> Event:
    """The event's channels, replacing what was there (none: nothing is posted), the language
    of its posts and the site's address its links start with. Posts still queued for a URL
    removed are dropped. Logged by the services named, never the URLs (their secrets)."""
    if language not in LANGUAGES:
        raise ServiceError("push.language", "language")
    event_lock(event.pk)
    before = {"services": [channel_kind(u) for u in channel_urls(event)]}
    event.channels = {"urls": urls, "language": language, "site": site.rstrip("/")}
    Event.objects.filter(pk=event.pk).update(channels=event.channels)
    ChannelPost.objects.filter(event=event).exclude(url__in=urls).delete()
    services = [channel_kind(u) or "?" for u in urls]
    change_record(
        event=event,
        user=user,
        action="channels.set",
        summary=f"{len(urls)} channels ({', '.join(services)}), posts in {language}",
        before=before,
        after={"services": services, "language": language},
    )
    return event


def channel_urls(event: Event) -> list[str]:
    """The event's channel URLs (none when it names none)."""
    urls = (event.channels or {}).get("urls") or []
    return [u for u in urls if isinstance(u, str)]


# --- queued in the writes' transactions ---------------------------------------------------


def _queue(event: Event, rnd_id: int, kinds: list[str]) -> int:
    """A post of each kind to each of the event's channels, and the sender queued: one query
    (none when the event names no channel)."""
    now = timezone.now()
    rows = [
        ChannelPost(event_id=event.pk, url=url, kind=kind, round_id=rnd_id, due_at=now)
        for kind in kinds
        for url in channel_urls(event)
    ]
    if rows:
        ChannelPost.objects.bulk_create(rows)
        enqueue_on_commit("notifications_send_task")  # the sender, to find the rows
    return len(rows)


def channels_round_seated(event: Event, rnd: Round) -> int:
    """Round `rnd` was seated (round_seat): its tables posted. No query when the event names
    no channel."""
    return _queue(event, rnd.pk, ["seated"]) if channel_urls(event) else 0


def _last_round(event: Event) -> int | None:
    """The event's last round as its stages or its seating plan name it, or None (the event
    has not said how many rounds it plays). Two queries."""
    ends = Stage.objects.filter(event=event, last_round__isnull=False)
    stage_last = max(ends.values_list("last_round", flat=True), default=None)
    plan = SeatingPlan.objects.filter(event=event).values_list("rounds", flat=True).first()
    plan_last = len(plan) if isinstance(plan, list) and plan else None
    known = [n for n in (stage_last, plan_last) if n]
    return max(known) if known else None


def channels_results_told(
    event: Event, games: list[Game], before: dict[int, tuple[Any, ...]]
) -> int:
    """After a change of results (services/game_change.py), from each game as it was
    (`before`: finished first) and as it is now: the last table of a round to finish posts
    the round's results, and the final standings when it is the event's last round. No query
    when the event names no channel."""
    if not channel_urls(event):
        return 0
    queued = 0
    done: set[int] = set()
    for game in games:
        was_finished = bool(before.get(game.pk, (False,))[0])
        if not game.finished or was_finished or game.round_id in done:
            continue
        done.add(game.round_id)
        if Game.objects.filter(round_id=game.round_id, finished=False).exists():
            continue
        kinds = ["results"]
        last = _last_round(event)
        if last is not None and game.round.number >= last:
            kinds.append("final")
        queued += _queue(event, game.round_id, kinds)
    return queued


def channels_stage_closed(event: Event, stage: Stage) -> int:
    """The event's last stage was closed (stage_close): the final standings posted, when the
    event did not say its last round beforehand (a league without a plan), whose last table
    would have posted them already. No query when the event names no channel."""
    if not channel_urls(event):
        return 0
    stages = Stage.objects.filter(event=event).order_by("-position")
    if stages.values_list("pk", flat=True).first() != stage.pk or _last_round(event) is not None:
        return 0
    last = Round.objects.filter(event=event).order_by("-number").values_list("pk", flat=True)
    rnd_id = last.first()
    return _queue(event, rnd_id, ["final"]) if rnd_id is not None else 0
