"""An event file's `registration` (CONTRACT §2, §8): read by import, written by export, every
key checked naming its path; the file's players are registered and count toward the capacity."""

from __future__ import annotations

import pytest

from tests.tournament.factories import make_event, signed_up
from tournament.models import Registration
from tournament.services.errors import ServiceError
from tournament.services.imports import event_export, event_import
from tournament.services.registration import registration_set

pytestmark = pytest.mark.django_db


def _file(**more):
    return {"name": "Open cup", "slug": "open-cup", "players": ["Aoki", "Baba"], **more}


def test_import_reads_and_export_writes_it():
    settings = {"open": True, "capacity": 16, "approval": False}
    event = event_import(_file(registration=settings))
    row = Registration.objects.get(event=event)
    assert (row.open, row.capacity, row.approval) == (True, 16, False)
    out = event_export(event)
    assert out["registration"] == settings
    again = event_import(out, replace=True)
    assert event_export(again)["registration"] == settings
    # the file's players count toward the capacity: 14 places left
    registration_set(event=again, capacity=3)
    assert signed_up(again, "Chiba").state == "registered"
    assert signed_up(again, "Doi").state == "waiting"


def test_no_registration_no_key():
    assert "registration" not in event_export(make_event(slug="plain"))


def test_missing_keys_take_their_defaults():
    event = event_import(_file(registration={"capacity": None}))
    assert event_export(event)["registration"] == {
        "open": False,
        "capacity": None,
        "approval": False,
    }


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ([], "registration"),
        ({"open": "yes"}, "registration.open"),
        ({"approval": 1}, "registration.approval"),
        ({"capacity": 0}, "registration.capacity"),
        ({"capacity": "16"}, "registration.capacity"),
        ({"capacity": 1.5}, "registration.capacity"),
        ({"size": 16}, "registration.size"),
        ({"capacity": 1}, "registration.capacity"),  # below the 2 players of the file
    ],
)
def test_bad_settings_named(raw, field):
    with pytest.raises(ServiceError) as exc:
        event_import(_file(registration=raw))
    assert exc.value.field == field
    assert not Registration.objects.exists()
