"""Hardening: production settings pass Django's deploy check, every response carries the
security headers, log-ins are throttled, and on PostgreSQL two saves at once or a database
that goes away mid-save lose nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import OperationalError, connection, connections, transaction
from django.test import Client, override_settings

from tests.tournament.factories import PLAYERS, make_event
from tests.tournament.organize_support import logged_in, make_user, organizer_for, scores_post
from tests.tournament.organize_support import url as address
from tournament.models import AuditEntry, Game
from tournament.services.errors import ConflictError
from tournament.services.game_data import game_to_data
from tournament.services.games import game_correct
from tournament.services.rounds import round_seat
from tournament.services.throttle import LIMITS

ROOT = Path(__file__).resolve().parents[2]
PER_ACCOUNT, PER_ADDRESS = LIMITS["login", "account"], LIMITS["login", "address"]
postgres_only = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="row locks and connection loss are PostgreSQL's (SQLite serialises whole writes)",
)


def production_env() -> dict[str, str]:
    # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE; pytest-django, the tests' settings module.
    skip = ("DEBUG", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE")
    env = {k: v for k, v in os.environ.items() if k not in skip}
    env.update(SECRET_KEY="a-production-key-" + "x" * 50, ALLOWED_HOSTS="results.example.org")
    return env


def test_deploy_check_passes_with_production_settings():
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues" in run.stdout


# What production settings make of a process that has imported pytest: the same as any other
# (the settings once guessed "under tests" from sys.modules, and such a process booted with the
# development key, the immediate task backend and local push endpoints).
SETTINGS_SEEN = """
import pytest, django
django.setup()
from django.conf import settings as s
print(s.TASKS["default"]["BACKEND"], s.WEB_PUSH_LOCAL, "json" in s.CHANNEL_SERVICES,
      s.PRODUCTION, s.VAPID_PRIVATE_KEY, s.PASSWORD_HASHERS[0].rsplit(".", 1)[1])
