"""A real Mahjong Soul 3-player game with a double yakuman (issue 64) imported into an event:
`import_tenhou` into a `mahjongsoul-sanma` event records it with the scores and results Mahjong
Soul printed; an event whose rules count the 13-sided kokushi once refuses it at that hand, in
the organizer's language, naming the knob (tests/scoring/test_mahjongsoul_logs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from tests.scoring.test_mahjongsoul_logs import SC
from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, organizer_for, text, url
from tournament.models import Game, Hand

pytestmark = pytest.mark.django_db

LOG = Path(__file__).parent.parent / "scoring" / "tenhou_logs" / "mahjongsoul"
KOKUSHI_13 = LOG / "kokushi13_withnuki.json"
PLAYERS = ["A", "B", "C"]  # as the fixture names them
ONCE = {"preset": "mahjongsoul-sanma", "double_yakuman": []}


def test_the_game_imports_into_a_mahjongsoul_sanma_event_as_mahjong_soul_scored_it():
    event = make_event(slug="ms3", ruleset="mahjongsoul-sanma", players=PLAYERS)
    call_command("import_tenhou", event.slug, "1", str(KOKUSHI_13))
    game = Game.objects.get(round__event=event)
    seats = list(game.seats.order_by("position"))
    scores, points = SC[KOKUSHI_13.name]  # as the log's `sc` prints them
    assert [s.score for s in seats] == scores
    assert [float(s.points) for s in seats] == points
    last = game.hands.order_by("-number").first()
    assert last.data["result"]["wins"] == [{"seat": 0, "yakuman": 2}]


def test_an_event_counting_it_once_refuses_the_hand_naming_the_knob():
    event = make_event(slug="once", ruleset=ONCE, players=PLAYERS)
    with pytest.raises(CommandError) as caught:
        call_command("import_tenhou", event.slug, "1", str(KOKUSHI_13))
    message = str(caught.value)
    assert message.startswith("kokushi13_withnuki.json: ") and "E3-2" in message
    assert "kokushi_13 as 2 yakuman" in message and "double_yakuman: []" in message
    assert not Game.objects.exists() and not Hand.objects.exists()


def test_the_refusal_speaks_japanese_on_the_upload():
    event = make_event(slug="once", ruleset=ONCE, players=PLAYERS)
    client = logged_in(organizer_for(event), HTTP_ACCEPT_LANGUAGE="ja")
    upload = KOKUSHI_13.read_bytes()
    response = client.post(
        url("round-tenhou", event.slug, 1),
        {"round": 1, "logs": [SimpleUploadedFile(KOKUSHI_13.name, upload)]},
    )
    assert response.status_code == 400
    page = text(response)
    assert "牌譜は kokushi_13 を役満 2 倍で払っていますが、このルールでは 1 倍です" in page
    assert "double_yakuman" in page
    assert not Game.objects.exists()
