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


def baba_day(
    *,
    slug: str = "baba-day",
    played: int = 8,
    undo: int = 0,
    close_qualifier: bool = False,
    seat_next: bool = False,
    names: dict[str, str] | None = None,
) -> Event:
    """The demo's Baba day (16 players, qualifier 1–6, final 7–8) at a moment of the day: the
    games of rounds 1 to `played` recorded; then `undo` hands taken back from the latest
    hand-by-hand game (it plays on: `undo=1` at the final's last hand, its conditions shown);
    the qualifier closed; the next round seated (nobody playing yet). `names` renames players
    (the demo's name → another), e.g. to put the longest names seen at the final's table."""
    import copy
    import random

    from tournament.demo import baba_event
    from tournament.services.hands import game_hand_undo
    from tournament.services.imports import event_import
    from tournament.services.rounds import round_seat
    from tournament.services.stages import stage_close

    data = copy.deepcopy(baba_event())
    data["slug"] = slug
    data["games"] = [g for g in data["games"] if g["round"] <= played]
    if names:
        data["players"] = [names.get(p, p) for p in data["players"]]
        for g in data["games"]:
            g["seats"] = [names.get(p, p) for p in g["seats"]]
    event = event_import(data)
    if undo:
        game = Game.objects.filter(round__event=event, mode="hands").order_by("-round__number")[0]
        for _ in range(undo):
            game.refresh_from_db()
            game_hand_undo(game=game, expected_version=game.version)
    if close_qualifier:
        stage_close(event=event, stage=event.stages.order_by("position")[0])
    if seat_next:
        round_seat(event=event, rng=random.Random(1))
    event.refresh_from_db()
    return event


def signed_up(event: Event, name: str, email: str | None = None, **more: Any) -> Any:
    """A sign-up made and its address confirmed, as a player does by opening the link mailed
    to them (CONTRACT §8: only then it counts). Returns the SignUp as it stands after."""
    from tournament.services.registration import signup_confirm, signup_create

    email = email or f"{name.lower().replace(' ', '.')}@example.org"
    signup = signup_create(event=event, name=name, email=email, **more)
    signup_confirm(signup=signup)
    signup.refresh_from_db()
    return signup


def finish_demo_final() -> Event:
    """The demo's Baba day played to its end: `load_demo` leaves the final at its last hand
    (a moment of a real day); this plays that hand as the demo's data has it, and closes the
    final — the champion decided."""
    from tournament.demo import baba_event
    from tournament.services.hands import game_hand_add
    from tournament.services.stages import stage_close

    event = Event.objects.get(slug="baba-demo")
    (last,) = [g for g in baba_event()["games"] if g["round"] == 8]
    game = Game.objects.get(round__event=event, round__number=8)
    game_hand_add(game=game, hand=last["hands"][-1], expected_version=game.version)
    stage_close(event=event, stage=event.stages.order_by("position").last())
    event.refresh_from_db()
    return event
