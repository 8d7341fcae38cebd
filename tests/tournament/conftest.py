"""Fixtures shared by the tests of the site's sending (issue 49): the stand-in push service
and webhook (stand_in.py), and a VAPID key of the test's own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import global_settings

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


@pytest.fixture(params=["tests", pytest.param("production", marks=pytest.mark.slow)])
def password_hasher(request, settings) -> str:
    """A log-in test run with the tests' fast hasher (tests/settings.py), and once more with
    production's — PBKDF2 at a million iterations, a third of a second a guess: the lock must
    count the same at production's speed (`make test-slow`)."""
    if request.param == "production":
        settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    return request.param
