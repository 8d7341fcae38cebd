"""CONTRACT §9's overlay page: a frame for a streaming program's browser source — no cookie,
nothing to click, its table's feed named, its words in the language asked for."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.tournament.factories import baba_day
from tournament.models import Game
from tournament.services.events import event_feature_game

pytestmark = pytest.mark.django_db


def _words(page: str) -> dict:
    found = re.search(r'<script id="overlay-words" type="application/json">(.*?)</script>', page)
    assert found
    return json.loads(found.group(1))


@pytest.mark.parametrize(
    ("lang", "hand", "over"),
    [
        ("ja", "{wind}{hand}局 {honba}本場", "終局"),
        ("en", "{wind} {hand}, {honba} honba", "Game over"),
    ],
)
def test_the_overlay_names_its_tables_feed_and_speaks_the_language_asked(lang, hand, over):
    event = baba_day(slug=f"overlay-{lang}", played=4, seat_next=True)
    answer = Client().get(f"/events/{event.slug}/overlay/?round=5&table=2&lang={lang}")
    assert answer.status_code == 200 and answer["Content-Language"] == lang
    assert not answer.cookies  # a browser source keeps nothing
    page = answer.content.decode()
    assert f'data-feed="/api/v1/events/{event.slug}/tables/5/2/live"' in page
    assert "<form" not in page and "csrfmiddlewaretoken" not in page
    words = _words(page)
    assert words["hand"] == hand and words["over"] == over
    # The gap to the top is said in words: never read as what a hand paid.
    assert "{points}" in words["to_top"] and words["to_top"] != "{points}"
    assert f'<html lang="{lang}">' in page
    # The feed it names answers.
    assert Client().get(f"/api/v1/events/{event.slug}/tables/5/2/live").status_code == 200


@pytest.mark.parametrize("query", ["", "?round=5", "?round=x&table=1", "?round=5&table=-3"])
@pytest.mark.parametrize(
    ("lang", "missing"), [("en", "No table is on stream."), ("ja", "配信卓が選ばれていません")]
)
def test_without_a_table_named_it_follows_the_featured_table(query, lang, missing):
    event = baba_day(slug="overlay-featured", played=4, seat_next=True)
    address = f"/events/{event.slug}/overlay/{query}&lang={lang}".replace("/&", "/?")
    answer = Client().get(address)
    assert answer.status_code == 200 and not answer.cookies
    page = answer.content.decode()
    assert f'data-feed="/api/v1/events/{event.slug}/featured/live"' in page
    assert "/tables/" not in page
    # What it says while no table is featured (the feed's 404).
    assert _words(page)["missing"] == missing
    assert Client().get(f"/api/v1/events/{event.slug}/featured/live").status_code == 404
    game = Game.objects.filter(round__event=event, round__number=5).first()
    event_feature_game(event=event, game=game)
    assert Client().get(f"/api/v1/events/{event.slug}/featured/live").status_code == 200


def test_a_table_named_keeps_its_own_word_for_no_game():
    event = baba_day(slug="overlay-named", played=4, seat_next=True)
    page = Client().get(f"/events/{event.slug}/overlay/?round=6&table=1&lang=en").content.decode()
    assert f'data-feed="/api/v1/events/{event.slug}/tables/6/1/live"' in page
    assert _words(page)["missing"] == "This table has no game yet."


def test_an_unknown_event_and_odd_parameters_answer_no_500():
    assert Client().get("/events/nope/overlay/").status_code == 404
    event = baba_day(slug="overlay-odd", played=4, seat_next=True)
    for query in ("?lang=fr&layout=huge", "?round=99999999999999&table=1", "?layout=full"):
        assert Client().get(f"/events/{event.slug}/overlay/{query}").status_code == 200


def test_the_full_layout_names_the_standings_and_the_gap_is_chosen():
    event = baba_day(slug="overlay-full", played=4, seat_next=True)
    page = Client().get(f"/events/{event.slug}/overlay/?round=5&table=1&layout=full&gap=above")
    text = page.content.decode()
    assert f'data-standings="/api/v1/events/{event.slug}/standings"' in text
    assert 'data-gap="above"' in text and "data-standings-panel" in text
    assert Client().get(f"/api/v1/events/{event.slug}/standings").status_code == 200
    bar = Client().get(f"/events/{event.slug}/overlay/?round=5&table=1&gap=sideways").content
    assert b"data-standings" not in bar and b'data-gap="top"' in bar


def test_the_conditions_are_in_the_table_sheets_words():
    """What each seat needs is said as the table's sheet says it: the same translations."""
    page = Client().get("/events/x/overlay/?lang=ja")
    assert page.status_code == 404
    event = baba_day(slug="overlay-words", played=4, seat_next=True)
    words = _words(Client().get(f"/events/{event.slug}/overlay/?lang=ja").content.decode())
    assert words["needs_win"] == "オーラス条件（優勝）"
    assert words["needs_top"] == "オーラス条件（上位 {k} 人）"
    assert words["han_fu"] == "{han}翻{fu}符" and words["limits"]["mangan"] == "満貫"
    assert words["to_above"] == "{place}まで {points}" and words["places"]["2"] == "2位"
