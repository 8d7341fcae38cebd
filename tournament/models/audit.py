"""The audit log: every change an organizer makes, with what it was before and after."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.events import Event


class AuditEntry(models.Model):
    event = models.ForeignKey(
        Event,
        verbose_name=_("event"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="audit_entries",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    # A change made through a table link, not by a signed-in user: the table and, when the
    # phone said who it was, the seat.
    at_table = models.PositiveSmallIntegerField(_("at table"), null=True, blank=True)
    at_seat = models.PositiveSmallIntegerField(_("at seat"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=40)
    summary = models.CharField(_("summary"), max_length=300)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        indexes = [
            # The organizer's log page lists one event's changes, newest first.
            models.Index(fields=["event", "-created_at"], name="tournament_audit_event_time"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"
