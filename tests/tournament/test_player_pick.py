"""Issue 46: the organizer's forms that pick a player (a table's seats, a new table, a
penalty) never list the whole field of a large event: they offer the table's players (or a
short list) and find anyone else by the search or by the name typed, checked by the server."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournament.factories import make_event
from tests.tournament.organize_support import (
    logged_in,
    make_user,
    organizer_for,
    scores_post,
    text,
    url,
)
from tournament.i18n import seat_label
from tournament.models import Event, Game, Penalty
from tournament.selectors.players import LATEST, SEARCH_MOST
from tournament.services.events import event_referees_set, event_register_players
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

# Fixed width, so no name is a part of another and "not in the page" means what it says.
FIELD = [f"選手{i:03d}" for i in range(200)]


def seated(players: list[str], slug: str = "big") -> tuple[Event, Client, Game]:
    event = make_event(slug=slug, players=players)
    client = logged_in(organizer_for(event))
    round_seat(event=event, rng=random.Random(3))
    game = Game.objects.filter(round__event=event).order_by("table").first()
    return event, client, game


def table_names(game: Game) -> list[str]:
    return [s.player.name for s in game.seats.select_related("player").order_by("position")]


def listed(html: str) -> list[str]:
    """The names the page's <datalist> offers."""
    box = re.search(r'<datalist id="event-players"[^>]*>(.*?)</datalist>', html, re.S)
    assert box, "the page has no list of names"
    return re.findall(r'<option value="([^"]*)">', box.group(1))


def search(client: Client, event: Event, typed: str) -> tuple[int, dict]:
    reply = client.get(url("player-search", event.slug), {"q": typed})
    return reply.status_code, reply.json()


# --- what the pages list --------------------------------------------------------------------


def test_a_seated_tables_form_at_a_large_event_lists_its_four_players_and_nobody_else():
    event, client, game = seated(FIELD)
    html = text(client.get(url("game-scores", event.slug, game.pk)))
    four = table_names(game)
    assert listed(html) == four
    for i, name in enumerate(four):  # each seat typed, filled with its player
        assert re.search(rf'name="seat_{i}" value="{name}"[^>]*list="event-players"', html)
    assert [name for name in FIELD if name in html] == sorted(four)
    assert not re.search(r'<select[^>]*name="seat_', html)  # no seat is a select any more


def test_a_new_table_and_the_penalties_list_a_short_list_at_a_large_event():
    event, client, _game = seated(FIELD)
    for page in ("game-new", "penalties"):
        html = text(client.get(url(page, event.slug)))
        # The latest registered, as registered: a late table holds late entrants.
        assert listed(html) == FIELD[-LATEST:], page
        assert not [name for name in FIELD[:-LATEST] if name in html], page


def test_a_small_events_forms_list_everyone_the_tables_players_first():
    players = [f"P{i:02d}" for i in range(8)]
    event, client, game = seated(players, slug="club")
    four = table_names(game)
    html = text(client.get(url("game-scores", event.slug, game.pk)))
    assert listed(html) == four + [p for p in players if p not in four]
    assert listed(text(client.get(url("penalties", event.slug)))) == players


def test_a_tables_phone_still_chooses_among_its_own_four():
    """The table's own page shares the form: its seats stay a choice of the four, no search."""
    from tournament.forms.games import ScoresForm

    event, _client, game = seated([f"P{i:02d}" for i in range(8)], slug="club")
    four = table_names(game)
    form = ScoresForm(rules=event.rules, names=four, players=four)
    assert form.player_list is None
    assert [v for v, _label in form.fields["seat_0"].choices] == four


# --- a name typed ---------------------------------------------------------------------------


