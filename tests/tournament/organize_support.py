"""Helpers for the organizer-screen tests: users with and without rights, and form posts."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournament.models import Event, Game


def make_user(username: str, **extra: Any) -> Any:
    return get_user_model().objects.create_user(username, f"{username}@example.com", "pw", **extra)


def organizer_for(event: Event, username: str = "org") -> Any:
    user = make_user(username)
    event.organizers.add(user)
    return user


def logged_in(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def scores_post(game: Game, scores: list[int], **extra: Any) -> dict[str, Any]:
    """The final-scores form as a browser sends it, for a seated game."""
    seats = list(game.seats.select_related("player").order_by("position"))
    data: dict[str, Any] = {"version": game.version, "deposits": 0}
    for seat, score in zip(seats, scores, strict=True):
        data[f"seat_{seat.position}"] = seat.player.name
        data[f"score_{seat.position}"] = score
    for k in range(2):
        data.update({f"yk{k}_kind": "tsumo", f"yk{k}_count": 1})
    data.update(extra)
    return data


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def text(response: Any) -> str:
    return response.content.decode()