"""


def test_production_settings_never_guess_they_run_under_tests():
    env = {
        **production_env(),
        "DJANGO_SETTINGS_MODULE": "tournament.settings",  # what manage.py and wsgi.py name
        "VAPID_PRIVATE_KEY": "kept",
        "PYTHONPATH": str(ROOT),
    }

    def boot() -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-c", SETTINGS_SEEN, "test"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )

    run = boot()
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [
        "django_tasks_db.DatabaseBackend",
        "False",
        "False",
        "True",
        "kept",
        "PBKDF2PasswordHasher",
    ]
    del env["SECRET_KEY"]
    refused = boot()
    assert refused.returncode != 0 and "Set SECRET_KEY (or DEBUG=1" in refused.stderr


def start_wsgi(env: dict[str, str]) -> subprocess.CompletedProcess:
    """What gunicorn does first: import the WSGI application (its start-up checks run)."""
    return subprocess.run(
        [sys.executable, "-c", "import tournament.wsgi"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )


def test_production_without_its_static_files_stops_at_start_saying_what_to_run(tmp_path):
    run = start_wsgi({**production_env(), "STATIC_ROOT": str(tmp_path)})
    assert run.returncode != 0
    assert "Static files are not collected" in run.stderr and "collectstatic" in run.stderr


def test_production_starts_once_its_static_files_are_collected(tmp_path):
    env = {**production_env(), "STATIC_ROOT": str(tmp_path)}
    collect = [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"]
    subprocess.run(collect, cwd=ROOT, env=env, check=True, capture_output=True)
    run = start_wsgi(env)
    assert run.returncode == 0, run.stderr


def test_production_cookies_are_secure_and_https_is_enforced():
    code = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS > 0, s.DEBUG)"
    )
    run = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
    )
    assert run.stdout.split() == ["True", "True", "True", "True", "False"], run.stderr


@pytest.mark.django_db
def test_every_page_sends_the_security_headers(client):
    page = client.get("/")
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert page["X-Frame-Options"] == "DENY"
    assert page["Referrer-Policy"] == "same-origin"
    assert page["X-Content-Type-Options"] == "nosniff"
    assert "Strict-Transport-Security" not in page  # plain HTTP: HSTS would mean nothing


@pytest.mark.django_db
@override_settings(SECURE_HSTS_SECONDS=31536000)
def test_hsts_is_sent_over_https(client):
    assert "max-age=31536000" in client.get("/", secure=True)["Strict-Transport-Security"]


# --- log-in throttling ------------------------------------------------------------------------


def login(client: Client, username: str, password: str, ip: str = "10.0.0.1"):
    return client.post(
        address("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


@pytest.mark.django_db
def test_wrong_passwords_lock_the_account_for_a_while_even_with_the_right_one(password_hasher):
    make_user("alice")
    make_user("bob")
    client = Client()
    for _ in range(PER_ACCOUNT):
        assert login(client, "alice", "guess").status_code == 200  # the form again, an error
    locked = login(client, "alice", "pw")
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) > 0
    html = locked.content.decode()
    assert "Too many failed log-ins" in html and 'value="alice"' in html
    assert "_auth_user_id" not in client.session
    assert login(Client(), "bob", "pw").status_code == 302  # another account is not locked
    japanese = Client(HTTP_ACCEPT_LANGUAGE="ja").post(
        address("login"), {"username": "alice", "password": "pw"}, REMOTE_ADDR="10.0.0.1"
    )
    assert japanese.status_code == 429 and "ログインの失敗が多すぎます" in japanese.content.decode()


@pytest.mark.django_db
def test_a_right_password_forgets_earlier_mistakes():
    make_user("carol")
    for _ in range(PER_ACCOUNT - 1):
        login(Client(), "carol", "guess")
    assert login(Client(), "carol", "pw").status_code == 302
    # The count starts again: as many mistakes as before, and the right password still works.
    for _ in range(PER_ACCOUNT - 1):
        login(Client(), "carol", "guess")
    assert login(Client(), "carol", "pw").status_code == 302


@pytest.mark.django_db
def test_many_names_tried_from_one_address_are_stopped(password_hasher):
    make_user("dave")
    for i in range(PER_ADDRESS):
        login(Client(), f"nobody{i}", "guess", ip="10.9.9.9")
    assert login(Client(), "dave", "pw", ip="10.9.9.9").status_code == 429
    assert login(Client(), "dave", "pw", ip="10.1.1.1").status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["\x00", "ali\x00ce", "x" * 400])
def test_a_name_the_database_cannot_hold_is_refused_like_any_wrong_log_in(username):
    # PostgreSQL text cannot hold NUL: the throttle must not pass one through (was a 500).
    make_user("alice")
    assert login(Client(), username, "pw").status_code == 200


@pytest.mark.django_db
@override_settings(BEHIND_PROXY=True)
def test_a_forwarded_address_that_is_not_an_ip_counts_as_the_connections_own():
    # Garbage is never stored (the column is an inet on PostgreSQL), and never switches the
    # address limit off either: the connection's own address counts instead.
    reply = Client().post(
        address("login"),
        {"username": "nobody", "password": "x"},
        HTTP_X_FORWARDED_FOR="10.0.0.1, not-an-address",
    )
    assert reply.status_code == 200
    for i in range(PER_ADDRESS - 1):
        login(Client(), f"nobody{i}", "x", ip="127.0.0.1")
    assert login(Client(), "anybody", "x", ip="127.0.0.1").status_code == 429


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("exception", "status", "says"),
    [
        (OperationalError("the server closed the connection"), 503, "Nothing was saved"),
        (ValueError("a bug"), 500, "Something went wrong on our side"),
    ],
)
def test_a_failure_outside_any_view_still_gets_a_page_that_says_what_happened(
    monkeypatch, exception, status, says
):
    # The session saved on the way out is past the views' process_exception: handler500.
    def fail(self, request, response):
        raise exception

    monkeypatch.setattr(SessionMiddleware, "process_response", fail)
    page = Client(raise_request_exception=False).get(address("home"))
    assert page.status_code == status and says in page.content.decode()
    assert "Content-Security-Policy" in page


# --- PostgreSQL: two saves at once, a database gone mid-save ----------------------------------


def seated_game(slug: str = "hard"):
    event = make_event(slug=slug, players=PLAYERS[:4])
    round_seat(event=event)
    return event, Game.objects.get(round__event=event)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_saves_of_one_game_at_once_one_wins_the_other_gets_a_conflict():
    event, game = seated_game()
    seats = game_to_data(game)["seats"]
    base = {"round": 1, "table": 1, "seats": seats}
    tries = [
        {**base, "scores": [40000, 30000, 20000, 10000]},
        {**base, "scores": [10000, 20000, 30000, 40000]},
    ]
    start = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def save(i: int) -> None:
        try:
            start.wait()
            game_correct(game=Game.objects.get(pk=game.pk), data=tries[i], expected_version=1)
            outcomes[i] = "saved"
        except ConflictError as exc:
            outcomes[i] = exc
        finally:
            connections.close_all()  # each thread has its own connection

    threads = [threading.Thread(target=save, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(map(str, outcomes)).count("saved") == 1
    loser = next(o for o in outcomes if isinstance(o, ConflictError))
    assert loser.field == "version"
    winner = tries[outcomes.index("saved")]
    game.refresh_from_db()
    assert game.version == 2
    assert [s.score for s in game.seats.order_by("position")] == winner["scores"]
    assert AuditEntry.objects.filter(event=event, action="game.record").count() == 1


def drop_connection(pid: int) -> None:
    """What a PostgreSQL restart does to one of the app's connections."""
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname=settings["NAME"],
        autocommit=True,
    ) as admin:
        # Returns once the backend has gone (PostgreSQL 14+), as a restart's old backends have
        # before anyone asks again.
        admin.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_database_gone_mid_save_fails_cleanly_and_keeps_the_game_whole(monkeypatch):
    event, game = seated_game("gone")
    client = logged_in(organizer_for(event))
    first = scores_post(game, [40000, 30000, 20000, 10000])
    assert client.post(address("game-scores", event.slug, game.pk), first).status_code == 302
    game.refresh_from_db()
    before = game_to_data(game)

    import tournament.services.game_change as games

    real = games.results_changed

    def cut_then_audit(**kwargs):
        # The seats are rewritten by now; the server drops this connection before the commit.
        drop_connection(connection.connection.info.backend_pid)
        return real(**kwargs)

    monkeypatch.setattr(games, "results_changed", cut_then_audit)
    second = scores_post(game, [10000, 20000, 30000, 40000])
    page = client.post(address("game-scores", event.slug, game.pk), second)
    assert page.status_code == 503
    assert "Nothing was saved" in page.content.decode()

    monkeypatch.setattr(games, "results_changed", real)
    connection.close()  # what Django does at the end of a request with a broken connection
    game.refresh_from_db()
    assert game.version == 2 and game_to_data(game) == before
    assert AuditEntry.objects.filter(event=event, action="game.correct").count() == 0
    # And the next save goes through as usual.
    again = scores_post(game, [10000, 20000, 30000, 40000])
    assert client.post(address("game-scores", event.slug, game.pk), again).status_code == 302


