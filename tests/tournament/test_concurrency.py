"""Two requests at once on PostgreSQL (issue 11, finding 6): the second of two simultaneous
taps arrives while the first is still inside its transaction, its rows written but not yet
committed — the moment a check-then-insert lets both through. Each pair must end with one
write and two clean answers, never a 500.

SQLite has one writer at a time (the second waits for the file lock), so these run on
PostgreSQL only; `make test` runs the suite on both."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from tests.tournament.factories import PLAYERS, make_event
from tests.tournament.organize_support import logged_in, organizer_for, scores_post, url
from tournament.models import Entry, Event, Game, Round
from tournament.services import changes

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL runs writers at once"),
]
HOLD = 1.0  # seconds the first request stays in its transaction after writing


def race(monkeypatch: pytest.MonkeyPatch, send: Callable[[], Any]) -> list[int]:
    """`send` twice: the second starts once the first is about to commit, which it then does
    only HOLD seconds later. Returns both status codes, first request first."""
    inside = threading.Event()
    touch = changes.event_touch
    held = threading.Lock()

    def slow_touch(event_id: int, **how: Any) -> None:
        touch(event_id, **how)  # the last write of every service, inside its transaction
        if held.acquire(blocking=False):  # only the first request waits
            inside.set()
            time.sleep(HOLD)

    monkeypatch.setattr(changes, "event_touch", slow_touch)
    answers: dict[str, int] = {}

    def run(name: str) -> None:
        try:
            answers[name] = send().status_code
        finally:
            connections.close_all()

    first = threading.Thread(target=run, args=("first",))
    first.start()
    assert inside.wait(30), "the first request never reached its write"
    second = threading.Thread(target=run, args=("second",))
    second.start()
    first.join(60)
    second.join(60)
    return [answers["first"], answers["second"]]


def test_seat_a_round_twice_at_once(monkeypatch):
    event = make_event(slug="race-seat")
    client = logged_in(organizer_for(event))
    codes = race(
        monkeypatch,
        lambda: client.post(url("round-new", event.slug), {"method": "random", "round": "1"}),
    )
    assert codes == [302, 302]
    assert list(Round.objects.filter(event=event).values_list("number", flat=True)) == [1]


def test_new_event_twice_at_once(monkeypatch):
    client = logged_in(get_user_model().objects.create_superuser("boss", "b@example.com", "pw"))
    form = {"name": "Race cup", "rules": "preset:baba", "format": "league", "players": "A\nB"}
    codes = race(monkeypatch, lambda: client.post(url("event-new"), form))
    assert codes[0] == 302 and codes[1] == 400
    assert Event.objects.filter(name="Race cup").count() == 1


def test_new_event_with_an_address_twice_at_once(monkeypatch):
    client = logged_in(get_user_model().objects.create_superuser("boss", "b@example.com", "pw"))
    form = {"name": "Race", "slug": "race", "rules": "preset:baba", "format": "league"}
    codes = race(monkeypatch, lambda: client.post(url("event-new"), form))
    assert codes[0] == 302 and codes[1] == 400
    assert Event.objects.filter(slug="race").count() == 1


def test_add_players_twice_at_once(monkeypatch):
    event = make_event(slug="race-players", players=PLAYERS[:4])
    client = logged_in(organizer_for(event))
    names = "\n".join(f"Racer {i}" for i in range(50))
    codes = race(
        monkeypatch, lambda: client.post(url("players-add", event.slug), {"players": names})
    )
    assert codes == [302, 302]
    assert Entry.objects.filter(event=event, player__name__startswith="Racer").count() == 50


def test_record_a_game_twice_at_once(monkeypatch):
    event = make_event(slug="race-game")
    client = logged_in(organizer_for(event))
    seats = {f"seat_{i}": name for i, name in enumerate(PLAYERS[:4])}
    post = {
        "round": 1,
        "table": 1,
        "deposits": 0,
        **seats,
        **{f"score_{i}": s for i, s in enumerate([40000, 30000, 20000, 10000])},
        **{f"yk{k}_kind": "tsumo" for k in range(2)},
        **{f"yk{k}_count": 1 for k in range(2)},
    }
    codes = race(monkeypatch, lambda: client.post(url("game-new", event.slug), post))
    assert codes == [302, 302]  # the second is the same save: found, not written again
    assert Game.objects.filter(round__event=event).count() == 1


def test_correct_a_game_twice_at_once(monkeypatch):
    event = make_event(slug="race-correct")
    organizer = organizer_for(event)
    client = logged_in(organizer)
    client.post(url("round-new", event.slug), {"method": "random", "round": "1"})
    game = Game.objects.filter(round__event=event).first()
    post = scores_post(game, [40000, 30000, 20000, 10000])
    codes = race(monkeypatch, lambda: client.post(url("game-scores", event.slug, game.pk), post))
    assert codes == [302, 302]
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_two_events_finish_a_game_at_once_and_the_site_ratings_stay_whole(monkeypatch):
    """Two events' locks do not keep apart the site's rating pool, which spans both: its own
    lock does (services/locks.py pool_lock). Without it the second replay writes steps the
    first is replacing, and a unique constraint answers 500."""
    from types import SimpleNamespace

    from tournament.models import Rating
    from tournament.services.games import game_record
    from tournament.services.ratings import ratings_rebuild

    early = make_event(slug="race-early", players=PLAYERS[:4])
    late = make_event(slug="race-late", players=PLAYERS[:4])
    Event.objects.filter(pk=early.pk).update(held_on="2026-01-01")
    early.refresh_from_db()
    events = iter([late, early])  # the later day first: the second must replay it

    def send() -> Any:
        event = next(events)
        try:
            game_record(
                event=event,
                data={
                    "round": 1,
                    "table": 1,
                    "seats": PLAYERS[:4],
                    "scores": [40000, 30000, 20000, 10000],
                },
            )
        except Exception:
            return SimpleNamespace(status_code=500)
        return SimpleNamespace(status_code=200)

    assert race(monkeypatch, send) == [200, 200]
    kept = dict(Rating.objects.filter(series=None).values_list("player__name", "mu"))
    ratings_rebuild(None)
    assert dict(Rating.objects.filter(series=None).values_list("player__name", "mu")) == kept
    assert Rating.objects.get(series=None, player__name=PLAYERS[0]).games == 2
