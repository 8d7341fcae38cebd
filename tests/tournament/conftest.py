"""Fixtures shared by the tests of the site's sending (issue 49): the stand-in push service
and webhook (stand_in.py), and a VAPID key of the test's own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.tournament.stand_in import Hook, PushService, stand_in
from tournament.push_keys import private_key_new


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with stand_in(PushService, 201) as service:
        yield service


@pytest.fixture
def hook() -> Iterator[Hook]:
    with stand_in(Hook, 200) as service:
        yield service


@pytest.fixture
def vapid(settings) -> str:
    settings.VAPID_PRIVATE_KEY = private_key_new()
    settings.VAPID_SUBJECT = "mailto:organizer@example.org"
    return settings.VAPID_PRIVATE_KEY
