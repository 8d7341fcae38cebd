"""Issue 29, part 8: names that look the same are one player at every entrance."""

from __future__ import annotations

import pytest

from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, organizer_for, text, url
from tournament.models import Player

pytestmark = pytest.mark.django_db


def test_a_pasted_list_with_a_name_and_its_invisible_twin_is_refused_as_listed_twice():
    event = make_event(slug="inv", players=["A1", "A2", "A3", "A4"])
    organizer = logged_in(organizer_for(event))
    page = organizer.post(url("players-add", event.slug), {"players": "PA1\nPA1\u200b\n\ufeffPA2"})
    assert page.status_code == 400 and "PA1 is listed twice" in text(page)
    assert not Player.objects.filter(name__startswith="PA").exists()


def test_a_bom_and_a_bidi_control_are_dropped_from_a_pasted_name():
    event = make_event(slug="inv", players=["A1", "A2", "A3", "A4"])
    organizer = logged_in(organizer_for(event))
    reply = organizer.post(url("players-add", event.slug), {"players": "\ufeffPA2\n\u202ePA3"})
    assert reply.status_code == 302
    assert set(Player.objects.filter(name__startswith="PA").values_list("name", flat=True)) == {
        "PA2",
        "PA3",
    }


def test_a_name_of_only_a_zero_width_space_is_refused_saying_why():
    event = make_event(slug="inv", players=["A1", "A2", "A3", "A4"])
    organizer = logged_in(organizer_for(event))
    page = organizer.post(url("players-add", event.slug), {"players": "OK\n\u200b"})
    assert page.status_code == 400 and "invisible" in text(page)
