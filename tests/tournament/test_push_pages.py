"""Issue 49: where a player turns notifications on, and where a message leads. Find your seat
tells a player with a bye that they sit the round out and offers "Notify me" there, and before
round 1 is seated finds the name alone so the first seating reaches them; the player page
offers it for every event still played; a "waits for your confirmation" message leads to a
page that confirms with the seat's code typed."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import url
from tests.tournament.test_push import Browser, messages, player_id, subscribe
from tournament.models import Game, SitOut
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

BLURB_EN = "a result at your table waiting for your confirmation"
BLURB_JA = "あなたの卓の結果があなたの確認を待っているとき"


def find(event, name: str, language: str = "en") -> str:
    page = Client().get(url("find-seat", event.slug), {"name": name}, HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    return page.content.decode()


def test_a_player_with_a_bye_is_told_they_sit_out_and_may_still_turn_notifications_on(vapid):
    event = make_event(slug="bye", players=[f"P{i:02d}" for i in range(9)])
    rnd = round_seat(event=event, shortfall="bye", rng=random.Random(2))
    [bye] = SitOut.objects.filter(round=rnd, reason="bye").values_list("player__name", flat=True)
    english = find(event, bye)
    assert "You sit out round 1 (a bye)." in english
    assert "Nobody in round" not in english
    assert f'data-player="{player_id(bye)}"' in english and "Notify me" in english
    assert "Stop notifications" in english and BLURB_EN in english
    japanese = find(event, bye, "ja")
    assert "第1回戦は抜け番です。" in japanese and "通知" in japanese
    assert BLURB_JA in japanese
    # A seated player's card is as it was: the table and the wind.
    seated = next(n for n in (f"P{i:02d}" for i in range(9)) if n != bye)
    assert "You sit out" not in find(event, seated) and "Table " in find(event, seated)


def test_before_round_1_a_player_finds_their_name_and_turns_notifications_on(vapid):
    event = make_event(slug="early", players=["Aoki", "Baba", "Chiba", "Doi", "Endo"])
    english = find(event, "bab")
    assert "Baba" in english and "Round 1 is not seated yet" in english
    assert f'data-player="{player_id("Baba")}"' in english and "Notify me" in english
    japanese = find(event, "Baba", "ja")
    assert "1回戦の組み合わせはまだです" in japanese and BLURB_JA in japanese
    assert "No round is seated yet" in Client().get(url("find-seat", event.slug)).content.decode()
    # A name nobody has: said, in both languages, with nothing to tap.
    nobody = find(event, "Zed")
    assert "Nobody in this event is called “Zed”" in nobody and "data-push " not in nobody
    assert "この大会に「Zed」という選手はいません" in find(event, "Zed", "ja")
    # And the subscription made there is told the first round's seating.
    browser = Browser("http://127.0.0.1:9/early")
    assert subscribe(Client(), event, "Baba", browser, "en").status_code == 201


def test_before_round_1_the_first_seating_reaches_who_subscribed(vapid, push_service):
    event = make_event(slug="first", players=[f"P{i:02d}" for i in range(8)])
    browser = Browser(f"{push_service.base}/p03")
    assert subscribe(Client(), event, "P03", browser, "ja").status_code == 201
    from tournament.services.push_send import notifications_send

    round_seat(event=event, rng=random.Random(1))
    assert notifications_send() == 1
    [message] = messages(push_service, browser)
    assert message["body"].startswith("第1回戦 ")


def test_a_site_without_a_key_finds_the_name_before_round_1_and_offers_nothing(settings):
    settings.VAPID_PRIVATE_KEY = ""
    event = make_event(slug="quiet", players=["Aoki", "Baba", "Chiba", "Doi"])
    page = find(event, "Aoki")
    assert "Round 1 is not seated yet: look again here when it is." in page
    assert "data-push " not in page


def test_the_player_page_offers_notifications_before_their_first_game_is_finished(vapid):
    event = make_event(slug="soon", players=[f"P{i:02d}" for i in range(8)])
    page = Client().get(f"/players/{player_id('P00')}/").content.decode()
    assert f'data-url="/events/{event.slug}/push/"' in page and "Notify me" in page
    assert BLURB_EN in page
    round_seat(event=event, rng=random.Random(2))  # seated, nothing finished: still offered
    assert "data-push " in Client().get(f"/players/{player_id('P00')}/").content.decode()


def test_the_confirmation_message_leads_to_a_page_that_confirms_with_the_seats_code(
    vapid, push_service, django_capture_on_commit_callbacks
):
    event = make_event(slug="conf", players=[f"P{i:02d}" for i in range(8)])
    event.table_entry, event.table_mode = "tables", "scores"
    event.save()
    round_seat(event=event, rng=random.Random(3))
    game = Game.objects.filter(round__event=event).order_by("table").first()
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    browser = Browser(f"{push_service.base}/south")
    assert subscribe(Client(), event, names[1], browser, "en").status_code == 201
    link = game.links.get(revoked_at__isnull=True)
    entering = Client()
    entering.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[0]})
    post = {"do": "scores", "version": game.version, "deposits": "0"}
    for i, (name, score) in enumerate(zip(names, [40000, 30000, 20000, 10000], strict=True)):
        post.update({f"seat_{i}": name, f"score_{i}": str(score)})
    with django_capture_on_commit_callbacks(execute=True):
        entering.post(f"/t/{link.token}/", post)
    [message] = messages(push_service, browser)
    assert "confirm it with the code on your seat's slip" in message["body"]
    # The phone the message arrives on never scanned a slip: the page it opens asks the code.
    phone = Client()
    page = phone.get(message["url"]).content.decode()
    assert "Your seat code" in page and 'value="confirm"' in page
    # The entering seat's own code confirms nothing (one seat's code alone is never final).
    refused = phone.post(message["url"], {"do": "confirm", "code": link.seat_codes[0]})
    assert refused.status_code == 400
    game.refresh_from_db()
    assert game.confirmation == "waiting" and not game.finished
    confirmed = phone.post(message["url"], {"do": "confirm", "code": link.seat_codes[1]})
    assert confirmed.status_code == 302
    game.refresh_from_db()
    assert game.confirmation == "" and game.finished
