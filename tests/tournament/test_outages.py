"""An outage (the database or Redis gone) is logged once a minute per process and mailed to
ADMINS twice, at its start and end, from a thread — never per request, never inside one (issue
44: 15 s of PostgreSQL gone logged 10,651 ERROR lines; 11 s with ADMINS set mailed 157
'Service Unavailable' from inside the requests). A real server error is still mailed as it
happens."""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator

import pytest
from django.contrib.sessions.middleware import SessionMiddleware
from django.core import mail
from django.db import OperationalError, connection
from django.test import Client

from tests.tournament.factories import PLAYERS, make_event
from tournament import api, middleware, outages, redis_cache
from tournament.outages import Outage, flush_admin_mail

ADMINS = [("Ann", "ann@example.org")]


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logged() -> Iterator[list[logging.LogRecord]]:
    """Every WARNING-or-worse line, wherever logged: the root logger sees the app's lines,
    django.request (which does not propagate) its own per-answer lines."""
    lines = Lines()
    loggers = [logging.getLogger(), logging.getLogger("django.request")]
    for logger in loggers:
        logger.addHandler(lines)
    yield lines.records
    for logger in loggers:
        logger.removeHandler(lines)


@pytest.fixture
def held_mail(monkeypatch, settings) -> Iterator[dict]:
    """ADMINS set; every mail to them held back until the test lets it go, and the thread that
    sent it noted: a mail sent inside a request would be in the outbox before the release."""
    settings.ADMINS = ADMINS
    release = threading.Event()
    senders: list[threading.Thread] = []
    send = mail.mail_admins

    def held(subject: str, message: str, **kwargs: object) -> None:
        release.wait(10)
        senders.append(threading.current_thread())
        send(subject, message, **kwargs)

    monkeypatch.setattr(mail, "mail_admins", held)
    yield {"release": release, "senders": senders}
    release.set()
    flush_admin_mail()


@pytest.mark.django_db
def test_a_database_outage_is_two_lines_and_two_mails_sent_outside_the_requests(
    monkeypatch, logged, held_mail
):
    monkeypatch.setattr(middleware, "database_outage", Outage("The database", middleware.logger))
    event = make_event(slug="gone", players=PLAYERS[:8])
    client = Client(raise_request_exception=False)
    down = True

    # PostgreSQL stopped: every query fails as psycopg's does then.
    def database(execute, sql, params, many, context):
        if down:
            raise OperationalError("connection refused: is the server running?")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(database):
        answers = [client.get(f"/events/{event.slug}/").status_code for _ in range(30)]
        answers += [client.get(f"/api/v1/events/{event.slug}/standings").status_code]
        outage_lines = list(logged)
        assert mail.outbox == []  # queued: the requests answered without waiting for a mail
        down = False
        assert client.get(f"/events/{event.slug}/").status_code == 200

    assert answers == [503] * 31
    assert [r.levelname for r in outage_lines] == ["ERROR"]  # its start, not one per answer
    assert "The database is unavailable" in outage_lines[0].getMessage()
    assert [r.levelname for r in logged] == ["ERROR", "WARNING"]  # … and its end
    assert "answers again" in logged[1].getMessage()
    assert "31 failures" in logged[1].getMessage()

    held_mail["release"].set()
    flush_admin_mail()
    assert [m.subject.split(" (")[0] for m in mail.outbox] == [
        "[Django] The database is unavailable",
        "[Django] The database answers again",
    ]
    assert all(m.to == ["ann@example.org"] for m in mail.outbox)
    assert threading.current_thread() not in held_mail["senders"]


def test_an_outage_lasting_minutes_logs_once_a_minute_and_mails_twice(
    monkeypatch, held_mail, caplog
):
    now = [1000.0]
    monkeypatch.setattr(outages.time, "monotonic", lambda: now[0])
    outage = Outage("Redis", logging.getLogger("tournament.test"))
    caplog.set_level(logging.WARNING, logger="tournament.test")
    for _ in range(150 * 4):  # 150 s of four failures a second
        outage.failed(ConnectionError("refused"))
        now[0] += 0.25
    outage.ended()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 + 2 + 1  # start, at 60 s and 120 s, end
    assert "240 failures" in lines[1] and "240 failures" in lines[2]
    assert "after 150 s (600 failures" in lines[3]
    outage.ended()  # already over: nothing more
    held_mail["release"].set()
    flush_admin_mail()
    assert len(caplog.records) == 4 and len(mail.outbox) == 2


