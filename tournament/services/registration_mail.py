"""The e-mails of sign-up (issue 50, CONTRACT §8), through Django's mail (settings.EMAIL_*;
the console backend in `make demo`). Queued by the write that calls for one (services/queue.py)
and sent by the task queue's worker (tasks.registration_mail_task), so the request never waits
on a mail server; the words are made when it is sent, from what the sign-up holds then, in the
language the player signed up in.

Web Push's outbox (models/push.py) is for a browser's subscription and a round: an e-mail to a
sign-up is neither, so the task queue carries it directly, as the ratings' replay is."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournament.services.registration import signup_expired, waiting_place

# signed: the link that confirms a new sign-up; again: the address was signed up again (to its
# owner, with their link — CONTRACT §8); the rest follow the organizer's or the list's moves.
KINDS = ("signed", "again", "moved", "approved", "refused", "withdrawn")


def signup_link(signup) -> str:
    """The private link, whole: the site's address (SITE_URL, else the one the player used)."""
    base = (getattr(settings, "SITE_URL", "") or signup.site or "").rstrip("/")
    return base + reverse("signup-entry", args=[signup.event.slug, signup.token])


def _state_line(signup, place: int | None) -> str:
    if signup_expired(signup):
        return _(
            "This sign-up has expired: its address was not confirmed within a day, and it holds "
            "no place. To take part, sign up again while sign-ups are open."
        )
    if signup.state == "unconfirmed":
        return _(
            "To confirm your sign-up, open the link below within a day: only then does it count "
            "— it takes a place, or a number on the waiting list, in the order addresses are "
            "confirmed."
        )
    if signup.state == "registered":
        return _("You are registered.")
    if signup.state == "waiting":
        return _(
            "The event is full: you are number %(place)d on the waiting list. If a place comes "
            "free, you move up and we write to you."
        ) % {"place": place or 0}
    if signup.state == "pending":
        return _("The organizer confirms each sign-up: we write to you when they have.")
    # The mail is written when the worker sends it: a sign-up withdrawn or refused meanwhile
    # says so rather than leave the sentence out.
    return _("This entry is withdrawn.")


def _then(first: str, second: str) -> str:
    """Two sentences in a row: a space between in English, none in Japanese (「。」 ends one)."""
    return _("%(first)s %(second)s") % {"first": first, "second": second}


def _where(event) -> str:
    """When and where: the date where it was given (`held_on_given`: the event form, its
    settings or a file — else `held_on` is only the day it was made, issue 66) and the venue
    where it names one, a line each ("" for neither)."""
    lines = []
    if event.held_on_given:
        lines.append(_("Date: %(date)s") % {"date": date_format(event.held_on, "DATE_FORMAT")})
    if event.venue_id:
        lines.append(_("Venue: %(venue)s") % {"venue": event.venue.name})
    return "\n".join(lines)


def mail_text(signup, kind: str) -> tuple[str, str]:
    """(subject, body) of the e-mail of `kind`, in the active language."""
    event = signup.event.name
    link = signup_link(signup)
    if signup.state == "unconfirmed":  # opening the link confirms it (signup_confirm)
        see = _("To confirm, see or withdraw your sign-up: %(link)s") % {"link": link}
    else:
        see = _("Your entry, and to withdraw it: %(link)s") % {"link": link}
    if kind == "refused":
        subject = _("%(event)s: your sign-up") % {"event": event}
        body = _(
            "Dear %(name)s,\n\nThank you for signing up for %(event)s. We are sorry: the "
            "organizer could not take your sign-up this time. We hope to see you at another "
            "event."
        ) % {"name": signup.name, "event": event}
        return subject, body
    hello = _("Dear %(name)s,") % {"name": signup.name}
    if kind == "withdrawn":
        # The player withdrew from their link: a line saying it went through, nothing more.
        subject = _("%(event)s: your entry is withdrawn") % {"event": event}
        lead = _(
            "Your entry for %(event)s is withdrawn, as you asked. To play after all, sign up "
            "again while sign-ups are open."
        ) % {"event": event}
        return subject, f"{hello}\n\n{lead}\n"
    if kind == "moved":
        subject = _("%(event)s: you have a place") % {"event": event}
        lead = _("A place came free: you are registered for %(event)s.") % {"event": event}
    elif kind == "again":
        # Someone signed this address up again: its owner hears of it, and where they stand;
        # the stranger who typed it saw only "check your mail".
        subject = _("%(event)s: your address was signed up again") % {"event": event}
        lead = _(
            "Someone — perhaps you — signed up for %(event)s again with this e-mail address. "
            "Nothing has changed: a second sign-up with one address is not made."
        ) % {"event": event}
        lead = _then(lead, _state_line(signup, waiting_place(signup)))
    elif kind == "approved":
        subject = _("%(event)s: your sign-up is confirmed") % {"event": event}
        lead = _("The organizer confirmed your sign-up for %(event)s.") % {"event": event}
        lead = _then(lead, _state_line(signup, waiting_place(signup)))
    elif signup.state == "unconfirmed":
        subject = _("%(event)s: confirm your sign-up") % {"event": event}
        lead = _("Thank you for signing up for %(event)s.") % {"event": event}
        lead = _then(lead, _state_line(signup, None))
    else:
        subject = _("%(event)s: your sign-up") % {"event": event}
        lead = _("Thank you for signing up for %(event)s.") % {"event": event}
        lead = _then(lead, _state_line(signup, waiting_place(signup)))
    where = _where(signup.event)
    if where:
        lead += "\n" + where
    keep = _("Keep this e-mail: the link is yours only.")
    if signup.state == "unconfirmed":  # the address may have been typed by someone else
        keep += "\n" + _(
            "If you did not sign up, ignore this e-mail: a sign-up not confirmed expires in a "
            "day and holds nothing."
        )
    return subject, f"{hello}\n\n{lead}\n\n{see}\n{keep}\n"


def mail_send(signup_id: int, kind: str) -> bool:
    """Send the e-mail of `kind` to the sign-up; False if it is gone or the kind unknown."""
    from tournament.models import SignUp

    signup = SignUp.objects.select_related("event__venue").filter(pk=signup_id).first()
    if signup is None or kind not in KINDS or not signup.email:  # an expired one forgot it
        return False
    with translation.override(signup.language):
        subject, body = mail_text(signup, kind)
    send_mail(subject, body, None, [signup.email])
    return True
