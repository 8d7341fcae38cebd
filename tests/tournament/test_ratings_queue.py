"""Ratings off the write path (issue 46): a results write marks its pools due (`RatingDue`) and
queues a task; the task replays each pool from the earliest game marked. Until it
runs the ratings stand still; after it they equal a rebuild."""

from __future__ import annotations

import signal
import threading
import time

import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from tests.tournament.factories import league_data
from tournament.models import Event, Game, Rating, RatingDue, RatingStep
from tournament.services import ratings as ratings_service
from tournament.services.games import game_correct, game_record
from tournament.services.imports import event_import
from tournament.services.ratings import (
    order_key,
    ratings_catch_up,
    ratings_catch_up_all,
    ratings_rebuild,
)
from tournament.services.series import series_add_event, series_create

NAMES = [f"Player {i:04d}" for i in range(8)]
SCORES = [10000, 20000, 30000, 40000]
KEPT = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}  # queued, not run


def event(slug: str, date: str, rounds: int = 2) -> Event:
    imported = event_import({**league_data(8, rounds), "slug": slug, "date": date})
    ratings_catch_up_all()
    return imported


def site_ratings() -> dict[str, tuple[float, float, int]]:
    rows = Rating.objects.filter(series=None).values_list("player__name", "mu", "sigma", "games")
    return {name: (round(mu, 9), round(sigma, 9), games) for name, mu, sigma, games in rows}


def steps() -> list[tuple]:
    rows = RatingStep.objects.order_by("series_id", "key", "player_id")
    return [
        (*row[:3], round(row[3], 9))
        for row in rows.values_list("series_id", "key", "player_id", "mu")
    ]


def record(ev: Event, number: int, first: int = 0) -> None:
    seats = [NAMES[(first + k) % 8] for k in range(4)]
    game_record(event=ev, data={"round": number, "table": 1, "seats": seats, "scores": SCORES})


@pytest.mark.django_db
def test_a_write_leaves_the_ratings_until_the_task_runs_then_they_equal_a_rebuild():
    ev = event("a", "2026-11-01")
    before = site_ratings()
    record(ev, 3)
    assert site_ratings() == before  # the write replayed nothing
    due = RatingDue.objects.get(series=None)
    assert due.from_key == order_key(ev.held_on, ev.pk, 3, 1) and due.marks == 1
    assert ratings_catch_up(None) == 1  # the one game marked, the last in the order of play
    assert not RatingDue.objects.exists()
    after = site_ratings()
    assert after != before and after["Player 0000"][2] == before["Player 0000"][2] + 1
    ratings_rebuild(None)
    assert site_ratings() == after
    assert ratings_catch_up(None) is None  # nothing due: a task that finds no row does nothing


@pytest.mark.django_db
def test_ten_writes_leave_one_row_per_pool_with_the_earliest_game_and_one_replay(monkeypatch):
    early = event("early", "2026-11-01")
    late = event("late", "2026-11-08")
    season = series_create(name="Season", slug="season")
    series_add_event(series=season, slug="late")
    for number in range(3, 12):  # nine results in the later event …
        record(late, number, first=number)
    game = Game.objects.filter(round__event=early).order_by("round__number", "table").first()
    names = [s.player.name for s in game.seats.order_by("position")]
    game_correct(  # … and a correction to the earlier event's first game
        game=game,
        data={"round": 1, "table": 1, "seats": names, "scores": [9500, 17500, 31000, 42000]},
        expected_version=game.version,
    )
    rows = {row.series_id: row for row in RatingDue.objects.all()}
    assert set(rows) == {None, season.pk}  # one row per pool
    assert rows[None].from_key == order_key(early.held_on, early.pk, 1, 1)
    assert rows[None].marks == 10
    assert rows[season.pk].from_key == order_key(late.held_on, late.pk, 3, 1)
    assert rows[season.pk].marks == 9  # the earlier event is not in the series
    replays = []
    replay = ratings_service._replay

    def counted(pool: int | None, key: str, **how) -> int:
        replays.append(pool)
        return replay(pool, key, **how)

    monkeypatch.setattr(ratings_service, "_replay", counted)
    assert ratings_catch_up_all() == 2
    assert sorted(replays, key=str) == sorted([None, season.pk], key=str)  # one each
    assert ratings_catch_up(None) is None and ratings_catch_up(season.pk) is None
    kept = (site_ratings(), steps())
    ratings_rebuild(None)
    ratings_rebuild(season)
    assert (site_ratings(), steps()) == kept


