"""The demo: one realistic event per seed venue, and the organizer account."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from scoring import standings
from tests.tournament.factories import finish_demo_final
from tournament.models import Event, Game, Hand
from tournament.selectors.standings import event_format, event_results

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(capsys):
    call_command("load_demo")
    return capsys.readouterr().out


def test_the_demo_has_an_event_per_seed_venue_and_prints_the_organizer(demo):
    assert set(Event.objects.values_list("ruleset_snapshot__game", flat=True)) == {
        "riichi",
        "emperor",
    }
    slugs = {e.rules.slug for e in Event.objects.all()}
    assert slugs == {"baba", "jan-niki", "hyper", "free-sanma", "emperor"}
    assert "username 'organizer', password '" in demo
    user = get_user_model().objects.get(username="organizer")
    assert user.organized_events.count() == 5


def test_loading_the_demo_twice_replaces_it():
    call_command("load_demo")
    call_command("load_demo")
    assert Event.objects.count() == 5


def test_the_baba_demo_is_a_moment_of_a_real_day_its_final_at_its_last_hand(demo, client):
    """Issue 66: all eight rounds played, no stage closed, and a dashboard offering round 9.
    Now: the qualifier closed, the final's last hanchan at its last hand — its conditions
    shown, four finalists and no champion yet, and no round offered past the format's."""
    event = Event.objects.get(slug="baba-demo")
    assert [s.closed for s in event.stages.order_by("position")] == [True, False]
    final = Game.objects.get(round__event=event, round__number=8)
    assert not final.finished and final.mode == "hands"
    rows = list(csv.DictReader(io.StringIO(client.get("/events/baba-demo/standings.csv").text)))
    assert [r["status"] for r in rows[:4]] == ["finalist"] * 4
    assert all(r["status"] == "qualifier" for r in rows[4:])
    assert "What each player needs" in client.get("/events/baba-demo/").content.decode()
    organizer = get_user_model().objects.get(username="organizer")
    client.force_login(organizer)
    dashboard = client.get("/events/baba-demo/manage/").content.decode()
    assert "Seat the next round" not in dashboard


def test_the_baba_demo_s_final_table_enters_its_own_last_hand(demo, client):
    """The walks found no demo table with a link: the final's table enters its own hands, its
    link and seat codes on round 8's sheet, so a newcomer plays the last hand on a phone."""
    final = Game.objects.get(round__event__slug="baba-demo", round__number=8)
    link = final.links.get(revoked_at__isnull=True)
    client.force_login(get_user_model().objects.get(username="organizer"))
    sheet = client.get("/events/baba-demo/manage/rounds/8/").content.decode()
    assert link.code in sheet and all(code in sheet for code in link.seat_codes)
    phone = Client()
    assert (
        phone.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[0]}).status_code
        == 302
    )
    page = phone.get(f"/t/{link.token}/").content.decode()
    assert "Record S4-2" in page and "What each player needs" in page


def test_baba_export_shows_four_finalists_on_rounds_1_to_8_and_the_rest_on_1_to_6(demo, capsys):
    finish_demo_final()
    call_command("export_standings", "baba-demo", format="csv")
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(table) == 16
    assert [r["status"] for r in table[:4]] == ["champion", "finalist", "finalist", "finalist"]
    assert all(r["status"] == "qualifier" for r in table[4:])
    assert [int(r["rank"]) for r in table] == list(range(1, 17))

    def total(row, rounds):
        return round(sum(float(row[f"r{n}"]) for n in rounds), 1)

    for row in table[:4]:
        assert float(row["total"]) == total(row, range(1, 9))
    assert [float(r["total"]) for r in table[:4]] == sorted(
        (float(r["total"]) for r in table[:4]), reverse=True
    )
    for row in table[4:]:
        assert row["r7"] == row["r8"] == ""
        assert float(row["total"]) == total(row, range(1, 7))
    assert [float(r["total"]) for r in table[4:]] == sorted(
        (float(r["total"]) for r in table[4:]), reverse=True
    )


def test_baba_demo_has_a_tie_at_the_cut_broken_by_top_rate_a_bust_and_a_yakuman(demo):
    event = Event.objects.get(slug="baba-demo")
    fmt = event_format(event)
    qualifier_only = [g for g in event_results(event) if g.round <= 6]
    rows = standings(qualifier_only, fmt).rows
    fourth, fifth = rows[3], rows[4]
    assert fourth.stage_total == fifth.stage_total
    assert fourth.firsts > fifth.firsts and fourth.status == "finalist"
    games = Game.objects.filter(round__event=event)
    assert games.filter(mode="hands").exists() and games.filter(mode="scores").exists()
    hand_busts = any(h.scores and min(h.scores) < 0 for h in Hand.objects.filter(game__in=games))
    assert hand_busts or any(g.busts for g in games)
    yakuman_hands = [
        h for h in Hand.objects.filter(game__in=games) if h.data["result"].get("yakuman")
    ]
    assert yakuman_hands or any(g.yakuman for g in games)


def test_jan_niki_demo_has_a_bust_prize_and_a_yakuman_chip(demo):
    seats = Event.objects.get(slug="jan-niki-league").rounds.get(number=2).seats.all()
    assert any(s.breakdown.get("bust") for s in seats)
    assert any(s.breakdown.get("shugi") for s in seats)


def test_sanma_demo_plays_three_player_tables_and_a_west_round(demo):
    event = Event.objects.get(slug="free-sanma-day")
    assert {g.seats.count() for g in Game.objects.filter(round__event=event)} == {3}
    assert Hand.objects.filter(game__round__event=event, label__startswith="W").exists()


def test_emperor_demo_has_15_hand_games_with_dynasties(demo):
    event = Event.objects.get(slug="emperor-series")
    for game in Game.objects.filter(round__event=event):
        labels = list(game.hands.values_list("label", flat=True))
        counted = {label.split("局目")[0] for label in labels}
        assert len(counted) == 15
    assert Hand.objects.filter(game__round__event=event, label__contains="王朝").exists()
