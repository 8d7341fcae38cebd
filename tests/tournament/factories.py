"""Builders for tests: events and games made through the services, as users make them."""

from __future__ import annotations

from typing import Any

from tournament.models import Event, Game
from tournament.services.events import event_create
from tournament.services.games import game_record

PLAYERS = [f"P{i:02d}" for i in range(16)]


def make_event(
    *,
    slug: str = "e",
    ruleset: Any = "baba",
    format: str = "league",
    players: list[str] | None = None,
) -> Event:
    return event_create(
        name=f"Event {slug}",
        slug=slug,
        ruleset=ruleset,
        format=format,
        players=players if players is not None else PLAYERS[:8],
    )


def scores_game(
    event: Event,
    rnd: int,
    table: int,
    seats: list[str],
    scores: list[int] | None = None,
    **extra: Any,
) -> Game:
    data = {
        "round": rnd,
        "table": table,
        "seats": seats,
        "scores": scores or [40000, 30000, 20000, 10000],
        **extra,
    }
    return game_record(event=event, data=data)


def league_data(players: int, rounds: int) -> dict[str, Any]:
    """An event file: `players` players (a multiple of 4), every round fully played."""
    names = [f"Player {i:04d}" for i in range(players)]
    games = []
    for rnd in range(1, rounds + 1):
        shift = rnd * 3 % players
        order = names[shift:] + names[:shift]
        for t in range(players // 4):
            games.append(
                {
                    "round": rnd,
                    "table": t + 1,
                    "seats": order[4 * t : 4 * t + 4],
                    "scores": [42000, 31000, 17500, 9500],
                }
            )
    return {
        "name": "League",
        "slug": f"league-{players}-{rounds}",
        "ruleset": "baba",
        "format": "league",
        "players": names,
        "games": games,
    }
