"""Issue 33: an event's whole-day plan — made on the dashboard, downloaded (CSV, JSON),
uploaded when made elsewhere (checked whole: everyone once a round, known names, tables of the
event's size, no round missing; an error names the round and table), and rounds seated from
it as planned, winds and byes included."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import text
from tests.tournament.test_tournament_day import finish
from tournament.models import Entry, Seat, SeatingPlan, SitOut
from tournament.selectors.plans import plan_of
from tournament.services.errors import ServiceError
from tournament.services.events import entry_withdraw
from tournament.services.plans import plan_make, plan_upload
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

SIXTEEN = [f"P{i:02d}" for i in range(16)]


@pytest.fixture
def organizer():
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("o", "o@example.com", "pw"))
    return client


def seated(event, number: int) -> list[list[str]]:
    rows = Seat.objects.filter(round__event=event, round__number=number).order_by(
        "game__table", "position"
    )
    out: dict[int, list[str]] = {}
    for table, name in rows.values_list("game__table", "player__name"):
        out.setdefault(table, []).append(name)
    return list(out.values())


def test_a_plan_made_on_the_dashboard_seats_every_round_as_planned(organizer):
    event = make_event(slug="day", players=SIXTEEN)
    reply = organizer.post("/events/day/manage/plan/", {"rounds": "5", "seed": "3"}, follow=True)
    page = text(reply)
    assert "The seating plan is made (seed 3)." in page
    assert "Nobody has met anyone twice." in page  # the plan's report: 16 × 5, the plane
    plan = plan_of(event)
    assert len(plan.rounds) == 5 and plan.report()["pairs_met_more_than_once"] == 0
    # "From the seating plan" is offered, and chosen, on "Seat the next round".
    assert re.search(r'<input type="radio" name="method" value="plan"[^>]* checked', page)
    for number in range(1, 6):
        reply = organizer.post(
            "/events/day/manage/rounds/", {"round": str(number), "method": "plan"}
        )
        assert reply.status_code == 302, text(reply)
        assert seated(event, number) == [list(t) for t in plan.rounds[number - 1].tables]
        finish(event, number, {t: [45000, 30000, 15000, 10000] for t in range(1, 5)})
    # A sixth round the plan does not have is refused, naming the plan's length.
    reply = organizer.post("/events/day/manage/rounds/", {"round": "6", "method": "plan"})
    assert reply.status_code == 400 and "the plan has 5 rounds: it has no round 6" in text(reply)


def test_the_plan_downloads_as_json_and_csv_and_the_csv_uploads_back(organizer):
    event = make_event(slug="dl", players=SIXTEEN[:14])  # 3 tables and 2 byes a round
    plan_make(event=event, rounds=4, seed=9)
    kept = plan_of(event)
    data = json.loads(organizer.get("/events/dl/manage/plan.json").content)
    assert data["rounds"][0]["byes"] == list(kept.rounds[0].byes) and len(data["rounds"]) == 4
    assert data["report"]["pairs_met_more_than_once"] == kept.report()["pairs_met_more_than_once"]
    body = organizer.get("/events/dl/manage/plan.csv").content
    rows = list(csv.reader(io.StringIO(body.decode())))
    assert rows[0] == ["round", "table", "east", "south", "west", "north"]
    assert ["1", "bye", *kept.rounds[0].byes] in rows
    SeatingPlan.objects.all().delete()
    upload = SimpleUploadedFile("plan.csv", body, content_type="text/csv")
    page = text(organizer.post("/events/dl/manage/plan/upload/", {"file": upload}, follow=True))
    assert "The seating plan is uploaded and checked." in page
    assert plan_of(event).rounds == kept.rounds
    # The byes come from the plan too.
    round_seat(event=event, method="plan", number=1)
    assert set(
        SitOut.objects.filter(round__event=event).values_list("player__name", flat=True)
    ) == set(kept.rounds[0].byes)
    assert organizer.get("/events/dl/manage/plan.xml").status_code == 404


def csv_plan(*rows: str) -> bytes:
    return ("\n".join(rows) + "\n").encode()


EIGHT = [f"Q{i}" for i in range(8)]
GOOD = ["1,1,Q0,Q1,Q2,Q3", "1,2,Q4,Q5,Q6,Q7", "2,1,Q0,Q4,Q1,Q5", "2,2,Q2,Q6,Q3,Q7"]


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        (["1,1,Q0,Q1,Q2,Q3", "1,2,Q4,Q5,Q6,Q0"], "round 1: Q0 is at table 1 and at table 2"),
        (["1,1,Q0,Q1,Q2,Q3", "1,2,Q4,Q5,Q6,Zed"], "round 1 table 2: Zed is not playing"),
        (["1,1,Q0,Q1,Q2", "1,2,Q3,Q4,Q5,Q6,Q7"], "round 1 table 1 seats 3 players"),
        ([*GOOD[:2], *[r.replace("2,", "3,", 1) for r in GOOD[2:]]], "round 2 is missing"),
        (["1,1,Q0,Q1,Q2,Q3", "1,2,Q4,Q5,Q6,Q6"], "round 1: Q6 is at table 2 and at table 2"),
        (["1,1,Q0,Q1,Q2,Q3", "1,2,Q4,Q5,Q6"], "round 1 table 2 seats 3 players"),
        (["1,1,Q0,Q1,Q2,Q3"], "round 1 does not seat Q4"),
        (["one,1,Q0"], "line 1: a row is the round"),
        (["1,1,Q0,Q1,Q2,Q3", "1,2,Q4,Q5,Q6,Q7", "1,bye,Q0"], "round 1: Q0 is seated and has a bye"),
    ],
)
def test_an_uploaded_plan_is_checked_whole_and_the_error_names_round_and_table(
    organizer, rows, said
):
    event = make_event(slug="up", players=EIGHT)
    upload = SimpleUploadedFile("plan.csv", csv_plan(*rows))
    reply = organizer.post("/events/up/manage/plan/upload/", {"file": upload})
    assert reply.status_code == 400 and said in text(reply), text(reply)[-3000:]
    assert not SeatingPlan.objects.filter(event=event).exists()  # nothing kept


def test_bad_files_are_refused_in_the_reader_s_language():
    event = make_event(slug="bad", players=EIGHT)
    for content, code in (
        (b"\xff\xfe not text", "plan.encoding"),
        (b'{"rounds": 3}', "plan.json"),
        (b"[1, 2", "plan.json"),
        (b'{"rounds": [{"tables": [["Q0", "Q1", "Q2", "Q3"], "Q4"]}]}', "plan.table_size"),
        (b"x" * 1_000_001, "plan.too_big"),
        (b"", "plan.empty"),
    ):
        with pytest.raises(ServiceError) as refused:
            plan_upload(event=event, content=content, name="plan.json" if content else "p.csv")
        assert refused.value.code == code, content[:40]


def test_a_plan_that_no_longer_fits_the_players_is_refused_naming_who(organizer):
    event = make_event(slug="stale", players=EIGHT)
    plan_upload(event=event, content=csv_plan(*GOOD))
    entry_withdraw(entry=Entry.objects.get(event=event, player__name="Q3"))
    with pytest.raises(ServiceError) as refused:
        round_seat(event=event, method="plan", number=1)
    assert refused.value.code == "plan.stale" and "Q3" in refused.value.message
    reply = organizer.post("/events/stale/manage/rounds/", {"round": "1", "method": "plan"})
    assert "does not fit the players in play now (Q3)" in text(reply)


def test_without_a_plan_the_choice_is_not_offered_and_a_forged_one_is_refused(organizer):
    make_event(slug="none", players=EIGHT)
    page = text(organizer.get("/events/none/manage/"))
    assert 'value="plan"' not in page
    reply = organizer.post("/events/none/manage/rounds/", {"round": "1", "method": "plan"})
    assert reply.status_code == 400


@pytest.mark.parametrize(
    ("content", "said"),
    [
        # Issue 44: nesting deeper than Python reads was a RecursionError, a 500.
        (b"[" * 2000, "nested too deeply ([0][0][0][0][0][0]"),
        (
            b'{"rounds": [{"tables": ' + b"[" * 5000 + b"]" * 5000 + b"}]}",
            "nested too deeply (rounds[0].tables[0][0][0]",
        ),
        # Numbers no name can be: refused by round and table like any other bad name.
        (b'{"rounds": [{"tables": [[NaN, "Q1", "Q2", "Q3"]]}]}', "round 1 table 1: a name is"),
        (b'{"rounds": [{"tables": [[1e999, "Q1", "Q2", "Q3"]]}]}', "round 1 table 1: a name is"),
        (
            b'{"rounds": [{"tables": [[' + b"9" * 5000 + b', "Q1", "Q2", "Q3"]]}]}',
            "round 1 table 1: a name is",
        ),
        # A CSV cell beyond the csv module's field limit (128 kB).
        (b"1,1," + b"Q" * 200_000 + b"\n", "line 1: a row is the round"),
        (b"x" * 1_000_001, "the plan file is over 1000 kB"),
    ],
)
def test_a_hostile_plan_file_is_refused_on_the_form_and_nothing_is_kept(organizer, content, said):
    event = make_event(slug="hostile", players=EIGHT)
    name = "plan.csv" if content.startswith((b"1,", b"x")) else "plan.json"
    upload = SimpleUploadedFile(name, content)
    reply = organizer.post("/events/hostile/manage/plan/upload/", {"file": upload})
    page = text(reply)
    assert reply.status_code == 400 and said in page, page[-2000:]
    assert 'name="file"' in page  # the dashboard's upload form, with the error beside it
    assert not SeatingPlan.objects.filter(event=event).exists()
