"""Who made a change at a table, and what a result a table entered waits for: another seat's
confirmation (CONTRACT §3). The services that confirm, dispute and approve are with the table
links (services/tables.py); every write of a game asks `held` what to store."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tournament.services.game_data import Evaluated


@dataclass(frozen=True)
class AtTable:
    """Who made a change through a table link: the table, the seat the phone proved with that
    seat's code, and the phone (a random id its session holds; "" when unknown)."""

    table: int
    seat: int | None = None
    phone: str = ""


@dataclass(frozen=True)
class Held:
    """What to write for a result: the game as evaluated, or as still open while it waits,
    and the game's confirmation fields (Game.confirmation, submitted_seat, …)."""

    evaluated: Evaluated
    fields: dict[str, Any]


def held(table_entry: str, ev: Evaluated, at: AtTable | None) -> Held:
    """A result a table entered (`at`) at an event where tables enter results waits for
    another seat: the game stays open, out of the standings, the entering seat marked. What
    an organizer enters — or a confirmation, which passes no `at` — counts at once and clears
    any wait or dispute."""
    if at is not None and ev.finished and table_entry == "tables":
        waiting = {
            "confirmation": "waiting",
            "submitted_seat": at.seat,
            "submitted_phone": at.phone,
        }
        return Held(replace(ev, finished=False), waiting)
    cleared = {"confirmation": "", "submitted_seat": None, "submitted_phone": "", "dispute": ""}
    return Held(ev, cleared)