@pytest.mark.django_db
def test_the_admins_log_in_goes_through_the_same_lock(password_hasher):
    user = make_user("staff")
    user.is_staff = True
    user.save()
    for _ in range(PER_ACCOUNT):
        reply = Client().post("/admin/login/", {"username": "staff", "password": "guess"})
        assert reply.status_code == 200
    locked = Client().post("/admin/login/", {"username": "staff", "password": "pw"})
    assert locked.status_code == 429 and "Too many failed log-ins" in locked.content.decode()
    assert int(locked["Retry-After"]) > 0
    # The same count at the site's log-in (from the same address), and the other way round.
    assert login(Client(), "staff", "pw", ip="127.0.0.1").status_code == 429
    make_user("other")
    for _ in range(PER_ACCOUNT):
        login(Client(), "other", "guess", ip="127.0.0.1")
    reply = Client().post("/admin/login/", {"username": "other", "password": "pw"})
    assert reply.status_code == 429


@pytest.mark.django_db
def test_the_admins_log_in_still_lets_staff_in():
    user = make_user("boss")
    user.is_staff = True
    user.save()
    client = Client()
    assert client.get("/admin/login/").status_code == 200
    reply = client.post("/admin/login/?next=/admin/", {"username": "boss", "password": "pw"})
    assert reply.status_code == 302 and reply["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/login/").status_code == 302  # signed in already: to the admin
    # Someone who is not staff is refused there (and counted), never let in.
    make_user("player")
    refused = Client().post("/admin/login/", {"username": "player", "password": "pw"})
    assert refused.status_code == 200 and "_auth_user_id" not in refused.client.session


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_connection_the_database_dropped_between_requests_is_replaced_not_a_failed_request():
    """Issue 63, item 7: PostgreSQL dropped the connection an app thread kept between requests
    (DB_CONN_MAX_AGE; a restart): the thread's next request opens a new one instead of failing.
    Through Django's own WSGI handler, which starts each request as production's server does
    (the test Client leaves the connections alone)."""
    from wsgiref.util import setup_testing_defaults

    from django.core.handlers.wsgi import WSGIHandler

    make_event(slug="kept", players=PLAYERS[:4])
    handler = WSGIHandler()

    def status() -> str:
        environ = {"PATH_INFO": "/events/kept/", "HTTP_HOST": "localhost"}
        setup_testing_defaults(environ)
        answered: list[str] = []
        b"".join(handler(environ, lambda s, headers, *exc: answered.append(s)))
        return answered[0]

    assert status() == "200 OK"
    kept = connection.connection.info.backend_pid  # kept for the thread's next request
    drop_connection(kept)
    assert status() == "200 OK"
    assert connection.connection.info.backend_pid != kept


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_kept_connection_is_checked_without_asking_the_server(monkeypatch):
    """The health check above asks the connection's socket, not the server: a kept connection
    that is well costs a request no round trip (tournament/postgresql/base.py); one the
    server dropped is not reused; one inside a transaction is asked as Django asks."""
    connection.ensure_connection()
    asked: list[str] = []
    real = psycopg.Connection.cursor

    def cursor(self, *args, **kwargs):
        asked.append("cursor")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "cursor", cursor)
    assert connection.is_usable() and asked == []
    with transaction.atomic():
        connection.cursor().execute("SELECT 1")
        asked.clear()
        assert connection.is_usable() and asked == ["cursor"]
    drop_connection(connection.connection.info.backend_pid)
    assert not connection.is_usable()
    connection.close()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        b"players=\xff\xfe",  # raw bytes: Django read them as Latin-1, "ÿþ"
        b"players=%FF%FE",  # percent-encoded, not UTF-8: "��"
        "players=山田".encode(),  # raw UTF-8: read as Latin-1, "å±±ç\x94°"
    ],
)
def test_a_form_body_that_is_not_percent_encoded_utf8_is_refused_not_misread(body):
    # Issue 63, item 9: a non-UTF-8 form body was read as Latin-1 (a player named "ÿþ").
    event = make_event(slug="enc", players=PLAYERS)
    admin = logged_in(organizer_for(event))
    reply = admin.generic(
        "POST",
        address("players-add", event.slug),
        body,
        content_type="application/x-www-form-urlencoded",
    )
    assert reply.status_code == 400 and "not sent as UTF-8" in reply.text
    assert event.entries.count() == len(PLAYERS)
    # The same name percent-encoded, as a browser sends it, is read as typed.
    sent = admin.post(address("players-add", event.slug), {"players": "山田"})
    assert sent.status_code == 302
    assert event.entries.filter(player__name="山田").exists()