@pytest.mark.django_db
def test_the_write_path_takes_no_pool_lock_and_queues_its_task_for_the_commit(
    monkeypatch, django_capture_on_commit_callbacks
):
    ev = event("a", "2026-11-01")

    def refused(pool: int | None) -> None:
        raise AssertionError("a results write took a rating pool's lock")

    with monkeypatch.context() as patched:
        patched.setattr(ratings_service, "pool_lock", refused)
        with django_capture_on_commit_callbacks() as queued:
            record(ev, 3)
    # The site's pool: one task, run when the write commits (beside the standings published).
    names = sorted(callback.func.__self__.name for callback in queued)
    assert names == ["publish_task", "ratings_catch_up_task"]
    for callback in queued:  # the commit: the test's backend runs the task there and then
        callback()
    assert not RatingDue.objects.exists()
    assert Rating.objects.get(series=None, player__name="Player 0000").games == 3


@pytest.mark.django_db
def test_the_pages_say_when_ratings_are_being_brought_up_to_date():
    ev = event("a", "2026-11-01")
    # A player not in the game recorded: the replay leaves their steps as they were.
    player = Rating.objects.get(series=None, player__name="Player 0005").player_id
    line = "Ratings are being brought up to date."
    assert line not in Client().get("/ratings/?min=0").content.decode()
    assert line not in Client().get(f"/players/{player}/").content.decode()
    record(ev, 3)
    assert line in Client().get("/ratings/?min=0").content.decode()
    page = Client().get(f"/players/{player}/")
    assert line in page.content.decode()
    ja = Client().get("/ratings/?min=0", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "レーティングを更新しています。" in ja
    ratings_catch_up_all()
    assert line not in Client().get("/ratings/?min=0").content.decode()
    # The page's tag holds whether the pool is due: a phone holding the old page gets the new.
    again = Client().get(f"/players/{player}/", HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 200 and line not in again.content.decode()


@pytest.mark.django_db
def test_the_line_comes_and_goes_beside_a_players_kept_rating_not_inside_it():
    """Every result anywhere makes the site's ratings due until the replay runs: the line
    moves with it, the player's rating figures and chart are kept by their newest step and
    not read again (issue 46: a chart drawn again for every player page after every result
    halved what two servers answered under a writer)."""
    ev = event("a", "2026-11-01")
    player = Rating.objects.get(series=None, player__name="Player 0005").player_id
    line = "Ratings are being brought up to date."
    before = Client().get(f"/players/{player}/").content.decode()
    assert line not in before and "<polyline" in before
    record(ev, 3)  # Player 0005 is not at this table: their steps stay as they were
    with CaptureQueriesContext(connection) as captured:
        due = Client().get(f"/players/{player}/").content.decode()
    assert line in due and due.count("<polyline") == before.count("<polyline")
    # The first query is the page's tag (it holds their newest step); no other reads a step.
    assert not [q for q in captured[1:] if "ratingstep" in q["sql"].lower()]
    ratings_catch_up_all()
    after = Client().get(f"/players/{player}/").content.decode()
    assert line not in after and after.count("<polyline") == before.count("<polyline")


@pytest.mark.django_db
def test_rebuild_ratings_clears_the_rows_it_covers():
    ev = event("a", "2026-11-01")
    record(ev, 3)
    call_command("rebuild_ratings")
    assert not RatingDue.objects.exists()
    assert Rating.objects.get(series=None, player__name="Player 0000").games == 3


@pytest.mark.django_db(transaction=True)
def test_the_database_queue_and_its_worker_run_the_replay():
    """The production backend, as `manage.py task_worker` runs it: the task is a row written
    after the write's commit, taken and run by the worker."""
    ev = event("a", "2026-11-01")
    with override_settings(
        TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    ):
        record(ev, 3)
        record(ev, 4, first=2)
        assert Rating.objects.get(series=None, player__name="Player 0003").games == 2
        handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            call_command("task_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
        finally:
            for number, handler in handlers.items():  # the worker sets its own
                signal.signal(number, handler)
    assert not RatingDue.objects.exists()
    assert Rating.objects.get(series=None, player__name="Player 0003").games == 4
    kept = site_ratings()
    ratings_rebuild(None)
    assert site_ratings() == kept


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has one writer at a time")
def test_a_write_does_not_wait_for_a_replay_in_progress(monkeypatch):
    """A replay of the site's pool held open for HOLD seconds (the worker's transaction, the
    pool's lock taken): a result in another event is saved meanwhile, not after it."""
    event("first", "2026-11-01")
    other = event("other", "2026-11-08")
    hold = 1.5
    replay = ratings_service._replay
    inside = threading.Event()

    def slow(pool: int | None, key: str, **how) -> int:
        games = replay(pool, key, **how)
        inside.set()
        time.sleep(hold)
        return games

    def work() -> None:
        try:
            ratings_catch_up(None)
        finally:
            connections.close_all()  # this thread's own connection

    RatingDue.objects.create(series=None, from_key="", marks=1)  # the whole pool, from its start
    monkeypatch.setattr(ratings_service, "_replay", slow)
    worker = threading.Thread(target=work)
    worker.start()
    try:
        assert inside.wait(10)
        started = time.monotonic()
        with override_settings(TASKS=KEPT):  # its own task only queued, not run here
            record(other, 3)
        took = time.monotonic() - started
    finally:
        worker.join()
    assert took < hold / 2
    # The write came during the replay: the row stays, for the write's own task.
    assert RatingDue.objects.get(series=None).marks == 2


@pytest.mark.django_db
def test_a_replay_the_database_refused_is_queued_again(monkeypatch):
    from django.db import OperationalError

    from tournament import tasks

    ev = event("a", "2026-11-01")
    record(ev, 3)

    def refused(pool: int | None) -> None:
        raise OperationalError("database is locked")

    # The task reads its service when it runs (imports run tasks → services, issue 65).
    monkeypatch.setattr("tournament.services.ratings.ratings_catch_up", refused)
    with override_settings(
        TASKS={"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    ):
        with pytest.raises(OperationalError):
            tasks.ratings_catch_up_task.call(None)
        queued = tasks.ratings_catch_up_task.get_backend().results
    assert len(queued) == 1 and queued[0].args == [None] and queued[0].task.run_after
    assert RatingDue.objects.filter(series=None).exists()  # kept for the task queued again


@pytest.mark.django_db
def test_a_new_site_waiting_for_its_first_ratings_says_so_and_nothing_false():
    # The walk of the day (issue 46): before the first replay a player with eleven games had
    # no rating section and no line, and the board said "Nobody has played 5 games yet".
    imported = event_import({**league_data(8, 2), "slug": "first-night", "date": "2026-11-01"})
    assert RatingDue.objects.filter(series=None).exists() and not RatingStep.objects.exists()
    player = imported.entries.get(player__name="Player 0000").player_id
    line = "Ratings are being brought up to date."
    board = Client().get("/ratings/").content.decode()
    assert line in board and "Nobody has played" not in board
    page = Client().get(f"/players/{player}/").content.decode()
    assert line in page and "Rated games" not in page
    ratings_catch_up_all()
    page = Client().get(f"/players/{player}/").content.decode()
    assert line not in page and "Rated games" in page
    assert "Nobody has played" not in Client().get("/ratings/?min=0").content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_replay_committing_while_a_write_to_its_event_waits_for_the_due_row_is_no_deadlock():
    """The replay has deleted the pool's due row and is about to commit its new steps, whose
    keys to the event PostgreSQL checks at commit; a result in that event meanwhile holds the
    event's lock and waits for the due row. The event's lock must not keep the steps' check
    out (`FOR NO KEY UPDATE`, services/locks.py): both finish, neither is killed."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL (SQLite has one writer at a time)")
    from django.db import transaction

    ev = event("a", "2026-11-01")
    RatingDue.objects.create(series=None, from_key="", marks=1)
    deleted, failures = threading.Event(), []

    def replay() -> None:
        try:
            with transaction.atomic():
                ratings_service._replay(None, "")
                RatingDue.objects.filter(series=None).delete()
                deleted.set()
                time.sleep(1.5)  # the write below is waiting for the row by now
        except Exception as error:
            failures.append(error)
        finally:
            connections.close_all()

    def write() -> None:
        try:
            with override_settings(TASKS=KEPT):
                record(ev, 3)
        except Exception as error:
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=replay), threading.Thread(target=write)]
    threads[0].start()
    assert deleted.wait(10)
    threads[1].start()
    for thread in threads:
        thread.join(20)
    assert failures == []
    assert RatingDue.objects.get(series=None).marks == 1  # the write's, for its own task
