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
    ja = client.get(f"/events/{event.slug}/manage/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert ("全 8 回戦を組み終えました" in ja) is not offered
