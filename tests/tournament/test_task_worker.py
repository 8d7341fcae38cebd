"""Issue 63, item 1: the task queue's worker outlives an outage of the database. A worker
process (`manage.py task_worker`, production settings) runs against a PostgreSQL server of the
test's own, which is crashed under it and started again: the worker was `db_worker`, which died
on the first OperationalError (3 workers of 3 over two outages) and left every task queued."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import psycopg
import pytest
from django.core.management import get_commands
from django_tasks_db.models import DBTaskResult

from tests.postgres_support import BIN, PostgresServer
from tests.tournament.test_hardening import ROOT, production_env

# Once per `make test`: in its PostgreSQL half (the server here is the test's own either way).
needs_postgres = pytest.mark.skipif(
    BIN is None or not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="PostgreSQL's half of the suite runs it (with its initdb)",
)

ENQUEUE = """
import sys, django
from datetime import timedelta
django.setup()
from django.utils import timezone
from tests.tournament.worker_tasks import note
path = sys.argv[1]
note.enqueue(path, "A")
note.enqueue(path, "C", 3.0)  # running when the database goes
# Due while the database is away: queued before the outage, done after it.
note.using(run_after=timezone.now() + timedelta(seconds=2)).enqueue(path, "B")
"""


def wait_for(check, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds} s for {what}")


@pytest.fixture
def postgres():
    server = PostgresServer()
    server.start()
    yield server
    server.close()


def test_the_task_worker_is_the_one_manage_py_runs():
    assert get_commands()["task_worker"] == "tournament"


@needs_postgres
def test_a_task_queued_before_an_outage_is_done_after_it_and_the_worker_lives_on(
    postgres, tmp_path
):
    env = {**production_env(), "DATABASE_URL": postgres.url}
    env["DJANGO_SETTINGS_MODULE"] = "tournament.settings"  # as manage.py sets it
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120)
    log = tmp_path / "worker.log"
    lines = tmp_path / "ran.txt"
    with log.open("w") as out:
        worker = subprocess.Popen(
            [*manage, "task_worker", "--no-reload", "--interval", "0.2", "--no-startup-delay"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        subprocess.run(
            [sys.executable, "-c", ENQUEUE, str(lines)], cwd=ROOT, env=env, check=True, timeout=60
        )
        ran = lambda: lines.read_text().split() if lines.exists() else []  # noqa: E731
        wait_for(lambda: ran() == ["A"], 30, "task A")
        time.sleep(0.5)  # C is running (it sleeps 3 s)
        postgres.crash()
        time.sleep(5)  # C ends meanwhile, and cannot say so; B falls due
        assert worker.poll() is None, log.read_text()
        assert "The database (task worker) is unavailable" in log.read_text()
        postgres.start()
        wait_for(lambda: sorted(ran()) == ["A", "B", "C", "C"], 60, f"B and C: {log.read_text()}")
        assert worker.poll() is None
    finally:
        worker.terminate()
        worker.wait(10)
    said = log.read_text()
    assert said.count("is unavailable") == 1 and said.count("answers again") == 1, said
    assert "queued again" in said  # C, which was running, was put back and ran once more
    with psycopg.connect(postgres.url) as db:
        statuses = db.execute(f"select status from {DBTaskResult._meta.db_table}").fetchall()
    assert sorted(s for (s,) in statuses) == ["SUCCESSFUL"] * 3


@pytest.mark.django_db
def test_a_queue_that_stopped_moving_is_said_on_the_dashboard_and_logged_once(caplog):
    from django.utils import timezone
    from django_tasks_db.models import get_date_max

    from tests.tournament.factories import make_event
    from tests.tournament.organize_support import logged_in, organizer_for, url
    from tournament.outages import task_queue_outage

    event = make_event(slug="q", players=["A", "B", "C", "D"])
    organizer = logged_in(organizer_for(event))
    page = url("event-manage", event.slug)
    warning = "The task queue has not moved since"
    task = DBTaskResult.objects.create(
        args_kwargs={"args": ["x", "y"], "kwargs": {}},
        task_path="tests.tournament.worker_tasks.note",
        backend_name="default",
        run_after=get_date_max(),
    )
    assert warning not in organizer.get(page).text  # just queued: the worker has time
    DBTaskResult.objects.filter(pk=task.pk).update(
        enqueued_at=timezone.now() - timezone.timedelta(minutes=3)
    )
    try:
        assert warning in organizer.get(page).text
        assert "タスクキュー" in organizer.get(page, HTTP_ACCEPT_LANGUAGE="ja").text
        said = [r.getMessage() for r in caplog.records if r.name == "tournament.outages"]
        assert len(said) == 1 and "The task queue is unavailable" in said[0]
        DBTaskResult.objects.filter(pk=task.pk).update(status="SUCCESSFUL")
        assert warning not in organizer.get(page).text
        said = [r.getMessage() for r in caplog.records if r.name == "tournament.outages"]
        assert len(said) == 2 and "The task queue answers again" in said[1]
    finally:
        task_queue_outage.ended()
