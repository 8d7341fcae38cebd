"""Issue 11, "tournament day can't corrupt a result": a test per numbered finding, named after
it, each reproducing what was found (through the pages, the commands and the services people
use) and asserting what must happen instead. Concurrent requests on PostgreSQL are in
test_concurrency.py."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from tests.tournament.factories import PLAYERS, make_event
from tests.tournament.organize_support import logged_in, organizer_for, scores_post, text, url
from tournament.models import AuditEntry, Entry, Event, Game, Hand, Penalty, Player, Round, Stage
from tournament.selectors.standings import event_standings
from tournament.services.errors import ServiceError
from tournament.services.games import game_correct, game_record, game_remove
from tournament.services.rounds import round_seat
from tournament.services.stages import stage_close, stage_reopen

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


# --- 1. A closed stage still changes ---------------------------------------------------------


def finish(event: Event, number: int, scores: dict[int, list[int]]) -> None:
    for game in Game.objects.filter(round__event=event, round__number=number).order_by("table"):
        seats = [s.player.name for s in game.seats.select_related("player").order_by("position")]
        data = {"round": number, "table": game.table, "seats": seats, "scores": scores[game.table]}
        game_correct(game=game, data=data, expected_version=game.version)


@pytest.fixture
def closed_baba():
    """Eight players, a one-round qualifier (top 4 go through), a one-round final: both
    played and closed. Returns the event, its organizer, and who the standings crowned."""
    event = make_event(slug="cup", format="baba", players=PLAYERS[:8])
    Stage.objects.filter(event=event, position=0).update(first_round=1, last_round=1, advance=4)
    Stage.objects.filter(event=event, position=1).update(first_round=1, last_round=2)
    organizer = organizer_for(event)
    round_seat(event=event, method="random")
    finish(event, 1, {1: [45000, 30000, 15000, 10000], 2: [40000, 32000, 18000, 10000]})
    stage_close(event=event, stage=event.stages.get(position=0))
    round_seat(event=event, method="random")
    finish(event, 2, {1: [50000, 25000, 15000, 10000]})
    stage_close(event=event, stage=event.stages.get(position=1))
    return event, organizer, _podium(event)


def _podium(event: Event) -> tuple[str, list[str], dict[str, float]]:
    rows = event_standings(event).rows
    champion = next(str(r.player) for r in rows if r.status == "champion")
    finalists = sorted(str(r.player) for r in rows if r.status in ("champion", "finalist"))
    return champion, finalists, {str(r.player): float(r.total) for r in rows}


def test_finding_1_a_closed_stage_refuses_every_write_that_would_change_its_result(closed_baba):
    event, organizer, podium = closed_baba
    client = logged_in(organizer)
    qualifier_game = Game.objects.get(round__event=event, round__number=1, table=1)
    final_game = Game.objects.get(round__event=event, round__number=2)
    version = event.__class__.objects.get(pk=event.pk).version
    attempts = [
        (
            "correct",
            "game-scores",
            [qualifier_game.pk],
            scores_post(qualifier_game, [10000, 15000, 30000, 45000]),
        ),
        ("delete", "game-delete", [qualifier_game.pk], {}),
        ("delete the final", "game-delete", [final_game.pk], {}),
        ("unseat", "round-unseat", [1], {"confirmed": "1"}),
        ("withdraw", "player-withdraw", [event.entries.first().pk], {"withdrawn": "1"}),
        ("register", "players-add", [], {"players": "Latecomer"}),
        ("decide", "stage-action", [0, "decide"], {"place_0": "1", "place_1": "2"}),
        # A penalty for no round counts in every stage (helper-48 saw one accepted).
        (
            "penalty",
            "penalties",
            [],
            {"player": PLAYERS[0], "kind": "penalty", "points": "20", "reason": "x"},
        ),
        (
            "penalty in round 1",
            "penalties",
            [],
            {
                "player": PLAYERS[0],
                "kind": "penalty",
                "points": "20",
                "reason": "x",
                "round_number": "1",
            },
        ),
    ]
    for what, name, args, data in attempts:
        reply = client.post(url(name, event.slug, *args), data)
        assert reply.status_code in (302, 400), what
        page = text(client.get(reply["Location"])) if reply.status_code == 302 else text(reply)
        assert any(w in page for w in ("Reopen the", "reopen it first", "reopen the")), what
    table = {"round": 1, "table": 3, "seats": PLAYERS[:4], "scores": [40000, 30000, 20000, 10000]}
    with pytest.raises(ServiceError, match="closed"):
        game_record(event=event, data=table)
    with pytest.raises(ServiceError, match="closed"):
        game_remove(game=qualifier_game)
    # Nothing moved: same games, same entries, same podium, same version of the event.
    assert Game.objects.filter(round__event=event).count() == 3
    assert not Penalty.objects.filter(event=event).exists()
    assert not Entry.objects.filter(event=event, withdrawn=True).exists()
    assert not Player.objects.filter(name="Latecomer").exists()
    assert _podium(event) == podium
    assert Event.objects.get(pk=event.pk).version == version


def test_finding_1_reopening_waits_for_later_stages_and_is_logged(closed_baba):
    event, organizer, _ = closed_baba
    qualifier = event.stages.get(position=0)
    with pytest.raises(ServiceError, match="Round 2, after the qualifier, is seated"):
        stage_reopen(event=event, stage=qualifier)
    final = event.stages.get(position=1)
    stage_reopen(event=event, stage=final, user=organizer)
    assert AuditEntry.objects.filter(event=event, action="stage.reopen").count() == 1
    # Reopened, the final can be corrected again; the qualifier still cannot.
    game = Game.objects.get(round__event=event, round__number=2)
    seats = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    game_correct(
        game=game,
        data={"round": 2, "table": 1, "seats": seats, "scores": [10000, 15000, 25000, 50000]},
        expected_version=game.version,
    )
    assert _podium(event)[0] == seats[3]
    with pytest.raises(ServiceError, match="qualifier"):
        game_remove(game=Game.objects.get(round__event=event, round__number=1, table=1))


# --- 2. A name with "/" (or anything else) breaks pages --------------------------------------

AWKWARD = [
    "AC/DC",
    "50%",
    "#1",
    "Who?",
    "R&B",
    "<b>bold</b>",
    "O'Neil",
    'say "hi"',
    "ＡＢＣ",
    "🀄 Ron",
    "\u200fعلي",
]


def test_finding_2_every_page_and_export_works_for_any_name(client):
    names = [*AWKWARD, *PLAYERS[: 12 - len(AWKWARD) % 4 + 4]][:12]
    event = make_event(slug="names", players=names)
    game_record(
        event=event,
        data={"round": 1, "table": 1, "seats": names[:4], "scores": [40000, 30000, 20000, 10000]},
    )
    game = game_record(
        event=event,
        data={"round": 1, "table": 2, "seats": names[4:8], "scores": [40000, 30000, 20000, 10000]},
    )
    pages = [
        url("home"),
        url("event-detail", event.slug),
        url("standings-live", event.slug),
        url("round-detail", event.slug, 1),
        url("game-detail", event.slug, game.pk),
    ]
    for page in pages:
        reply = client.get(page)
        assert reply.status_code == 200, page
        assert "<b>bold</b>" not in text(reply)  # escaped, never markup
    standings = text(client.get(url("event-detail", event.slug)))
    for player in Player.objects.filter(name__in=names[:8]):
        link = url("player-detail", player.pk)
        assert link in standings, player.name
        assert client.get(link).status_code == 200
    for fmt in ("csv", "json", "xlsx"):
        reply = client.get(url("standings-export", event.slug, fmt))
        assert reply.status_code == 200, fmt
    assert "AC/DC" in client.get(url("standings-export", event.slug, "csv")).content.decode()
    # Full-width letters are folded to one spelling: ＡＢＣ is ABC wherever it is typed.
    assert Player.objects.filter(name="ABC").exists() and not Player.objects.filter(name="ＡＢＣ")


# --- 3. import_event accepts any slug ---------------------------------------------------------


def write(tmp_path: Path, data: object, name: str = "event.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def small_file(**extra: object) -> dict:
    return {"name": "Small", "slug": "small", "ruleset": "baba", "players": PLAYERS[:4], **extra}


def test_finding_3_a_bad_slug_is_refused_at_every_entrance(tmp_path, client):
    with pytest.raises(CommandError) as refused:
        call_command("import_event", write(tmp_path, small_file(slug="Bad Slug/../x")))
    assert refused.value.returncode == 2 and "\n" not in str(refused.value)
    assert "slug" in str(refused.value) and not Event.objects.exists()
    assert client.get(url("home")).status_code == 200
    with pytest.raises(ServiceError, match="not an address"):
        make_event(slug="a b")
    # Addresses in other scripts are addresses too.
    call_command("import_event", write(tmp_path, small_file(slug="水曜リーグ-11月")))
    assert client.get(url("event-detail", "水曜リーグ-11月")).status_code == 200
    assert client.get(url("home")).status_code == 200
    download = client.get(url("standings-export", "水曜リーグ-11月", "csv"))
    assert "filename*=utf-8''" in download["Content-Disposition"]


# --- 4. Control characters and lengths --------------------------------------------------------


def test_finding_4_control_characters_and_long_names_are_refused_before_anything_is_stored(
    tmp_path, client
):
    event = make_event(slug="ctl")
    organizer = organizer_for(event)
    page = logged_in(organizer).post(
        url("players-add", event.slug), {"players": "Good\nBad\x00Name\nBell\x07"}
    )
    assert page.status_code == 400
    assert "Line 2: a control character (U+0000)" in text(page)
    assert "Line 3: a control character (U+0007)" in text(page)
    assert not Player.objects.filter(name__startswith="Bad").exists()
    assert not Player.objects.filter(name="Good").exists()  # refused as a whole
    assert client.get(url("standings-export", event.slug, "xlsx")).status_code == 200
    for data, field in [
        (small_file(players=[*PLAYERS[:3], "Ding\x07Dong"]), "players[3]"),
        (small_file(name="x" * 10_000), "name"),
        (small_file(players=[*PLAYERS[:3], "y" * 101]), "players[3]"),
    ]:
        with pytest.raises(CommandError) as refused:
            call_command("import_event", write(tmp_path, data))
        assert refused.value.returncode == 2 and str(refused.value).startswith(field + ":")
    assert not Event.objects.filter(slug="small").exists()


# --- 5. The admin edits scores with no engine check -------------------------------------------


@pytest.fixture
def admin_client():
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    return logged_in(user), user


def test_finding_5_the_admin_cannot_change_results(admin_client):
    client, _user = admin_client
    event = make_event(slug="adm")
    game = game_record(
        event=event,
        data={"round": 1, "table": 1, "seats": PLAYERS[:4], "scores": [40000, 30000, 20000, 10000]},
    )
    seat = game.seats.get(position=0)
    version = Event.objects.get(pk=event.pk).version
    reply = client.post(
        f"/admin/tournament/seat/{seat.pk}/change/",
        {"game": game.pk, "position": 0, "player": seat.player_id, "score": 49000},
    )
    assert reply.status_code == 403
    for model, pk in [("game", game.pk), ("hand", 1), ("round", game.round_id)]:
        assert client.post(
            f"/admin/tournament/{model}/{pk}/delete/", {"post": "yes"}
        ).status_code in (
            403,
            302,
        )
    assert client.get("/admin/tournament/seat/add/").status_code == 403
    assert Game.objects.filter(pk=game.pk).exists() and Round.objects.filter(event=event).exists()
    assert game.seats.get(position=0).score == 40000
    assert Event.objects.get(pk=event.pk).version == version
    stage = event.stages.get()
    reply = client.post(
        f"/admin/tournament/stage/{stage.pk}/change/", {"closed": "on", "name": "league"}
    )
    assert reply.status_code == 403 and not Stage.objects.get(pk=stage.pk).closed


def test_finding_5_an_admin_edit_is_logged_and_moves_the_version(admin_client):
    client, user = admin_client
    event = make_event(slug="adm2")
    version = Event.objects.get(pk=event.pk).version
    reply = client.post(
        f"/admin/tournament/event/{event.pk}/change/",
        {
            "name": "Renamed　cup ",
            "organizers": [user.pk],
            **_inline_management(event),
        },
    )
    assert reply.status_code == 302, text(reply)[:2000]
    renamed = Event.objects.get(pk=event.pk)
    assert renamed.name == "Renamed cup" and renamed.version > version
    assert AuditEntry.objects.filter(event=event, action="event.rename", user=user).exists()
    entry = event.entries.first()
    reply = client.post(f"/admin/tournament/entry/{entry.pk}/change/", {"withdrawn": "on"})
    assert reply.status_code == 302
    assert Entry.objects.get(pk=entry.pk).withdrawn
    assert AuditEntry.objects.filter(event=event, action="event.withdraw", user=user).exists()
    assert Event.objects.get(pk=event.pk).version > renamed.version


def _inline_management(event: Event) -> dict[str, object]:
    """The management forms the event's (read-only) inlines send with the page."""
    data: dict[str, object] = {}
    for prefix, count in (("stages", event.stages.count()), ("entries", event.entries.count())):
        data.update(
            {
                f"{prefix}-TOTAL_FORMS": count,
                f"{prefix}-INITIAL_FORMS": count,
                f"{prefix}-MIN_NUM_FORMS": 0,
                f"{prefix}-MAX_NUM_FORMS": 1000,
            }
        )
    return data


