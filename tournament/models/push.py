"""Web Push to players' phones (issue 49, CONTRACT §7): a browser's subscription for a player
at an event, and the outbox of messages waiting to be sent to it (services/push.py)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.events import Event, Round
from tournament.models.games import Game
from tournament.models.outbox import Outbox
from tournament.models.venues import Player

LANGUAGE_CHOICES = [("ja", _("Japanese")), ("en", _("English"))]
KIND_CHOICES = [
    ("seated", _("round seated")),
    ("confirm", _("result waits for confirmation")),
    ("finished", _("round finished")),
]


class PushSubscription(models.Model):
    """A browser's push subscription (the Push API's endpoint and keys) for a player of an
    event: no account, as the find-your-seat page needs none. A 404 or 410 from the push
    service deletes it; so does the page's "Stop notifications", and the sender finding it
    one the site refuses (services/push_send.py). No other browser's row ever does."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+"
    )
    # The push service's URL for this browser (RFC 8030): an unguessable capability, and what
    # names the subscription when the page stops it. Services' URLs run to ~200 characters.
    endpoint = models.CharField(_("endpoint"), max_length=1000)
    p256dh = models.CharField(_("public key"), max_length=100)  # RFC 8291's ua_public
    auth = models.CharField(_("auth secret"), max_length=50)  # RFC 8291's auth_secret
    language = models.CharField(_("language"), max_length=2, choices=LANGUAGE_CHOICES)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        constraints = [
            # One player per browser at an event: asking again (another player on the same
            # phone, new keys) replaces the row.
            models.UniqueConstraint(
                fields=["event", "endpoint"], name="tournament_pushsubscription_unique_endpoint"
            ),
        ]
        indexes = [
            # Seating a round reads the subscriptions of the players seated (event, player).
            models.Index(fields=["event", "player"], name="tournament_pushsub_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.event}"


class Notification(Outbox):
    """A message waiting for a subscription, written in the transaction of the write it tells
    of (a round seated, a result waiting, a round finished) and sent by the task queue's
    worker; its words are made when it is sent, from what the round holds then."""

    subscription = models.ForeignKey(
        PushSubscription,
        verbose_name=_("subscription"),
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    kind = models.CharField(_("kind"), max_length=10, choices=KIND_CHOICES)
    # A seating taken back takes its messages with it; a game removed, its confirmation's.
    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE)
    game = models.ForeignKey(
        Game, verbose_name=_("game"), null=True, blank=True, on_delete=models.CASCADE
    )

    class Meta(Outbox.Meta):
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=["seated", "confirm", "finished"]),
                name="tournament_notification_kind_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.subscription_id}"
