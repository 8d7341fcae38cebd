"""Where one player stands in each of their events (a player's page), made for every player at
once where an event is ranked (selectors/standings.py) and kept in parts by name."""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from tournament.models import Event
from tournament.selectors.cache import shared_part
from tournament.selectors.published import published


@dataclass(frozen=True, slots=True)
class Placing:
    """Where one player stands in an event's published standings."""

    rank: int
    field: int  # how many are ranked
    status: str
    total: Decimal  # with penalties
    penalties: Decimal


# A player's page shows their place in each of their events, which any result may move; the
# places are made for every player at once, where the event is ranked, and kept in parts by
# name so that a page fetches one part (about 160 placings of 10,000) instead of ranking the
# event or unpickling every player's place. In the parts a place is a tuple of plain values
# (rank, field, status, total and penalties as text): 10,000 of them are pickled per version,
# and tuples of str pickle in C fifteen times faster than Placings with Decimals (62 → 4 ms).
PLACING_PARTS = 64
Kept = tuple[int, int, str, str, str]


def _placing_part(name: str) -> int:
    return zlib.crc32(name.encode()) % PLACING_PARTS


def published_placings(events: Iterable[tuple[int, str]], name: str) -> dict[int, Placing]:
    """Where `name` stands in each of `events` — (id, stamp) pairs — by event id; an event
    where they are not ranked (a substitute) is left out. No query while the parts of
    those versions are in the shared cache; otherwise the event and its standings."""
    part = _placing_part(name)
    out = {}
    for event_id, stamp in events:
        placings = shared_part("placings", stamp, part, lambda pk=event_id: _placings_of(pk))
        kept = placings.get(name)
        if kept is not None:
            rank, field, status, total, penalties = kept
            out[event_id] = Placing(rank, field, status, Decimal(total), Decimal(penalties))
    return out


def _placings_of(event_id: int) -> dict[int, dict[str, Kept]]:
    # The event as it is now: never older than the stamp the parts are kept under.
    event = Event.objects.select_related("venue").filter(pk=event_id).first()
    parts: dict[int, dict[str, Kept]] = {n: {} for n in range(PLACING_PARTS)}
    if event is None:  # deleted since the page read its events: nobody stands anywhere
        return parts
    rows = published(event).standings.rows
    field = len(rows)
    for row in rows:
        kept = (row.rank, field, row.status, str(row.total), str(row.penalties))
        parts[_placing_part(row.player)][row.player] = kept
    return parts