# --- 6. Double taps --------------------------------------------------------------------------


def test_finding_6_a_double_tap_never_writes_twice(client):
    event = make_event(slug="taps")
    organizer = organizer_for(event)
    client = logged_in(organizer)
    manage = text(client.get(url("event-manage", event.slug)))
    assert 'name="round" value="1"' in manage  # the form says which round it seats
    first = client.post(url("round-new", event.slug), {"method": "random", "round": "1"})
    again = client.post(url("round-new", event.slug), {"method": "random", "round": "1"})
    assert first.status_code == again.status_code == 302
    assert list(event.rounds.values_list("number", flat=True)) == [1]
    page = text(client.get(again["Location"]))
    assert "Round 1 is seated already" in page and url("round-sheet", event.slug, 1) in page
    # The same final scores twice (the second based on the version the first replaced).
    game = Game.objects.get(round__event=event, round__number=1, table=1)
    post = scores_post(game, [40000, 30000, 20000, 10000])
    assert client.post(url("game-scores", event.slug, game.pk), post).status_code == 302
    assert client.post(url("game-scores", event.slug, game.pk), post).status_code == 302
    assert AuditEntry.objects.filter(event=event, action="game.record").count() == 1
    # A table entered by hand twice.
    new = {**post, "round": 2, "table": 1, "version": ""}
    for _ in range(2):
        assert client.post(url("game-new", event.slug), new).status_code == 302
    assert Game.objects.filter(round__event=event, round__number=2).count() == 1
    # One hand, sent twice.
    other = Game.objects.get(round__event=event, round__number=1, table=2)
    hand = {"version": other.version, "type": "draw", "tenpai": ["0"]}
    for _ in range(2):
        assert client.post(url("game-hands", event.slug, other.pk), hand).status_code == 302
    assert Hand.objects.filter(game=other).count() == 1
    # Delete twice: the second says it is done, not 404 or 500.
    client.post(url("game-delete", event.slug, game.pk))
    again = client.post(url("game-delete", event.slug, game.pk))
    assert again.status_code == 302 and "deleted" in text(client.get(again["Location"]))
    # Register the same list twice: nobody twice.
    for _ in range(2):
        client.post(url("players-add", event.slug), {"players": "Newcomer"})
    assert Entry.objects.filter(event=event, player__name="Newcomer").count() == 1


