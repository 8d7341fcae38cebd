"""Sign-up and the waiting list (issue 50, CONTRACT §8): an event's registration settings and
each player's sign-up (services/registration.py). A sign-up registered is an Entry of the
event too, so check-in on the day starts from the registered list."""

from __future__ import annotations

from datetime import timedelta

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from tournament.models.events import Event

# The states a sign-up goes through (issue 63: an address confirmed first). Unconfirmed: just
# made, its e-mail's link not opened yet — it holds no place, no number and no name, only its
# address (one live sign-up per address and event); a day later it is expired. Registered: an
# entry of the event. Waiting: the event is full, their place on the list by `position`.
# Pending: waiting for the organizer's yes (approval on), not yet counting toward the capacity.
# Withdrawn, refused and expired are kept (the log, the link still says what happened) but hold
# neither a place nor the name or e-mail.
UNCONFIRMED, REGISTERED, WAITING, PENDING, WITHDRAWN, REFUSED, EXPIRED = (
    "unconfirmed",
    "registered",
    "waiting",
    "pending",
    "withdrawn",
    "refused",
    "expired",
)
STATE_CHOICES = [
    (UNCONFIRMED, _("e-mail address not confirmed yet")),
    (REGISTERED, _("registered")),
    (WAITING, _("on the waiting list")),
    (PENDING, _("waiting for approval")),
    (WITHDRAWN, _("withdrawn")),
    (REFUSED, _("refused")),
    (EXPIRED, _("expired unconfirmed")),
]
# Confirmed sign-ups that hold something: a place, a number on the list, or the organizer's eye.
ACTIVE_STATES = (REGISTERED, WAITING, PENDING)
# An address is "used in the event" by these (CONTRACT §8: a second sign-up with it is answered
# as a first and its owner told); an unconfirmed one only until it expires.
ADDRESS_STATES = (*ACTIVE_STATES, UNCONFIRMED)
# An address not confirmed within this holds nothing (CONTRACT §8: "within a day").
CONFIRM_WITHIN = timedelta(days=1)


class Registration(models.Model):
    """An event's registration settings; no row: the event takes no sign-ups (a table of its
    own, so no page that never shows sign-ups reads these columns)."""

    event = models.OneToOneField(
        Event,
        verbose_name=_("event"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="registration",
    )
    open = models.BooleanField(_("registration open"), default=False)
    # None: no limit. Counted over the event's entries in play (pasted names too).
    capacity = models.PositiveIntegerField(_("capacity"), null=True, blank=True)
    approval = models.BooleanField(_("organizer approves each sign-up"), default=False)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")

    def __str__(self) -> str:
        return f"registration of {self.event_id}"


class SignUp(models.Model):
    """A player's sign-up: their name in its one spelling (scoring.names), e-mail, optional
    EMA number and country, where it stands, and the private link's token."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="signups"
    )
    name = models.CharField(_("name"), max_length=100)
    email = models.EmailField(_("e-mail"), max_length=254)  # stored in lower case
    ema_number = models.CharField(_("EMA number"), max_length=8, blank=True, default="")
    country = CountryField(_("country"), blank=True, default="")
    state = models.CharField(_("state"), max_length=12, choices=STATE_CHOICES)
    # The order of the waiting list (and of sign-ups): given under the event's lock, a new one
    # one past the last; a confirmation gives a new one, and so does an approval (the back of
    # the list), so the list is in the order the addresses were confirmed (CONTRACT §8).
    position = models.PositiveIntegerField(_("order"))
    # The private link /events/<slug>/register/<token>/: secrets.token_urlsafe(24), 192 bits.
    token = models.CharField(_("token"), max_length=64, unique=True)
    language = models.CharField(_("language"), max_length=2, default="en")  # of the e-mails
    # The site's address as the player reached it, for the link in later e-mails (moved up,
    # refused) sent by the queue, which has no request; settings.SITE_URL wins when set.
    site = models.CharField(_("site"), max_length=200, blank=True, default="")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # When the owner was last told by e-mail that their address was signed up again: a script
    # repeating one address sends them one such mail per 15 minutes, not one per try.
    told_again_at = models.DateTimeField(_("told of a sign-up again"), null=True, blank=True)

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        ordering = ["event", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "email"],
                condition=Q(state__in=ADDRESS_STATES),
                name="tournament_signup_unique_email_per_event",
            ),
            models.UniqueConstraint(
                fields=["event", "name"],
                condition=Q(state__in=ACTIVE_STATES),
                name="tournament_signup_unique_name_per_event",
            ),
            models.CheckConstraint(
                condition=Q(state__in=[s for s, _label in STATE_CHOICES]),
                name="tournament_signup_state_known",
            ),
        ]
        indexes = [
            models.Index(fields=["event", "state", "position"], name="tournament_signup_list")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.state})"