def test_an_outage_s_lines_are_not_mailed_by_the_log_handler(settings, held_mail, caplog):
    # The mail_admins handler (settings.LOGGING) leaves them out: one mail at the start, the
    # thread's, not a second one from the handler inside the request.
    outage = Outage("Redis", logging.getLogger("tournament.redis_cache"))
    outage.failed(ConnectionError("refused"))
    assert any("Redis is unavailable" in r.getMessage() for r in caplog.records)
    held_mail["release"].set()
    flush_admin_mail()
    assert [m.subject.split(" (")[0] for m in mail.outbox] == ["[Django] Redis is unavailable"]


@pytest.mark.django_db
def test_a_real_server_error_is_still_mailed_at_once(monkeypatch, settings):
    settings.ADMINS = ADMINS

    def fail(self, request, response):
        raise ValueError("a bug")

    monkeypatch.setattr(SessionMiddleware, "process_response", fail)
    assert Client(raise_request_exception=False).get("/").status_code == 500
    assert len(mail.outbox) == 1 and "ValueError" in mail.outbox[0].body


@pytest.mark.django_db
def test_the_database_gone_outside_any_view_is_the_outage_s_line_only(monkeypatch, logged):
    # A session saved on the way out: handler500 answers the 503, which django.request logs
    # (with the traceback) unless the outage has (middleware.AnswerLoggedOnce).
    monkeypatch.setattr(middleware, "database_outage", Outage("The database", middleware.logger))

    def fail(self, request, response):
        raise OperationalError("the server closed the connection")

    monkeypatch.setattr(SessionMiddleware, "process_response", fail)
    assert Client(raise_request_exception=False).get("/").status_code == 503
    assert [r.name for r in logged] == ["tournament.middleware"]


@pytest.mark.django_db
def test_a_server_error_under_the_api_is_one_line_with_its_traceback_and_one_mail(
    monkeypatch, settings, logged
):
    # Logged with its traceback where it was raised, then answered as JSON: the JSON answer is
    # not logged (nor mailed) once more (middleware.AnswerLoggedOnce, on django.request).
    settings.ADMINS = ADMINS

    def fail(*args: object, **kwargs: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(api, "event_list", fail)
    answer = Client(raise_request_exception=False).get("/api/v1/events/")
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal server error", "field": ""}
    assert [(r.levelname, r.exc_info is not None) for r in logged] == [("ERROR", True)]
    assert len(mail.outbox) == 1 and "ValueError" in mail.outbox[0].body


def test_a_redis_outage_is_one_per_process_two_lines_and_two_mails(
    redis_server, monkeypatch, held_mail, caplog
):
    monkeypatch.setattr(redis_cache, "outage", Outage("Redis", redis_cache.log))
    monkeypatch.setattr(redis_cache, "RETRY_SECONDS", 0.0)
    caplog.set_level(logging.WARNING, logger="tournament.redis_cache")
    options = {"SOCKET_CONNECT_TIMEOUT": 0.25, "SOCKET_TIMEOUT": 0.25}
    # Two caches on one Redis (the pages' and the guesses'), as settings.CACHES has.
    backends = [
        redis_cache.RedisCache(redis_server.url, {"KEY_PREFIX": p, "OPTIONS": options})
        for p in ("pages", "guesses")
    ]
    redis_server.kill()
    for _ in range(20):
        for backend in backends:
            backend.get("page")
    assert mail.outbox == []
    redis_server.start()
    for backend in backends:
        backend.set("page", "again", 30)
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING"]
    assert "40 failures" in caplog.records[1].getMessage()
    held_mail["release"].set()
    flush_admin_mail()
    assert [m.subject.split(" (")[0] for m in mail.outbox] == [
        "[Django] Redis is unavailable",
        "[Django] Redis answers again",
    ]


def test_ongoing_follows_the_outage() -> None:
    outage = Outage("The test", logging.getLogger("tests.outages"))
    assert not outage.ongoing
    outage.failed(OperationalError("gone"))
    assert outage.ongoing and outage.since is not None
    outage.ended()
    assert not outage.ongoing and outage.since is None


@pytest.mark.django_db
def test_a_request_while_nothing_is_down_runs_no_code_of_outages(monkeypatch) -> None:
    # The middleware watches for an outage on every request: one attribute read, no call into
    # outages.py (its figures, docs/performance.md, count the files every request enters).
    monkeypatch.setattr(middleware, "database_outage", Outage("The database", middleware.logger))
    event = make_event(slug="calm", players=PLAYERS[:4])
    entered: set[str] = set()

    def watch(frame, event_name, _arg):
        if event_name == "call":
            entered.add(frame.f_code.co_filename)

    client = Client()
    client.get(f"/events/{event.slug}/")  # imports and first-time set-up out of the way
    sys.setprofile(watch)
    try:
        assert client.get(f"/events/{event.slug}/").status_code == 200
    finally:
        sys.setprofile(None)
    assert outages.__file__ not in entered
    assert middleware.__file__ in entered  # the watch saw our middleware run
