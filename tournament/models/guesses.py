"""Limits on wrong guesses earned, kept past a Redis restart (services/throttle.py)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class GuessLock(models.Model):
    """A count of wrong guesses that filled its limit, until its window ends. The counts live
    in Redis; this row is written once, by the first try the full count refuses, so a Redis
    restart that forgot the count does not lift the lock (issue 44)."""

    key = models.CharField(_("count"), max_length=80)  # throttle._key: kind, who, a hash
    until = models.DateTimeField(_("until"))
    # The network when the count was an address's (the backstop of codes typed in a hall), as
    # throttle.client_network writes it — an IPv4 address or an IPv6 /64 (`2001:db8:1:2::/64`,
    # at most 43 characters): the organizer's dashboard names it and can lift it. None for a
    # phone's.
    address = models.CharField(_("network"), max_length=43, null=True, blank=True)

    class Meta:
        verbose_name = _("guess lock")
        verbose_name_plural = _("guess locks")
        constraints = [
            # One row per count: a lock earned again replaces its row (update_or_create).
            models.UniqueConstraint(fields=["key"], name="tournament_guesslock_unique_key"),
        ]
        indexes = [
            # After a Redis restart every unexpired lock is loaded (until > now); the
            # dashboard lists held networks the same way; a new lock prunes until <= now.
            models.Index(fields=["until"], name="tournament_guesslock_until"),
        ]

    def __str__(self) -> str:
        return f"{self.key} until {self.until:%H:%M}"