def test_an_unknown_name_is_refused_naming_the_field_and_everything_typed_is_kept():
    event, client, game = seated(FIELD)
    data = scores_post(game, [40000, 30000, 20000, 10000])
    data["seat_2"] = "Nobody Known"
    reply = client.post(url("game-scores", event.slug, game.pk), data)
    html = text(reply)
    assert reply.status_code == 400
    assert 'id="id_seat_2_error"' in html
    assert f"{seat_label(2)}: No player named “Nobody Known” in this event." in html
    assert 'value="Nobody Known"' in html and 'value="30000"' in html and 'value="10000"' in html
    game.refresh_from_db()
    assert not game.finished
    # In Japanese too, the field named by its wind.
    ja = text(
        client.post(
            url("game-scores", event.slug, game.pk), data, headers={"accept-language": "ja"}
        )
    )
    assert "西：「Nobody Known」という選手はこの大会にいません。" in ja


def test_a_name_outside_the_round_is_accepted_as_a_substitute_typed_as_people_type_it():
    event, client, game = seated(FIELD)
    event_register_players(event=event, names=["Late Comer"])  # registered, never seated
    data = scores_post(game, [40000, 30000, 20000, 10000])
    data["seat_1"] = "ＬＡＴＥ comer"  # full width, another case, as typed in a hurry
    reply = client.post(url("game-scores", event.slug, game.pk), data)
    assert reply.status_code == 302, text(reply)
    assert table_names(game)[1] == "Late Comer"


def test_a_new_table_takes_typed_names_and_refuses_an_unknown_one():
    event = make_event(slug="night", players=FIELD)
    client = logged_in(organizer_for(event))
    post = {
        "round": 1,
        "table": 1,
        "version": "",
        "deposits": 0,
        **{f"seat_{i}": n for i, n in enumerate(FIELD[:4])},  # none of them listed
        **{f"score_{i}": s for i, s in enumerate([40000, 30000, 20000, 10000])},
    }
    refused = client.post(url("game-new", event.slug), {**post, "seat_3": "選手999"})
    assert refused.status_code == 400 and 'id="id_seat_3_error"' in text(refused)
    assert f"{seat_label(3)}: No player named “選手999” in this event." in text(refused)
    assert client.post(url("game-new", event.slug), post).status_code == 302
    assert table_names(Game.objects.get(round__event=event)) == FIELD[:4]


def test_a_penalty_for_anyone_typed_and_none_for_a_stranger():
    event = make_event(slug="big", players=FIELD)
    client = logged_in(organizer_for(event))
    given = {"kind": "penalty", "points": "10", "reason": "late"}
    refused = client.post(url("penalties", event.slug), {**given, "player": "Stranger"})
    html = text(refused)
    assert refused.status_code == 400 and 'id="id_player_error"' in html
    assert "Player: No player named “Stranger” in this event." in html
    assert 'value="Stranger"' in html and 'value="late"' in html
    assert not Penalty.objects.exists()
    reply = client.post(url("penalties", event.slug), {**given, "player": FIELD[0]})
    assert reply.status_code == 302  # the first registered: not in the page's short list
    assert Penalty.objects.get().player.name == FIELD[0]


def test_typed_names_cost_one_query_together_and_none_when_listed():
    from tournament.selectors.players import players_named

    event = make_event(slug="big", players=FIELD)
    with CaptureQueriesContext(connection) as captured:
        found = players_named(event, {FIELD[5], FIELD[150], "選手999"})
    # The exact names at once (the name's unique index), then the one it missed compared
    # as name_key does.
    assert len(captured.captured_queries) == 2
    assert found == {FIELD[5]: FIELD[5], FIELD[150]: FIELD[150]}
    with CaptureQueriesContext(connection) as captured:
        assert players_named(event, {FIELD[5]}) == {FIELD[5]: FIELD[5]}
    assert len(captured.captured_queries) == 1


def test_two_players_one_name_key_apart_are_told_apart_only_as_registered():
    event = make_event(slug="twins", players=["Sato Ken", "SATO KEN", "P2", "P3"])
    from tournament.selectors.players import players_named

    assert players_named(event, {"sato ken"}) == {}  # which one? refused, not guessed
    assert players_named(event, {"SATO KEN"}) == {"SATO KEN": "SATO KEN"}


