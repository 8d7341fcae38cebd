"""Players' statistics from hand records (CONTRACT §4 "Statistics"; the counting is the
engine's, scoring/statistics.py). Two queries each, however many players, games and hands:

1. the seats of finished hand-by-hand games (who sat where);
2. those games' hands (the input, the dealer, the score changes).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring.statistics import Tally
from tournament.models import Event, Hand, Player, Seat


@dataclass
class PlayerStatistics:
    player: str
    player_id: int
    tally: Tally


def _tallies(seats: list[tuple[int, int, int]], hands: list[tuple]) -> dict[int, Tally]:
    """Per key: `seats` are (game_id, position, key); `hands` (game_id, data, dealer, deltas)."""
    at: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for game_id, position, key in seats:
        at[game_id].append((position, key))
    tallies: dict[int, Tally] = defaultdict(Tally)
    for game_id, data, dealer, deltas in hands:
        for position, key in at.get(game_id, ()):
            tallies[key].add(position, data, dealer, deltas)
    return tallies


def _hands(**where: object) -> list[tuple]:
    """The hands of finished hand-by-hand games matching `where`."""
    return list(
        Hand.objects.filter(game__finished=True, game__mode="hands", **where)
        .order_by()
        .values_list("game_id", "data", "dealer", "deltas")
    )


def event_statistics(event: Event) -> list[PlayerStatistics]:
    """Every player of the event who sat at a finished game, by name; a player whose games
    were all kept as final scores has `hands: 0`."""
    seats = list(
        Seat.objects.filter(round__event=event, game__finished=True)
        .order_by()
        .values_list("game_id", "position", "player_id", "player__name")
    )
    names = {player_id: name for _g, _p, player_id, name in seats}
    tallies = _tallies([(g, p, i) for g, p, i, _n in seats], _hands(game__round__event=event))
    return sorted(
        (PlayerStatistics(name, pid, tallies.get(pid) or Tally()) for pid, name in names.items()),
        key=lambda s: s.player,
    )


def player_statistics(player: Player) -> tuple[dict[int, Tally], Tally]:
    """The player's statistics per event (by event id) and over every event."""
    seats = list(
        Seat.objects.filter(player=player, game__finished=True)
        .order_by()
        .values_list("game_id", "position", "round__event_id")
    )
    per_event = dict(_tallies(seats, _hands(game__seats__player=player)))
    for _g, _p, event_id in seats:
        per_event.setdefault(event_id, Tally())
    overall = Tally()
    for tally in per_event.values():
        overall.merge(tally)
    return per_event, overall


MIN_HANDS = 20  # statistics over fewer hands say little: such players are listed apart


def fitting_minimum(hands: list[int]) -> int:
    """The minimum a statistics page starts from: half the hands of the median player who has
    any, and never more than MIN_HANDS — so at least half the players with hands are ranked.
    A fixed 20 hid everyone after a one-day event of two hanchan (issue 32)."""
    played = sorted(h for h in hands if h)
    if not played:
        return 0
    return min(MIN_HANDS, played[(len(played) - 1) // 2] // 2)
