"""Issue 13, penalties: given and cancelled by organizers and referees, logged, counted in the
totals, the cut, the exports and the player page; a report page per event."""

from __future__ import annotations

import pytest

from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, make_user, organizer_for, text, url
from tests.tournament.test_exports import rows
from tournament.models import AuditEntry, Penalty
from tournament.selectors.standings import event_standings
from tournament.services.events import event_referees_set
from tournament.services.penalties import penalty_give

pytestmark = pytest.mark.django_db


def totals(event) -> dict[str, float]:
    return {str(r.player): float(r.total) for r in event_standings(event).rows}


def test_a_referee_gives_and_cancels_a_penalty_and_the_standings_follow():
    event = make_event()
    referee = make_user("ref")
    event_referees_set(event=event, users=[referee])
    client = logged_in(referee)
    reply = client.post(
        url("penalties", event.slug),
        {
            "player": "P01",
            "kind": "penalty",
            "points": "10",
            "round_number": "",
            "reason": "late to round 2",
        },
    )
    assert reply.status_code == 302
    assert totals(event)["P01"] == -10.0
    page = text(client.get(url("penalties", event.slug)))
    assert "late to round 2" in page and "-10.0" in page
    standings = text(client.get(url("event-detail", event.slug)))
    assert "Penalties" in standings  # the column shows once someone has one
    csv = rows(event)
    assert csv[0][-1] == "penalties"
    assert next(r for r in csv if r[1] == "P01")[-1] == "-10.0"
    penalty = Penalty.objects.get()
    client.post(url("penalty-cancel", event.slug, penalty.pk))
    penalty.refresh_from_db()
    assert penalty.cancelled_at is not None and totals(event)["P01"] == 0.0
    assert "cancelled" in text(client.get(url("penalties", event.slug)))  # kept, marked
    actions = list(AuditEntry.objects.values_list("action", flat=True))
    assert "penalty.give" in actions and "penalty.cancel" in actions


@pytest.mark.parametrize(
    ("kind", "points", "field"),
    [
        ("penalty", "0", "points"),
        ("penalty", "5000", "points"),
        ("bonus", "abc", "points"),
        ("penalty", "-10", "points"),  # the size is typed, the sign chosen: never guessed
        ("", "10", "kind"),  # "10" with no choice was once a +10 bonus without a word
        ("minus", "10", "kind"),
    ],
)
def test_a_bad_penalty_is_refused_next_to_its_field(kind, points, field):
    event = make_event()
    client = logged_in(organizer_for(event))
    reply = client.post(
        url("penalties", event.slug),
        {"player": "P01", "kind": kind, "points": points, "reason": "x"},
    )
    assert reply.status_code == 400 and f'id="id_{field}_error"' in text(reply)
    assert not Penalty.objects.exists()


def test_the_sign_is_the_choice_and_the_number_its_size_in_both_languages():
    event = make_event()
    client = logged_in(organizer_for(event))
    ja = {"accept-language": "ja"}
    page = text(client.get(url("penalties", event.slug), headers=ja))
    assert "ペナルティ" in page and "ボーナス" in page and "マイナスは受け付けません" in page
    for kind, points in (("penalty", "10"), ("bonus", "2.5")):
        reply = client.post(
            url("penalties", event.slug),
            {"player": "P01", "kind": kind, "points": points, "reason": "x"},
            headers=ja,
            follow=True,
        )
        said = "ペナルティを記録しました" if kind == "penalty" else "ボーナスを記録しました"
        assert said in text(reply)
    assert totals(event)["P01"] == -7.5
    assert sorted(float(p) for p in Penalty.objects.values_list("points", flat=True)) == [-10, 2.5]
    listed = text(client.get(url("penalties", event.slug), headers=ja))
    assert "ペナルティ -10.0" in listed and "ボーナス +2.5" in listed
    refused = client.post(
        url("penalties", event.slug),
        {"player": "P01", "kind": "penalty", "points": "-10", "reason": "x"},
        headers=ja,
    )
    assert "−10 ではなく 10" in text(refused) and Penalty.objects.count() == 2


def test_an_unknown_player_or_no_reason_is_refused():
    event = make_event()
    client = logged_in(organizer_for(event))
    reply = client.post(
        url("penalties", event.slug),
        {"player": "Nobody", "kind": "penalty", "points": "5", "reason": "x"},
    )
    assert reply.status_code == 400 and not Penalty.objects.exists()
    reply = client.post(
        url("penalties", event.slug),
        {"player": "P01", "kind": "penalty", "points": "5", "reason": " "},
    )
    assert reply.status_code == 400 and not Penalty.objects.exists()


def test_the_player_page_shows_the_penalty_in_the_event():
    from tests.tournament.test_exports import scores_game

    event = make_event()
    scores_game(event, 1, 1, ["P00", "P01", "P02", "P03"])
    penalty_give(event=event, player="P01", points=-3, reason="manners")
    player = Penalty.objects.get().player
    page = text(logged_in(make_user("x")).get(url("player-detail", player.pk)))
    assert "Penalties" in page and "-3.0" in page
