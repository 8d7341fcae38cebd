"""The organizer's channels (issue 49): posts waiting for the chat rooms and mailboxes an
event names (`Event.channels`), queued in the transaction of the write they tell of and sent
by the task queue's worker with Web Push's messages (services/channel_send.py)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.events import Event, Round
from tournament.models.outbox import Outbox

POST_KINDS = [
    ("seated", _("round seated")),
    ("results", _("round's results")),
    ("final", _("final standings")),
]


class ChannelPost(Outbox):
    """One post to one of the event's channel URLs. Its words are made when it is sent, from
    what the round holds then; a URL the organizer has since removed is not posted to."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="+"
    )
    # The apprise URL (discord://…, tgram://…, mailto://…): it carries the channel's secret,
    # as Event.channels does; never shown on a public page.
    url = models.CharField(_("channel URL"), max_length=2000)
    kind = models.CharField(_("kind"), max_length=10, choices=POST_KINDS)
    # A seating taken back takes its post with it.
    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE)

    class Meta(Outbox.Meta):
        verbose_name = _("channel post")
        verbose_name_plural = _("channel posts")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=["seated", "results", "final"]),
                name="tournament_channelpost_kind_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of round {self.round_id}"
