"""An event is over once every stage is closed (selectors/published.py `event_over`). A walk of
the day found its standings still promising "refreshes every 30 s" with nothing saying the
results were final, and find your seat offering "Notify me" for an event with nothing left to
tell. Closing the last stage moves the event's version, so the cached pages change."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournament.factories import league_data
from tournament.models import Event
from tournament.services.imports import event_import
from tournament.services.stages import stage_close

pytestmark = pytest.mark.django_db


def _league() -> Event:
    data = league_data(8, 1)  # a league, its one round played
    data["games"][0]["scores"] = [50000, 23000, 17500, 9500]  # a winner: no tie to settle
    return event_import(data)


def _close(event: Event) -> None:
    for stage in event.stages.order_by("position"):
        stage_close(event=event, stage=stage)
    event.refresh_from_db()


def _get(client: Client, path: str, language: str, **extra: str):
    return client.get(path, headers={"accept-language": language, **extra})


def test_once_every_stage_is_closed_the_standings_say_final_and_stop_refreshing():
    event = _league()
    path = reverse("event-detail", args=[event.slug])
    client = Client()
    before = _get(client, path, "en")
    assert "refreshes every 5 s" in before.content.decode()
    assert "data-live=" in before.content.decode()
    assert "are final" not in before.content.decode()
    version = event.version
    _close(event)
    assert event.version > version  # the page's ETag moves with it
    # A phone holding the old page is sent the new one, not 304.
    after = _get(client, path, "en", **{"if-none-match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    english = after.content.decode()
    assert "Final standings" in english
    assert "Every stage is closed: these standings are final." in english
    assert "refreshes every" not in english and "data-live=" not in english
    assert "live.js" not in english  # nothing polls
    japanese = _get(client, path, "ja").content.decode()
    assert "最終順位" in japanese and "全ステージを締め切りました。この順位で確定です。" in japanese
    assert "秒ごとに更新" not in japanese and "data-live=" not in japanese


def test_find_your_seat_offers_no_notifications_once_the_event_is_over(vapid):
    event = _league()
    path = reverse("find-seat", args=[event.slug])
    client = Client()
    during = _get(client, path + "?name=Player+0001", "en").content.decode()
    assert "Notify me" in during and "data-event-over" not in during
    _close(event)
    english = _get(client, path + "?name=Player+0001", "en").content.decode()
    assert "Table " in english  # the last round's seat is still found
    assert "Notify me" not in english and "push.js" not in english
    assert "This event is over: the seats shown are those of its last round, round 1." in english
    japanese = _get(client, path + "?name=Player+0001", "ja").content.decode()
    assert "通知を受け取る" not in japanese
    assert "この大会は終了しました。表示している席は最終の第1回戦のものです。" in japanese


def test_the_player_page_and_find_your_seat_keep_one_rule(vapid):
    """The player page's "running" (PlayerEvents.running) and find your seat's agree."""
    from tournament.models import Player
    from tournament.selectors.versions import player_events

    event = _league()
    player = Player.objects.get(name="Player 0001")
    assert event.pk in player_events(player.pk).running
    _close(event)
    assert event.pk not in player_events(player.pk).running


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_closed_event_s_screen_says_final_and_asks_nobody_to_check_in(language):
    """helper-48 saw a closed event's venue screen still say "Round 1: every table has
    finished" and show the check-in address and code."""
    event = _league()
    Event.objects.filter(pk=event.pk).update(checkin_required=True, checkin_code="AB12CD")
    path = reverse("standings-screen", args=[event.slug])
    client = Client()
    before = _get(client, path, language).content.decode()
    done = "every table has finished" if language == "en" else "全卓終了"
    assert done in before and 'data-link="checkin"' in before
    event.refresh_from_db()
    _close(event)
    after = _get(client, path, language).content.decode()
    assert ("Final standings" if language == "en" else "最終順位") in after
    assert done not in after and 'data-link="checkin"' not in after
    assert 'data-phase="final:1"' in after  # a screen drawn before reloads for its header
    body = _get(client, path, language, **{"x-requested-with": "fetch"}).content.decode()
    assert 'data-phase-now="final:1"' in body


def test_nobody_checks_in_once_the_event_is_over():
    """helper-49: after the final standings a phone checked a player in and was told to wait
    for the seating; the standings page still linked to check-in."""
    from tournament.services.checkin import checkin_self
    from tournament.services.errors import ServiceError

    event = _league()
    Event.objects.filter(pk=event.pk).update(checkin_required=True, checkin_code="AB12CD")
    event.refresh_from_db()
    path = reverse("event-detail", args=[event.slug])
    checkin = reverse("event-checkin", args=[event.slug])
    assert checkin in _get(Client(), path, "en").content.decode()
    _close(event)
    assert checkin not in _get(Client(), path, "en").content.decode()
    name = event.entries.select_related("player").first().player.name
    with pytest.raises(ServiceError, match="does not take check-ins"):
        checkin_self(event=event, name=name)
