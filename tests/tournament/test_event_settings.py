"""The event's date and its rules' knobs from the event form and the settings page (issue 66:
event files only, and `held_on` the day the event was made, so sign-up mails and the private
page gave no date): checked as event files check them, refused on the field in the reader's
language with what was typed kept; the rules fixed once a round is seated."""

from __future__ import annotations

import datetime
import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from tests.tournament.factories import baba_day, make_event, signed_up
from tests.tournament.organize_support import logged_in, organizer_for
from tournament.auditlog import entry_sentence
from tournament.models import AuditEntry, Event, RatingDue, SignUp
from tournament.services.errors import ServiceError
from tournament.services.event_settings import event_settings_set
from tournament.services.registration import registration_set
from tournament.services.registration_mail import mail_text
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 6)


def _creator() -> Client:
    return logged_in(get_user_model().objects.create_superuser("boss", "b@example.com", "pw"))


def _new(client: Client, lang: str = "en", **more: str):
    form = {"name": "Winter cup", "rules": "preset:baba", "format": "", "players": ""}
    return client.post("/events/new/", form | more, HTTP_ACCEPT_LANGUAGE=lang)


def test_the_new_event_form_sets_the_date_and_knobs() -> None:
    answer = _new(_creator(), held_on="2026-12-06", overrides='{"rounding": "exact", "winds": 1}')
    assert answer.status_code == 302
    event = Event.objects.get(name="Winter cup")
    assert (event.held_on, event.held_on_given) == (DAY, True)
    assert event.rules.rounding == "exact" and event.rules.winds == 1
    assert event.ruleset_snapshot["preset"] == "baba"


def test_the_new_event_form_without_a_date_says_none() -> None:
    assert _new(_creator()).status_code == 302
    assert not Event.objects.get(name="Winter cup").held_on_given


@pytest.mark.parametrize(
    ("typed", "en", "ja"),
    [
        ('{"rounding": "sideways"}', "rounding: ", "rounding: "),
        ('{"colour": 1}', "colour: unknown knob", "colour: "),
        ('{"winds": 1,', "not valid JSON", "JSON として読めません"),
        ("[1, 2]", "one JSON object", "JSON オブジェクト1つ"),
    ],
)
def test_a_wrong_knob_is_refused_on_its_field_and_kept(typed: str, en: str, ja: str) -> None:
    client = _creator()
    for lang, said in (("en", en), ("ja", ja)):
        answer = _new(client, held_on="2026-12-06", overrides=typed, lang=lang)
        assert answer.status_code == 400
        form = answer.context["form"]
        assert said in " ".join(form.errors["overrides"])
        assert list(form.errors) == ["overrides"]
        assert typed.replace('"', "&quot;") in answer.content.decode()  # kept as typed
    assert not Event.objects.filter(name="Winter cup").exists()


def test_the_settings_page_sets_the_date_and_rules_before_a_round_is_seated() -> None:
    event = make_event(slug="later", players=[f"P{i}" for i in range(8)])
    client = logged_in(organizer_for(event))
    page = client.get(f"/events/{event.slug}/manage/settings/")
    assert page.status_code == 200
    answer = client.post(
        f"/events/{event.slug}/manage/settings/",
        {"held_on": "2026-12-06", "overrides": '{"winds": 1}'},
    )
    assert answer.status_code == 302
    event.refresh_from_db()
    assert (event.held_on, event.held_on_given, event.rules.winds) == (DAY, True, 1)
    # The page shows the knobs as saved: sent back unchanged, nothing moves.
    again = client.get(f"/events/{event.slug}/manage/settings/").context["form"]
    assert again.initial["overrides"] == '{"winds": 1}'
    entry = AuditEntry.objects.get(action="event.settings")
    with translation.override("ja"):
        assert "2026-12-06" in entry_sentence(entry) and '"winds": 1' in entry_sentence(entry)
    dashboard = client.get(f"/events/{event.slug}/manage/", HTTP_ACCEPT_LANGUAGE="ja")
    assert "2026年12月6日" in dashboard.content.decode()


def test_the_rules_are_fixed_once_a_round_is_seated_the_date_is_not() -> None:
    event = make_event(slug="seated", players=[f"P{i}" for i in range(8)])
    round_seat(event=event, rng=random.Random(1))
    with pytest.raises(ServiceError) as caught:
        event_settings_set(event=event, held_on=DAY, overrides={"winds": 1})
    assert (caught.value.code, caught.value.field) == ("event.rules_seated", "ruleset")
    event_settings_set(event=event, held_on=DAY, overrides={})
    event.refresh_from_db()
    assert (event.held_on, event.rules.winds) == (DAY, 2)
    # The page shows the knobs but does not take them.
    client = logged_in(organizer_for(event))
    url = f"/events/{event.slug}/manage/settings/"
    assert "data-rules-fixed" in client.get(url).content.decode()
    client.post(url, {"held_on": "2026-12-07", "overrides": '{"winds": 1}'})
    event.refresh_from_db()
    assert (event.held_on, event.rules.winds) == (datetime.date(2026, 12, 7), 2)


def test_a_day_moved_after_games_replays_the_ratings(django_capture_on_commit_callbacks) -> None:
    event = baba_day(slug="moved", played=1)
    RatingDue.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=False):
        event_settings_set(event=event, held_on=DAY, overrides={})
    assert RatingDue.objects.filter(series__isnull=True).exists()


def test_the_sign_up_mail_and_private_page_give_the_date() -> None:
    event = make_event(slug="su", players=[])
    registration_set(event=event, open=True, capacity=None, approval=False)
    signup = signed_up(event, "Aoki", "aoki@example.org")
    with translation.override("en"):
        assert "Date:" not in mail_text(SignUp.objects.get(pk=signup.pk), "signed")[1]
    event_settings_set(event=event, held_on=DAY, overrides={})
    with translation.override("ja"):
        assert "日程：2026年12月6日" in mail_text(SignUp.objects.get(pk=signup.pk), "signed")[1]
    with translation.override("en"):
        assert "Date: Dec. 6, 2026" in mail_text(SignUp.objects.get(pk=signup.pk), "signed")[1]
    page = Client().get(f"/events/su/register/{signup.token}/", HTTP_ACCEPT_LANGUAGE="ja")
    assert "2026年12月6日" in page.content.decode()
