"""Failed log-ins, kept a short while so that guessing passwords gets nowhere."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class LoginFailure(models.Model):
    # In the database, not a per-process cache: every gunicorn worker sees the same count.
    username = models.CharField(_("username"), max_length=150)
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("failed log-in")
        verbose_name_plural = _("failed log-ins")
        indexes = [
            models.Index(fields=["username", "at"], name="tournament_loginfail_user_at"),
            models.Index(fields=["address", "at"], name="tournament_loginfail_addr_at"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.username} from {self.address}"
