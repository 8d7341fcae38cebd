"""The dashboard offers no round past the format's last (issue 66: the demo's Baba day, its
eight rounds played, offered to seat round 9 "the 4 players through the qualifier")."""

from __future__ import annotations

import pytest

from tests.tournament.factories import baba_day
from tests.tournament.organize_support import logged_in, organizer_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("played", "offered"), [(6, True), (8, False)])
def test_the_seat_form_is_offered_while_the_format_has_a_round_left(played, offered) -> None:
    event = baba_day(slug=f"rounds-{played}", played=played, close_qualifier=played >= 6)
    client = logged_in(organizer_for(event))
    page = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert ("Seat the next round" in page) is offered
    assert ("All 8 rounds of the format are seated" in page) is not offered
    # Nor Tenhou logs into a round past the last (the walk of 2026-11-30: /rounds/9/tenhou/).
    assert (f"/events/{event.slug}/manage/rounds/{played + 1}/tenhou/" in page) is offered
    # Nor a whole-day plan for rounds that will not be played (6 rounds for the 4 finalists).
    assert ("Whole-day seating plan" in page) is offered
    assert ("/manage/plan/" in page) is offered
    ja = client.get(f"/events/{event.slug}/manage/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert ("全 8 回戦を組み終えました" in ja) is not offered


def test_a_plan_kept_is_still_shown_once_every_round_is_seated() -> None:
    from tournament.services.plans import plan_make

    event = baba_day(slug="rounds-plan", played=8, close_qualifier=True)
    plan_make(event=event, rounds=6, seed=1)
    page = logged_in(organizer_for(event)).get(f"/events/{event.slug}/manage/").content.decode()
    assert "A plan of 6 rounds" in page and "/manage/plan.csv" in page
    assert "Make or upload another plan" not in page
