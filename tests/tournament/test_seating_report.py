"""Issue 33: the seating report on the dashboard and the round sheet — the pairs who met more
than once and who, against the least the numbers allow, and each player's winds."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import text
from tests.tournament.test_tournament_day import finish
from tournament.models import Seat
from tournament.selectors.tables import seating_report
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

EIGHT = [f"P{i}" for i in range(8)]
SCORES = {t: [45000, 30000, 15000, 10000] for t in (1, 2)}


@pytest.fixture
def organizer():
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("o", "o@example.com", "pw"))
    return client


def test_eight_players_in_two_rounds_must_meet_again_and_the_report_says_who(organizer):
    event = make_event(slug="eight", players=EIGHT)
    assert seating_report(event) is None
    round_seat(event=event, rng=random.Random(1))
    finish(event, 1, SCORES)
    round_seat(event=event, number=2, rng=random.Random(2))
    report = seating_report(event)
    met: dict[frozenset, int] = {}
    for rnd in (1, 2):
        by_table: dict[int, list[str]] = {}
        for table, name in Seat.objects.filter(round__event=event, round__number=rnd).values_list(
            "game__table", "player__name"
        ):
            by_table.setdefault(table, []).append(name)
        for t in by_table.values():
            for i, a in enumerate(t):
                for b in t[i + 1 :]:
                    met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    twice = sorted(sorted(p) for p, c in met.items() if c > 1)
    assert [r[:2] for r in report["repeated_pairs"]] == twice and twice
    assert report["best_pairs_met_more_than_once"] > 0  # two tables of 8 cannot avoid it
    page = text(organizer.get("/events/eight/manage/", headers={"accept-language": "ja"}))
    assert f"{len(twice)}組が2回以上同卓しました" in page
    a, b = twice[0]
    assert re.search(rf"{a} · {b} <span class=\"meta\">2回</span>", page)
    sheet = text(organizer.get("/events/eight/manage/rounds/1/"))
    assert "Nobody has met anyone twice." in sheet  # round 1 alone: nobody yet


def test_sixteen_players_seated_at_random_meet_nobody_twice_and_winds_are_reported(organizer):
    event = make_event(slug="sixteen", players=[f"Q{i:02d}" for i in range(16)])
    for number in (1, 2):
        round_seat(event=event, number=number, rng=random.Random(number))
        finish(event, number, {t: [45000, 30000, 15000, 10000] for t in range(1, 5)})
    report = seating_report(event)
    assert report["pairs_met_more_than_once"] == 0 and report["unbalanced"] == []
    assert all(sum(c) == 2 for c in report["winds"].values())
    page = text(organizer.get("/events/sixteen/manage/"))
    assert "Nobody has met anyone twice." in page and "Every player's winds are even" in page
