"""The organizer's sign-up list (issue 50): e-mails for organizers only, the settings (a
capacity below the registered count refused naming how many; a raise moves the list),
approve one or all, refuse, remove (the list moves up), each logged as a sentence."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from openpyxl import load_workbook

from tests.tournament.factories import make_event, signed_up
from tests.tournament.organize_support import logged_in, make_user, organizer_for
from tournament.auditlog import entry_sentence
from tournament.models import AuditEntry, SignUp
from tournament.services.registration import registration_set

pytestmark = pytest.mark.django_db
URL = "/events/su/manage/signups/"


@pytest.fixture
def event():
    event = make_event(slug="su", players=[])
    registration_set(event=event, open=True, capacity=1)
    for name in ("Aoki", "Baba", "Chiba"):
        signed_up(event, name)
    return event


def test_emails_for_organizers_only(event):
    page = logged_in(organizer_for(event)).get(URL).content.decode()
    assert "aoki@example.org" in page and "chiba@example.org" in page
    assert Client().get(URL).status_code == 302  # to log in
    assert logged_in(make_user("stranger")).get(URL).status_code == 403
    assert "@example.org" not in Client().get("/events/su/").content.decode()


def test_each_list_scrolls_by_itself_on_a_phone(event):
    """Name, e-mail, EMA, country and the buttons are wider than a phone: the table scrolls
    inside the page, never the page sideways."""
    page = logged_in(organizer_for(event)).get(URL).content.decode()
    assert page.count('<div class="scroll"><table class="signups">') == 2  # registered, waiting


def test_settings_capacity_refused_below_count_then_raised(event):
    client = logged_in(organizer_for(event))
    form = {"do": "settings", "open": "on", "capacity": "0"}
    answer = client.post(URL, form)
    assert answer.status_code == 400 and list(answer.context["form"].errors) == ["capacity"]
    registration_set(event=event, capacity=2)
    answer = client.post(URL, {**form, "capacity": "1"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert answer.status_code == 400
    assert "登録済みの参加者が 2 人います" in answer.content.decode()
    assert client.post(URL, {**form, "capacity": ""}).status_code == 302
    assert SignUp.objects.get(name="Chiba").state == "registered"


def test_remove_moves_the_list_and_is_logged(event):
    client = logged_in(organizer_for(event))
    aoki = SignUp.objects.get(name="Aoki")
    # Issue 66: the list asks first, naming who goes, and the answer says what was done.
    page = client.get(URL).content.decode()
    assert "Remove Aoki from the list?" in page and "Yes, remove Aoki" in page
    answer = client.post(URL, {"do": "remove", "signup": str(aoki.pk)}, follow=True)
    assert "Aoki is removed from the list." in answer.content.decode()
    states = dict(SignUp.objects.values_list("name", "state"))
    assert states == {"Aoki": "withdrawn", "Baba": "registered", "Chiba": "waiting"}
    entry = AuditEntry.objects.get(action="signup.withdraw")
    assert entry.user is not None
    assert entry_sentence(entry) == "Aoki withdrew; moved up: Baba"


def test_approve_one_or_all_and_refuse(event):
    registration_set(event=event, approval=True, capacity=None)
    for name in ("Doi", "Endo", "Fujii"):
        signed_up(event, name)
    client = logged_in(organizer_for(event))
    doi, endo = SignUp.objects.get(name="Doi"), SignUp.objects.get(name="Endo")
    client.post(URL, {"do": "approve", "signup": str(doi.pk)})
    client.post(URL, {"do": "refuse", "signup": str(endo.pk)})
    client.post(URL, {"do": "approve_all"})
    states = dict(
        SignUp.objects.filter(name__in=["Doi", "Endo", "Fujii"]).values_list("name", "state")
    )
    assert states == {"Doi": "registered", "Endo": "refused", "Fujii": "registered"}
    assert client.post(URL, {"do": "approve", "signup": "x"}).status_code == 302  # nothing named
    assert client.post(URL, {"do": "refuse", "signup": str(doi.pk)}).status_code == 302
    assert SignUp.objects.get(name="Doi").state == "registered"  # registered: not refusable


def test_entrants_download_for_organizers_only(event):
    client = logged_in(organizer_for(event))
    csv = client.get("/events/su/manage/entrants.csv")
    assert csv.status_code == 200 and "attachment" in csv["Content-Disposition"]
    lines = csv.content.decode("utf-8-sig").strip().splitlines()
    assert lines[1:] == [
        "registered,1,Aoki,aoki@example.org,,",
        "waiting,1,Baba,baba@example.org,,",
        "waiting,2,Chiba,chiba@example.org,,",
    ]
    # The spreadsheet heads the sign-up order 受付順 in Japanese, not the rankings' 順位.
    for language, wanted in (("en", ("State", "Order")), ("ja", ("状態", "受付順"))):
        xlsx = client.get("/events/su/manage/entrants.xlsx", HTTP_ACCEPT_LANGUAGE=language)
        sheet = load_workbook(io.BytesIO(xlsx.content)).active
        assert (sheet["A1"].value, sheet["B1"].value) == wanted
    assert client.get("/events/su/manage/entrants.xlsx").status_code == 200
    assert Client().get("/events/su/manage/entrants.csv").status_code == 302
    assert logged_in(make_user("stranger")).get("/events/su/manage/entrants.csv").status_code == 403


def test_the_count_says_which_players_were_pasted_rather_than_signed_up(event):
    """The count is every player in play; the Registered list holds sign-ups only."""
    from tournament.services.events import event_register_players

    client = logged_in(organizer_for(event))
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 player registered." in page and "added on the players page" not in page
    event_register_players(event=event, names=["Pasted One", "Pasted Two"])
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "3 players registered." in page and "Registered (1)" in page
    assert "2 of them were added on the players page" in page
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "うち 2 名は選手ページで追加" in page
