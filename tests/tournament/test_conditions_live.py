"""Issue 35 in the event: the demo's Baba final at its last hand — the panels, the API, and the
gaps and places before the last game. The live answer must equal the command line's on the
same position (CONTRACT §6)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from scoring.cli import main
from tournament.models import Event, Game
from tournament.selectors.conditions import deciding, event_panels
from tournament.selectors.games import game_sheet
from tournament.services.hands import game_hand_undo

pytestmark = pytest.mark.django_db


def final_game() -> Game:
    return Game.objects.get(round__event__slug="baba-demo", round__number=8)


def undo(game: Game, times: int) -> Game:
    for _ in range(times):
        game.refresh_from_db()
        game_hand_undo(game=game, expected_version=game.version)
    game.refresh_from_db()
    return game


@pytest.fixture
def at_last_hand() -> Game:
    """The demo's final at its last hand, as load_demo leaves it: South 4 with two honba to
    play."""
    call_command("load_demo")
    return final_game()


def test_the_final_at_its_last_hand_answers_as_the_command_line(at_last_hand):
    event = Event.objects.get(slug="baba-demo")
    found = deciding(event)
    assert found is not None and (found.stage, found.round, found.target) == ("final", 8, 1)
    tables = event_panels(event)["table_conditions"]
    assert [t["table"] for t in tables] == [1]
    sheet = game_sheet(event, at_last_hand)
    assert sheet.flow.is_last_hand and not sheet.flow.over
    document = {
        "ruleset": event.ruleset_snapshot,
        "target": 1,
        "standings": {name: float(total) for name, total in found.totals.items()},
        "table": sheet.names,
        "scores": sheet.flow.scores,
        "dealer": sheet.flow.dealer,
        "honba": sheet.flow.honba,
        "deposits": sheet.flow.deposits,
    }
    out = io.StringIO()
    assert main(["conditions"], io.StringIO(json.dumps(document)), out, io.StringIO()) == 0
    assert tables[0]["seats"] == json.loads(out.getvalue())["seats"]
    assert len(found.totals) == 4  # the final ranks its four finalists only


def test_the_panels_show_on_the_venue_screen_the_sheet_and_the_api(client, at_last_hand):
    slug = "baba-demo"
    body = client.get(f"/events/{slug}/screen/", headers={"X-Requested-With": "fetch"})
    assert "What each player needs to win" in body.content.decode()
    sheet = client.get(f"/events/{slug}/games/{at_last_hand.pk}/")
    assert "What each player needs to win" in sheet.content.decode()
    api = client.get(f"/api/v1/events/{slug}/games/{at_last_hand.pk}/conditions").json()
    assert api["available"] and api["target"] == 1 and len(api["seats"]) == 4
    assert {"player", "now", "tsumo", "ron"} <= set(api["seats"][0])
    ja = client.get(f"/events/{slug}/games/{at_last_hand.pk}/", headers={"Accept-Language": "ja"})
    assert "優勝" in ja.content.decode()


def test_not_at_the_last_hand_there_is_no_panel(client, at_last_hand):
    game = undo(at_last_hand, 3)  # back to South 3
    api = client.get(f"/api/v1/events/baba-demo/games/{game.pk}/conditions").json()
    assert api == {
        "game": game.pk,
        "round": 8,
        "table": 1,
        "available": False,
        "stage": None,
        "target": None,
        "hand": None,
        "scores": None,
        "seats": [],
    }
    page = client.get(f"/events/baba-demo/games/{game.pk}/").content.decode()
    assert "What each player needs" not in page


def test_an_earlier_round_decides_nothing(client):
    call_command("load_demo")
    game = Game.objects.get(round__event__slug="baba-demo", round__number=5, table=1)
    api = client.get(f"/api/v1/events/baba-demo/games/{game.pk}/conditions").json()
    assert api["available"] is False  # finished, and round 5 closes no stage


@pytest.mark.parametrize("path", ["999999/conditions", "x/conditions"])
def test_unknown_games_are_refused_not_500(client, path):
    call_command("load_demo")
    response = client.get(f"/api/v1/events/baba-demo/games/{path}")
    assert response.status_code in (400, 404)
    assert response.json()["field"]


def test_before_the_last_game_gaps_and_places(client):
    call_command("load_demo")
    game = final_game()
    undo(game, game.hands.count())  # the final's last game not begun
    event = Event.objects.get(slug="baba-demo")
    before = event_panels(event)["before"]
    assert before is not None and before["target"] == 1 and before["last_stage"]
    rows = before["rows"]
    assert len(rows) == 4 and rows[0]["now"] == 1 and rows[0]["to_lead"] == 0
    leader = rows[0]
    assert leader["places"][0] == "any"  # first at the final table wins it
    assert all(r["to_lead"] <= 0 for r in rows)
    page = client.get("/events/baba-demo/").content.decode()
    assert "Before the last game" in page
    screen = client.get("/events/baba-demo/screen/", headers={"X-Requested-With": "fetch"})
    assert "Before the last game" in screen.content.decode()
