"""The organizer's hand on the sign-up list (issue 50 walk, services/registration_list.py):
a withdrawn player taken back within the capacity only, their sign-up following; names equal
but for case refused; a player withdrawn before any game gone from the standings whichever way
they withdrew; the waiting list reordered and logged; the entrants' states in the reader's
language; the dashboard's link; a mail server that refuses tried again, then logged once."""

from __future__ import annotations

import logging
import smtplib
from io import BytesIO

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.utils import translation

from tests.tournament.factories import make_event, scores_game, signed_up
from tests.tournament.organize_support import logged_in, organizer_for
from tournament.auditlog import entry_sentence
from tournament.models import AuditEntry, Entry, SignUp
from tournament.selectors.standings import event_standings
from tournament.services.errors import ServiceError
from tournament.services.events import entry_withdraw
from tournament.services.registration import registration_set, signup_withdraw
from tournament.services.registration_list import signup_move

pytestmark = pytest.mark.django_db


def _event(capacity=None, players=None, slug="su"):
    event = make_event(slug=slug, players=players or [])
    registration_set(event=event, open=True, capacity=capacity)
    return event


def _sign(event, name, email=None):
    return signed_up(event, name, email)


def _entry(event, name):
    return Entry.objects.select_related("player", "event").get(event=event, player__name=name)


def _in_play(event):
    return Entry.objects.filter(event=event, withdrawn=False, substitute=False).count()


def test_reinstating_past_the_capacity_is_refused_naming_it_and_saves_nothing():
    event = _event(capacity=2, players=["Aoki", "Baba"])
    entry_withdraw(entry=_entry(event, "Aoki"))
    _sign(event, "Chiba")  # takes the place Aoki left
    assert _in_play(event) == 2
    with pytest.raises(ServiceError) as exc:
        entry_withdraw(entry=_entry(event, "Aoki"), withdrawn=False)
    assert exc.value.field == "capacity" and exc.value.params["capacity"] == 2
    assert _entry(event, "Aoki").withdrawn and _in_play(event) == 2
    assert not AuditEntry.objects.filter(action="event.reinstate").exists()
    # On the players page: said in the organizer's language, nobody taken back.
    client = logged_in(organizer_for(event))
    url = f"/events/su/manage/players/{_entry(event, 'Aoki').pk}/withdraw/"
    page = client.post(url, {"withdrawn": "0"}, follow=True, HTTP_ACCEPT_LANGUAGE="ja")
    assert "定員（2 人）に達しています" in page.content.decode()
    assert _in_play(event) == 2
    registration_set(event=event, capacity=3)  # the capacity raised: Aoki comes back
    entry_withdraw(entry=_entry(event, "Aoki"), withdrawn=False)
    assert _in_play(event) == 3


def test_reinstating_a_signed_up_player_registers_their_sign_up_again():
    event = _event(capacity=2)
    aoki = _sign(event, "Aoki")
    _sign(event, "Baba")
    entry_withdraw(entry=_entry(event, "Aoki"))
    aoki.refresh_from_db()
    assert aoki.state == "withdrawn"
    entry_withdraw(entry=_entry(event, "Aoki"), withdrawn=False)
    aoki.refresh_from_db()
    assert aoki.state == "registered"
    page = Client().get(f"/events/su/register/{aoki.token}/").content.decode()
    assert "You are registered." in page


def test_a_sign_up_taken_back_keeps_out_of_a_name_signed_up_since():
    """Withdrawn from the link after playing (their entry stays, withdrawn), someone else
    signed up with the e-mail meanwhile: the entry comes back, the old sign-up stays as it is
    (two active sign-ups of one address would break the list's rule)."""
    event = _event(players=["Baba", "Chiba", "Doi"])
    aoki = _sign(event, "Aoki")
    scores_game(event, 1, 1, ["Aoki", "Baba", "Chiba", "Doi"])
    signup_withdraw(signup=aoki)
    _sign(event, "Endo", email="aoki@example.org")
    entry_withdraw(entry=_entry(event, "Aoki"), withdrawn=False)
    aoki.refresh_from_db()
    assert aoki.state == "withdrawn" and not _entry(event, "Aoki").withdrawn