def test_finding_6_the_same_event_name_twice_is_one_event():
    user = get_user_model().objects.create_superuser("boss", "b@example.com", "pw")
    client = logged_in(user)
    form = {"name": "Winter cup", "rules": "preset:baba", "format": "league", "players": ""}
    assert client.post(url("event-new"), form).status_code == 302
    again = client.post(url("event-new"), form)
    assert again.status_code == 400 and "exists already" in text(again)
    assert Event.objects.filter(name="Winter cup").count() == 1


# --- 7. The log-in lock counts the name as typed -----------------------------------------------


def test_finding_7_every_spelling_of_an_account_shares_its_lock():
    # Issue 44: an account locks at the address its wrong passwords came from (a stranger
    # elsewhere cannot lock its organizer out); there, every spelling of it is the one account.
    get_user_model().objects.create_user("victim1", "v@example.com", "right-password")
    client = Client()
    for spelling in ("victim1", " victim1", "ｖｉｃｔｉｍ1", "victim1 ", "victim1"):
        client.post(
            url("login"), {"username": spelling, "password": "wrong"}, REMOTE_ADDR="10.0.0.1"
        )
    for spelling in (" victim1", "ｖｉｃｔｉｍ1", "victim1 "):
        reply = client.post(
            url("login"),
            {"username": spelling, "password": "right-password"},
            REMOTE_ADDR="10.0.0.1",
        )
        assert reply.status_code == 429, spelling
    elsewhere = client.post(
        url("login"), {"username": "victim1", "password": "right-password"}, REMOTE_ADDR="10.9.9.9"
    )
    assert elsewhere.status_code == 302


