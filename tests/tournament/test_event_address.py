"""An event's address made from its name (services/events.event_slug): ASCII where every letter
is Latin, accents aside; the name's own script otherwise — a Japanese name keeps its Japanese
beside a Latin word (issue 66: 「馬場11時大会 walk 杯」 became /events/11-walk/)."""

from __future__ import annotations

import pytest
from django.test import Client

from tournament.services.events import event_create, event_slug

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("馬場11時大会 walk 杯", "馬場11時大会-walk-杯"),
        ("水曜リーグ 11月", "水曜リーグ-11月"),
        ("Chloé Cup", "chloe-cup"),
        ("Riichi Nights 12", "riichi-nights-12"),
        ("Straße Open", "straße-open"),  # ASCII would drop the ß: "strae-open"
        ("Ελλάδα Open", "ελλάδα-open"),
    ],
)
def test_the_address_keeps_every_letter_of_the_name(name: str, slug: str) -> None:
    assert event_slug(name) == slug


def test_a_mixed_name_made_on_the_form_opens_at_its_address(client: Client) -> None:
    event = event_create(name="馬場11時大会 walk 杯", ruleset="baba", format="league", players=[])
    assert event.slug == "馬場11時大会-walk-杯"
    assert client.get(f"/events/{event.slug}/").status_code == 200
