"""What the site sends beside the requests (issue 49): the columns every queued send shares —
a player's push message (models/push.py Notification), a post to the organizer's channels
(models/channels.py ChannelPost) — taken, retried and settled by one sender loop
(services/outbox_send.py)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Outbox(models.Model):
    """A send waiting for the task queue's worker: due at `due_at` (a later time while a sender
    holds it: its lease), tried `attempts` times so far."""

    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    due_at = models.DateTimeField(_("due at"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        abstract = True
        indexes = [
            # The sender takes what is due, oldest first (due_at <= now ORDER BY due_at).
            models.Index(fields=["due_at"], name="%(app_label)s_%(class)s_due"),
        ]