@pytest.mark.parametrize("typed", ["aoki taro", "AOKI  TARO", "AokiTaro", "ａｏｋｉ ｔａｒｏ"])
def test_a_name_equal_but_for_case_or_spaces_is_refused_naming_the_field(typed):
    event = _event(players=["Baba Jiro"])
    _sign(event, "Aoki Taro")
    for name in (typed, "baba jiro"):
        with pytest.raises(ServiceError) as exc:
            _sign(event, name, email="other@example.org")
        assert exc.value.code == "signup.name_taken" and exc.value.field == "name"
    page = (
        Client()
        .post("/events/su/register/", {"name": typed, "email": "other@example.org"})
        .content.decode()
    )
    assert "Aoki Taro is signed up for this event already" in page
    assert _sign(event, "Aoki Hanako", email="hanako@example.org").state == "registered"


def test_withdrawn_before_any_game_is_off_the_standings_either_way():
    event = _event(players=["Baba", "Chiba", "Doi", "Endo"])
    by_link, by_organizer = _sign(event, "Aoki"), _sign(event, "Fujii")
    signup_withdraw(signup=by_link)
    entry_withdraw(entry=_entry(event, "Fujii"))
    assert by_organizer.pk and _entry(event, "Fujii").withdrawn  # kept, to be taken back
    names = {row.player for row in event_standings(event).rows}
    assert names == {"Baba", "Chiba", "Doi", "Endo"}
    page = Client().get("/events/su/").content.decode()
    assert "Fujii" not in page and "Aoki" not in page
    # Withdrawn after a game: their game stays in the standings.
    scores_game(event, 1, 1, ["Baba", "Chiba", "Doi", "Endo"])
    entry_withdraw(entry=_entry(event, "Endo"))
    assert "Endo" in {row.player for row in event_standings(event).rows}


def test_moving_on_the_waiting_list_keeps_places_dense_and_is_logged():
    event = _event(capacity=1)
    _sign(event, "Aoki")
    b, c, d = (_sign(event, n) for n in ("Baba", "Chiba", "Doi"))
    client = logged_in(organizer_for(event))
    url = "/events/su/manage/signups/"
    assert client.post(url, {"do": "top", "signup": str(d.pk)}).status_code == 302
    waiting = SignUp.objects.filter(state="waiting").order_by("position")
    assert [s.name for s in waiting] == ["Doi", "Baba", "Chiba"]
    client.post(url, {"do": "down", "signup": str(b.pk)})
    client.post(url, {"do": "down", "signup": str(b.pk)})  # the last already: stays
    client.post(url, {"do": "up", "signup": str(c.pk)})
    waiting = list(SignUp.objects.filter(state="waiting").order_by("position"))
    assert [s.name for s in waiting] == ["Chiba", "Doi", "Baba"]
    assert len({s.position for s in waiting}) == 3
    page = client.get(url).content.decode()
    assert page.index("chiba@example.org") < page.index("doi@example.org")
    assert page.count('value="top"') == 3  # the waiting rows' only, never a registered one's
    logged = AuditEntry.objects.filter(action="signup.move").order_by("pk")
    assert entry_sentence(logged.first()) == "Doi moved on the waiting list: place 3 → 1"
    with translation.override("ja"):
        assert entry_sentence(logged.first()) == "Doi のキャンセル待ちの順番：3 番目 → 1 番目"
    assert logged.count() == 3 and logged.first().user is not None
    # The first waiting moves up when a place comes free: Chiba, as the organizer put her.
    signup_withdraw(signup=SignUp.objects.get(name="Aoki"))
    assert SignUp.objects.get(name="Chiba").state == "registered"
    with pytest.raises(ServiceError) as exc:
        signup_move(signup=SignUp.objects.get(name="Chiba"), to="up")
    assert exc.value.code == "signup.not_waiting"
    reply = client.post(url, {"do": "up", "signup": str(c.pk)}, follow=True)
    assert "Chiba is not on the waiting list" in reply.content.decode()


def test_entrants_xlsx_says_the_states_in_the_readers_language():
    from openpyxl import load_workbook

    event = _event(capacity=1)
    _sign(event, "Aoki")
    _sign(event, "Baba")
    client = logged_in(organizer_for(event))
    for language, words in (
        ("ja", ["登録済み", "キャンセル待ち"]),
        ("en", ["Registered", "Waiting list"]),
    ):
        body = client.get("/events/su/manage/entrants.xlsx", HTTP_ACCEPT_LANGUAGE=language)
        sheet = load_workbook(BytesIO(body.content)).active
        assert [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)] == words
    csv = client.get("/events/su/manage/entrants.csv", HTTP_ACCEPT_LANGUAGE="ja")
    assert csv.content.decode("utf-8-sig").splitlines()[1].startswith("registered,")


