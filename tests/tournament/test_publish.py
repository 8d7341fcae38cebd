"""After a result the task queue makes the standings page and its polled files (tournament/
publish.py), so the readers who come next find them made: queued only when what the page
shows moved (a result; any hand in a stage's last round), and what it makes is, byte for
byte, the page and files a reader would have made."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournament.factories import baba_day
from tests.tournament.organize_support import url
from tests.tournament.test_standings_tag import DRAW, _finish
from tournament.models import Game
from tournament.selectors.cache import clear_all
from tournament.services import changes
from tournament.services.hands import game_hand_add

pytestmark = pytest.mark.django_db
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')


def _queued(monkeypatch) -> list[tuple]:
    calls: list[tuple] = []
    monkeypatch.setattr(changes, "enqueue_on_commit", lambda *args: calls.append(args))
    return calls


def _games(event, number: int) -> list[Game]:
    return list(Game.objects.filter(round__event=event, round__number=number).order_by("table"))


def _hand(game: Game) -> None:
    game.refresh_from_db()
    game_hand_add(game=game, hand=DRAW, expected_version=game.version)


def test_queued_for_a_result_not_for_a_hand_that_plays_on(monkeypatch) -> None:
    event = baba_day(slug="publish-ordinary", played=4, seat_next=True)  # round 5 in play
    queued = _queued(monkeypatch)
    first, second, *_ = _games(event, 5)
    _hand(first)
    assert queued == []  # the page shows nothing new: readers get 304
    _finish(second, [40000, 30000, 20000, 10000])
    assert queued == [("publish_task", event.pk)]


def test_queued_for_every_hand_of_a_stages_last_round(monkeypatch) -> None:
    event = baba_day(slug="publish-deciding", played=5, seat_next=True)  # round 6: the cut
    queued = _queued(monkeypatch)
    _hand(_games(event, 6)[0])  # what each player needs moved
    assert queued == [("publish_task", event.pk)]


def _page(client: Client, address: str, **headers) -> tuple[bytes, bool]:
    """The page's bytes with its token blanked, and whether the view drew it."""
    answer = client.get(address, **headers)
    assert answer.status_code == 200
    return TOKEN.sub(b"TOKEN", answer.content), bool(answer.templates)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_what_the_queue_makes_is_what_a_reader_would(
    django_capture_on_commit_callbacks, language
) -> None:
    event = baba_day(slug=f"publish-{language}", played=4, seat_next=True)
    games = _games(event, 5)
    page = url("event-detail", event.slug)
    files = [url("standings-export", event.slug, "csv"), f"/api/v1/events/{event.slug}/standings"]
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    for address in [page, *files]:
        Client().get(address, **headers)  # kept for the version before the result
    with django_capture_on_commit_callbacks(execute=True):
        _finish(games[0], [50000, 30000, 15000, 5000])  # the task runs as it is queued
    kept, drawn = _page(Client(), page, **headers)
    assert not drawn  # the first reader after the result made nothing
    kept_files = [Client().get(address).content for address in files]
    clear_all()
    made, drawn = _page(Client(), page, **headers)
    assert drawn and made == kept
    assert [Client().get(address).content for address in files] == kept_files
    winner = games[0].seats.select_related("player").get(position=0).player.name
    assert winner.encode() in kept


def test_a_file_is_made_ahead_only_while_a_reader_polls_it(
    django_capture_on_commit_callbacks, monkeypatch
) -> None:
    """At 10,000 players the CSV and the JSON took the queue 0.8 s a result: it makes them
    ahead only once a reader has asked for one (exports/files.py WANTED_SECONDS)."""
    from tournament.exports import files

    event = baba_day(slug="publish-files", played=4, seat_next=True)
    games = _games(event, 5)
    made: list[str] = []
    real = files.export_standings

    def export(event, fmt, stage):
        made.append(fmt)
        return real(event, fmt, stage)

    monkeypatch.setattr(files, "export_standings", export)
    csv = url("standings-export", event.slug, "csv")
    with django_capture_on_commit_callbacks(execute=True):
        _finish(games[0], [50000, 30000, 15000, 5000])
    assert made == []  # nobody reads the files: the queue made neither
    assert Client().get(csv).status_code == 200 and made == ["csv"]  # its reader made it
    made.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _finish(games[1], [45000, 35000, 15000, 5000])
    assert made == ["csv"]  # made ahead, for the reader who polls it; the JSON still not
    made.clear()
    answer = Client().get(csv)
    assert answer.status_code == 200 and made == []  # found made
    clear_all()
    assert Client().get(csv).content == answer.content  # as its reader would make it now