# --- the search -----------------------------------------------------------------------------


def test_the_search_answers_at_most_a_screenful_beginning_first():
    event = make_event(slug="big", players=[*FIELD, "X選手", "Sato"])
    client = logged_in(organizer_for(event))
    status, answer = search(client, event, "選手")
    assert status == 200 and len(answer["names"]) == SEARCH_MOST
    assert answer["names"] == FIELD[:SEARCH_MOST]  # those it begins, by name; X選手 later
    assert search(client, event, "選手19")[1]["names"] == FIELD[190:]
    assert search(client, event, "X選")[1]["names"] == ["X選手"]
    assert search(client, event, "nobody")[1]["names"] == []


def test_the_search_matches_names_as_name_key_does():
    names = ["Suzuki Hanako", "スズキ", "鈴木 花子", "P3"]
    event = make_event(slug="kana", players=names)
    client = logged_in(organizer_for(event))
    assert search(client, event, "ｓｕｚｕｋｉ")[1]["names"] == ["Suzuki Hanako"]  # full width
    assert search(client, event, "SUZUKIHANA")[1]["names"] == ["Suzuki Hanako"]  # case, space
    assert search(client, event, "ｽｽﾞｷ")[1]["names"] == ["スズキ"]  # half-width kana
    assert search(client, event, "鈴木花子")[1]["names"] == ["鈴木 花子"]
    assert search(client, event, "木　花")[1]["names"] == ["鈴木 花子"]  # an ideographic space


@pytest.mark.parametrize("typed", ["%", "_", "\\", "'", "P%3"])
def test_the_searchs_wildcards_are_letters(typed):
    event = make_event(slug="big", players=FIELD[:8])
    client = logged_in(organizer_for(event))
    assert search(client, event, typed) == (200, {"names": []})


@pytest.mark.parametrize(
    ("typed", "status"),
    [("", 200), ("   ", 200), ("\u200b", 200), ("a\x07b", 400), ("x" * 101, 400)],
)
def test_a_bad_search_is_400_or_nobody_never_500(typed, status):
    event = make_event(slug="big", players=FIELD[:8])
    client = logged_in(organizer_for(event))
    code, answer = search(client, event, typed)
    assert code == status
    assert answer == {"names": []} if status == 200 else answer["error"]
    assert client.get(url("player-search", event.slug)).json() == {"names": []}  # no q


def test_the_search_is_for_the_events_organizers_and_referees_only():
    event = make_event(slug="big", players=FIELD[:8])
    address = url("player-search", event.slug) + "?q=選手"
    anonymous = Client().get(address)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert logged_in(make_user("stranger")).get(address).status_code == 403
    other = make_event(slug="other", players=FIELD[:8])
    assert logged_in(organizer_for(other, "theirs")).get(address).status_code == 403
    referee = make_user("ref")
    event_referees_set(event=event, users=[referee])
    assert logged_in(referee).get(address).json()["names"] == FIELD[:8]
    assert logged_in(organizer_for(event)).post(address).status_code == 405


# --- what the pages cost --------------------------------------------------------------------


@pytest.mark.parametrize("players", [FIELD[:8], FIELD])
def test_the_score_form_costs_the_same_queries_whatever_the_field(players):
    event, client, game = seated(players)
    address = url("game-scores", event.slug, game.pk)
    client.get(address)  # the session's first read aside
    with CaptureQueriesContext(connection) as captured:
        assert client.get(address).status_code == 200
    # Expect 7 queries (as before issue 46, when the last one read every player):
    # * the event (the address)
    # * the session, the user, whether they organize it (the rights)
    # * the game with its round
    # * its seats with their players
    # * the names offered: at most 65 entries, newest first (player_suggestions)
    assert len(captured.captured_queries) == 7
    assert "LIMIT 65" in captured.captured_queries[-1]["sql"]