def _top(page: str) -> str:
    """The dashboard's row of primary actions, under the event's name."""
    start = page.index('<nav class="actions"')
    return page[start : page.index("</nav>", start)]


def test_the_dashboard_links_the_sign_ups_at_the_top_once_set_up():
    event = make_event(slug="su", players=["Aoki"])
    client = logged_in(organizer_for(event))
    page = client.get("/events/su/manage/").content.decode()
    top = _top(page)
    assert "/manage/signups/" not in top and "/manage/signups/" in page  # to start it
    registration_set(event=event, open=True)
    page = client.get("/events/su/manage/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    top = _top(page)
    assert "/manage/signups/" in top and "受付中" in top
    assert page.count("/manage/signups/") == 1


class Refusing:
    """A mail backend whose server refuses every message."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise smtplib.SMTPRecipientsRefused({"aoki@example.org": (550, b"no")})


DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def test_a_refused_mail_is_tried_again_at_the_push_pace_then_logged_once(caplog):
    from tournament import tasks
    from tournament.services.push_send import TRIES

    event = _event()
    signup = _sign(event, "Aoki")
    caplog.set_level(logging.WARNING, logger="tournament.tasks")
    refusing = "tests.tournament.test_registration_list.Refusing"
    with override_settings(TASKS=DUMMY, EMAIL_BACKEND=refusing):
        backend = tasks.registration_mail_task.get_backend()
        tries = 0
        while True:
            assert tasks.registration_mail_task.call(signup.pk, "signed", tries) is False
            queued = backend.results
            if not queued:
                break
            again = queued.pop()
            assert again.args == [signup.pk, "signed", tries + 1] and again.task.run_after
            tries += 1
    assert tries == TRIES - 1  # the first send and its retries: TRIES in all
    gave_up = [r for r in caplog.records if "gave up" in r.getMessage()]
    assert len(gave_up) == 1 and "SMTPRecipientsRefused" in gave_up[0].getMessage()
    assert mail.outbox == []


def test_the_form_says_where_a_sign_up_now_goes():
    event = _event(capacity=2)
    _sign(event, "Aoki")
    assert "1 place left." in Client().get("/events/su/register/").content.decode()
    _sign(event, "Baba")
    _sign(event, "Chiba")
    page = Client().get("/events/su/register/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "満員です。今申込を確定すると、キャンセル待ち 2 番目になります。" in page
    page = Client().get(f"/events/su/register/{SignUp.objects.get(name='Chiba').token}/")
    assert 'class="stack narrow tick"' in page.content.decode()  # the box beside its sentence


def test_a_pasted_name_withdrawn_moves_the_waiting_list_up(django_capture_on_commit_callbacks):
    """The capacity counts the names the organizer pasted: one withdrawn frees a place, and
    the first waiting takes it, as when a signed-up player withdraws."""
    event = _event(capacity=2, players=["Aoki", "Baba"])
    chiba = _sign(event, "Chiba")
    assert chiba.state == "waiting"
    with django_capture_on_commit_callbacks(execute=True):
        entry_withdraw(entry=_entry(event, "Aoki"))
    chiba.refresh_from_db()
    assert chiba.state == "registered" and _in_play(event) == 2
    logged = AuditEntry.objects.get(action="signup.withdraw")
    assert entry_sentence(logged) == "Aoki withdrew; moved up: Chiba"
    assert [m.to for m in mail.outbox] == [["chiba@example.org"]]  # she is told
    assert "A place came free" in mail.outbox[0].body


def test_the_admin_refuses_a_reinstatement_past_the_capacity_on_its_form():
    from django.contrib.auth import get_user_model

    event = _event(capacity=1, players=["Aoki"])
    entry_withdraw(entry=_entry(event, "Aoki"))
    _sign(event, "Baba")
    admin = Client()
    admin.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    url = f"/admin/tournament/entry/{_entry(event, 'Aoki').pk}/change/"
    reply = admin.post(url, {})  # the box unticked: taken back
    assert reply.status_code == 200
    assert "the event is full (capacity 1)" in reply.content.decode()
    assert _entry(event, "Aoki").withdrawn


def test_the_standings_count_no_page_for_players_withdrawn_before_playing():
    """100 rows fill page 1; the 101st entry withdrawn before any game is on no page, so
    there is no page 2 to ask for."""
    names = [f"P{k:03d}" for k in range(101)]
    event = _event(players=names)
    assert Client().get("/events/su/?page=2").status_code == 200
    entry_withdraw(entry=_entry(event, "P100"))
    assert Client().get("/events/su/?page=2").status_code == 404
