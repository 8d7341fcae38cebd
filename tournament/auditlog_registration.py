"""Sign-up's lines in the change log (issue 50), in the reader's language: who signed up and
where they stand, who withdrew and who moved up, approvals, refusals, moves on the waiting
list, the settings. Its own module beside auditlog.py, which calls it for every `signup.*`
action."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournament.models.registration import STATE_CHOICES


def _names(names: Sequence[Any]) -> str:
    return _(", ").join(str(n) for n in names)


def _moved(after: Any) -> str:
    moved = (after or {}).get("moved_up") or []
    return _("; moved up: %(names)s") % {"names": _names(moved)} if moved else ""


def signup_sentence(action: str, before: Any, after: Any) -> str | None:
    """The sentence of a `signup.*` entry, or None (then its English summary shows)."""
    states = dict(STATE_CHOICES)
    if action == "signup.create" and after:
        state = str(states.get(after.get("state"), after.get("state")))
        return _("%(player)s signed up: %(state)s") % {
            "player": after.get("player"),
            "state": state,
        }
    if action == "signup.withdraw" and before:
        return _("%(player)s withdrew") % {"player": before.get("player")} + _moved(after)
    if action == "signup.approve" and after:
        return _("Approved: %(names)s") % {"names": _names(after)}
    if action == "signup.refuse" and before:
        return _("Refused: %(player)s") % {"player": before.get("player")}
    if action == "signup.move" and before and after:
        return _("%(player)s moved on the waiting list: place %(was)s → %(now)s") % {
            "player": after.get("player"),
            "was": before.get("place"),
            "now": after.get("place"),
        }
    if action == "signup.settings" and after:
        capacity = after.get("capacity")
        words = [
            _("registration open") if after.get("open") else _("registration closed"),
            _("capacity %(n)s") % {"n": capacity} if capacity else _("no capacity limit"),
            _("approval on") if after.get("approval") else _("approval off"),
        ]
        return _names(words) + _moved(after)
    return None
