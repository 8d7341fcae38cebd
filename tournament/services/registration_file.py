"""An event file's `"registration": {"open": true, "capacity": 16, "approval": false}` (CONTRACT
§2, §8): read by import_event (every key checked, naming `registration.<key>`) and written by
export_event. The file's `players` are those already registered; sign-ups themselves (e-mail
addresses) are never in a file that may be shared."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournament.models import Event
from tournament.models.registration import Registration
from tournament.services.errors import ServiceError
from tournament.services.registration import check_capacity

KEYS = ("open", "capacity", "approval")


def registration_read(raw: Any) -> dict[str, Any] | None:
    """The file's settings checked, or None when the file has none."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ServiceError("value.object", "registration")
    out: dict[str, Any] = {"open": False, "capacity": None, "approval": False}
    for key, value in raw.items():
        field = f"registration.{key}"
        if key not in KEYS:
            raise ServiceError("value.unknown_key", field, known=", ".join(KEYS))
        if key == "capacity":
            if isinstance(value, str):  # a number as text is not a capacity in a file
                raise ServiceError("signup.capacity", field)
            out[key] = check_capacity(value, field)
        elif isinstance(value, bool):
            out[key] = value
        else:
            raise ServiceError("value.bool", field)
    return out


def registration_write(event: Event, settings: dict[str, Any] | None, registered: int) -> None:
    """The settings of an imported event (its players registered already, `registered` of
    them): a capacity below that is refused naming how many, as on the organizer's screen."""
    if settings is None:
        return
    capacity = settings["capacity"]
    if capacity is not None and capacity < registered:
        raise ServiceError("signup.capacity_below", "registration.capacity", count=registered)
    Registration.objects.update_or_create(event=event, defaults=settings)


def registration_export(event: Event) -> dict[str, Any] | None:
    """The settings as a file holds them, or None for an event that never took sign-ups."""
    row = Registration.objects.filter(event=event).values(*KEYS).first()
    return dict(row) if row else None