@override_settings(BEHIND_PROXY=False)
def test_finding_7_a_forwarded_address_counts_only_behind_a_proxy():
    client = Client()
    for i in range(20):  # twenty names from one address, each "from" another forwarded one
        client.post(
            url("login"),
            {"username": f"guess{i}", "password": "x"},
            REMOTE_ADDR="10.1.1.1",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{i}",
        )
    reply = client.post(
        url("login"), {"username": "another", "password": "x"}, REMOTE_ADDR="10.1.1.1"
    )
    assert reply.status_code == 429


@override_settings(BEHIND_PROXY=True)
def test_finding_7_garbage_in_the_header_never_switches_the_address_limit_off():
    client = Client()
    for i in range(20):
        client.post(
            url("login"),
            {"username": f"guess{i}", "password": "x"},
            REMOTE_ADDR="10.2.2.2",
            HTTP_X_FORWARDED_FOR="not-an-address",
        )
    reply = client.post(
        url("login"),
        {"username": "another", "password": "x"},
        REMOTE_ADDR="10.2.2.2",
        HTTP_X_FORWARDED_FOR="still garbage",
    )
    assert reply.status_code == 429


# --- 8. Nothing is logged in production --------------------------------------------------------


@override_settings(ADMINS=[("Desk", "desk@example.org")])
def test_finding_8_a_server_error_is_logged_with_its_traceback_and_request_id(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the home page broke")

    monkeypatch.setattr("tournament.views.public.home.event_list", broken)
    handler = next(
        h
        for h in logging.getLogger("django.request").handlers
        if h.name != "mail_admins" and isinstance(h, logging.StreamHandler)
    )
    stream = io.StringIO()
    previous = handler.setStream(stream)
    try:
        reply = Client(raise_request_exception=False).get(url("home"))
    finally:
        handler.setStream(previous)
    assert reply.status_code == 500
    request_id = reply["X-Request-ID"]
    logged = stream.getvalue()
    assert f"[{request_id}]" in logged and "Internal Server Error: /" in logged
    assert "Traceback" in logged and "RuntimeError: the home page broke" in logged
    assert request_id in text(reply)  # the page tells the person what to quote
    assert len(mail.outbox) == 1 and "the home page broke" in mail.outbox[0].body


# --- 9. Hostile files --------------------------------------------------------------------------


def import_refused(path: str) -> str:
    with pytest.raises(CommandError) as refused:
        call_command("import_event", path)
    assert refused.value.returncode == 2
    message = str(refused.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def test_finding_9_hostile_event_files_get_one_line_and_exit_2(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"name": "x", "slug": "x", "games": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert import_refused(str(deep)).startswith("games[0][0]")
    uma = small_file(ruleset={"preset": "baba", "uma": [1e308, 10, -10, -1e308]})
    assert import_refused(write(tmp_path, uma)).startswith("ruleset.uma")
    for number in ("NaN", "Infinity", "-Infinity", "9" * 5000):
        path = tmp_path / "number.json"
        text_ = json.dumps(
            small_file(
                games=[{"round": 1, "table": 1, "seats": PLAYERS[:4], "scores": [0, 0, 0, 0]}]
            )
        )
        path.write_text(text_.replace('"scores": [0', f'"scores": [{number}'))
        assert import_refused(str(path)).startswith("round 1 table 1: scores[0]"), number
    assert not Event.objects.exists()


@override_settings(EVENT_FILE_MAX_BYTES=1000)
def test_finding_9_an_event_file_over_the_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.json"
    path.write_text("x" * 2000)  # not even JSON: the size is what is refused
    assert "over the 0.001 MB limit" in import_refused(str(path))


@pytest.mark.parametrize(
    "document",
    [
        '{"ruleset": "baba", "scores": ' + "[" * 50_000 + "]" * 50_000 + "}",
        '{"ruleset": "baba", "scores": [' + "7" * 5000 + ", 1, 2, 3]}",
        '{"ruleset": "baba", "scores": [NaN, 1, 2, 3]}',
    ],
    ids=["deep", "huge", "nan"],
)
def test_finding_9_the_engine_cli_answers_exit_2_and_one_line(document):
    run = subprocess.run(
        [sys.executable, "-m", "scoring", "settle"],
        input=document,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("scores")
    assert "Traceback" not in run.stderr


@override_settings(PASTE_MAX_NAMES=10_000)
def test_finding_9_a_paste_over_the_limit_is_refused_at_once():
    event = make_event(slug="paste")
    client = logged_in(organizer_for(event))
    paste = "\n".join(f"Player {i}" for i in range(80_000))
    with CaptureQueriesContext(connection) as queries:
        reply = client.post(url("players-add", event.slug), {"players": paste})
    assert reply.status_code == 400 and "80000 names at once is too many" in text(reply)
    assert not any("INSERT" in q["sql"] for q in queries.captured_queries)


def test_finding_9_adding_players_costs_a_fixed_number_of_queries():
    """Whatever the number of names; on SQLite the only growth is Django splitting a bulk
    insert into statements of at most 999 parameters (none on PostgreSQL)."""

    def cost(slug: str, count: int) -> int:
        event = make_event(slug=slug, players=[])
        names = [f"{slug} {i}" for i in range(count)]
        with CaptureQueriesContext(connection) as queries:
            from tournament.services.events import event_register_players

            event_register_players(event=event, names=names, user=None)
        assert Entry.objects.filter(event=event).count() == count
        inserts = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]
        return len(queries.captured_queries) - len(inserts), len(inserts)

    small_reads, small_inserts = cost("small", 10)
    big_reads, big_inserts = cost("big", 5000)
    assert big_reads == small_reads
    if connection.vendor == "postgresql":
        assert big_inserts == small_inserts == 3  # players, entries, the change log's entry
    else:
        # players have 2 columns, entries 16 (their standings figures, their version, their
        # check-in and how it was made, their profile — the family name too — among them); one
        # more: the change log's
        assert big_inserts <= 2 + 5000 * 2 // 999 + 5000 * 16 // 999 + 2 + 1


# --- 10. Loose URLs and data -----------------------------------------------------------------


def test_finding_10_an_unknown_stage_action_is_a_404_and_changes_nothing(closed_baba):
    event, organizer, _ = closed_baba
    client = logged_in(organizer)
    for action in ("anything", "reopenx", "CLOSE"):
        assert client.post(f"/events/{event.slug}/manage/stages/0/{action}/").status_code == 404
    assert event.stages.get(position=0).closed and event.stages.get(position=1).closed


def test_finding_10_an_imported_decision_must_name_players(tmp_path):
    data = small_file(format="baba", stages=[{"name": "qualifier", "decision": ["Stranger"]}])
    assert import_refused(write(tmp_path, data)).startswith("stages[0].decision[0]")
    data["stages"][0]["decision"] = [PLAYERS[0], PLAYERS[0]]
    assert "listed twice" in import_refused(write(tmp_path, data))
    assert not Event.objects.exists()


# --- 11. Names ---------------------------------------------------------------------------------


def test_finding_11_a_name_listed_twice_is_refused_naming_both_lines():
    event = make_event(slug="dup", players=[])
    client = logged_in(organizer_for(event))
    paste = "田中\n佐藤\n鈴木\n高橋\n佐藤\n伊藤\n渡辺\n山本"
    reply = client.post(url("players-add", event.slug), {"players": paste})
    assert reply.status_code == 400
    assert "Line 5: 佐藤 is listed twice (also line 2)." in text(reply)
    assert paste in text(reply)  # what was typed is kept
    assert not event.entries.exists()
    # One spelling: full-width and doubled spaces are the same name.
    reply = client.post(url("players-add", event.slug), {"players": "ＳＡＴＯ Taro\nSATO  Taro"})
    assert "Line 2: SATO Taro is listed twice (also line 1)." in text(reply)


def test_finding_11_japanese_event_names_get_readable_unique_addresses(client):
    user = get_user_model().objects.create_superuser("boss", "b@example.com", "pw")
    organizer = logged_in(user)
    slugs = []
    for name in ("水曜リーグ 11月", "水曜リーグ 12月", "木曜リーグ", "2026", "水曜リーグ　11月!"):
        form = {"name": name, "rules": "preset:baba", "format": "league", "players": ""}
        reply = organizer.post(url("event-new"), form)
        assert reply.status_code == 302, name
        slugs.append(Event.objects.get(name=name.replace("　", " ")).slug)
    assert slugs[:3] == ["水曜リーグ-11月", "水曜リーグ-12月", "木曜リーグ"]
    assert slugs[3] != "2026" and not slugs[3].isdigit()  # never a bare number
    assert slugs[4] == "水曜リーグ-11月-2"  # another event, same address: made unique
    for slug in slugs:
        assert client.get(url("event-detail", slug)).status_code == 200


def test_finding_1_a_penalty_given_before_closing_stays_once_closed(closed_baba):
    """A penalty for no round counts in every stage: cancelling it would change the closed
    stages' standings as giving one would (helper-48)."""
    from tournament.services.penalties import penalty_cancel

    event, organizer, _ = closed_baba
    player = Player.objects.get(name=PLAYERS[0])
    given = Penalty.objects.create(event=event, player=player, points=-20, reason="late")
    with pytest.raises(ServiceError, match="counts in every stage"):
        penalty_cancel(penalty=given, user=organizer)
    given.refresh_from_db()
    assert given.cancelled_at is None
