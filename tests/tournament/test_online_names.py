"""A log's nicknames matched to the players who have them as online names (issue 48): Tenhou's
for an mjlog, Mahjong Soul's for the tenhou.net/6 JSON of a Mahjong Soul event, either by
`import_tenhou --platform`; the event's player names as before; an unknown nickname refused
naming it and where to add it, in both languages."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from scoring.tenhou import read_log
from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, organizer_for, text, url
from tests.tournament.test_tenhou_import import DOUBLE_RON, mahjongsoul_log, upload
from tournament.models import Entry, Game

pytestmark = pytest.mark.django_db

NICKS = read_log(DOUBLE_RON.read_bytes()).players  # as the log names its seats, East first
PLAYERS = ["Aoki", "Baba", "Chiba", "Doi"]


def seated(event) -> list[str]:
    game = Game.objects.get(round__event=event)
    return [s.player.name for s in game.seats.select_related("player").order_by("position")]


def online(event, column: str, names: dict[str, str]) -> None:
    for player, nick in names.items():
        Entry.objects.filter(event=event, player__name=player).update(**{column: nick})


def refused(*args: str) -> str:
    with pytest.raises(CommandError) as caught:
        call_command("import_tenhou", *args)
    assert caught.value.returncode == 2
    assert not Game.objects.exists()
    return str(caught.value)


def test_each_nickname_is_the_player_with_that_tenhou_name():
    event = make_event(ruleset="tenhou", players=PLAYERS)
    # Given in another order than the log's seats: the log's seats decide who sits where.
    online(event, "tenhou_name", dict(zip(reversed(PLAYERS), NICKS, strict=True)))
    call_command("import_tenhou", event.slug, "1", str(DOUBLE_RON))
    assert seated(event) == list(reversed(PLAYERS))


def test_names_online_and_names_in_the_event_mix_in_one_log():
    event = make_event(ruleset="tenhou", players=["Aoki", "Baba", NICKS[2], NICKS[3]])
    online(event, "tenhou_name", {"Aoki": NICKS[0], "Baba": NICKS[1]})
    call_command("import_tenhou", event.slug, "1", str(DOUBLE_RON))
    assert seated(event) == ["Aoki", "Baba", NICKS[2], NICKS[3]]


def test_a_mahjong_soul_name_does_not_count_for_a_tenhou_log():
    event = make_event(ruleset="tenhou", players=PLAYERS)
    online(event, "mahjongsoul_name", dict(zip(PLAYERS, NICKS, strict=True)))
    message = refused(event.slug, "1", str(DOUBLE_RON))
    assert f"{NICKS[0]} is no player of this event" in message
    assert "Tenhou name on the organizer's player page" in message
    assert '"tenhou" in that player\'s profiles in the event file' in message


def test_a_mahjong_soul_event_reads_its_json_logs_by_mahjong_soul_names(tmp_path):
    path = mahjongsoul_log(tmp_path)
    nicks = read_log(path.read_bytes()).players
    event = make_event(slug="ms", ruleset="mahjongsoul", players=PLAYERS)
    online(event, "mahjongsoul_name", dict(zip(PLAYERS, nicks, strict=True)))
    call_command("import_tenhou", event.slug, "1", str(path))
    assert seated(event) == PLAYERS


def test_the_platform_option_says_whose_names_a_log_holds(tmp_path):
    path = mahjongsoul_log(tmp_path)
    nicks = read_log(path.read_bytes()).players
    event = make_event(slug="ms", ruleset="mahjongsoul", players=PLAYERS)
    online(event, "tenhou_name", dict(zip(PLAYERS, nicks, strict=True)))
    # By default this event's JSON is Mahjong Soul's: the Tenhou names do not count.
    message = refused(event.slug, "1", str(path))
    assert f"{nicks[0]} is no player of this event" in message and "Mahjong Soul name" in message
    call_command("import_tenhou", event.slug, "1", str(path), "--platform", "tenhou")
    assert seated(event) == PLAYERS


def test_two_log_players_who_are_one_player_are_refused():
    # Baba is registered under the log's second nickname, and has its first as a Tenhou name.
    event = make_event(ruleset="tenhou", players=["Aoki", NICKS[1], NICKS[2], NICKS[3]])
    online(event, "tenhou_name", {NICKS[1]: NICKS[0]})
    message = refused(event.slug, "1", str(DOUBLE_RON))
    assert message.startswith("double-ron.mjlog: ") and f"{NICKS[1]} sits at this table twice" in (
        message
    )


def test_the_upload_names_an_unknown_nickname_in_japanese():
    event = make_event(ruleset="tenhou", players=PLAYERS)
    client = logged_in(organizer_for(event), HTTP_ACCEPT_LANGUAGE="ja")
    response = client.post(
        url("round-tenhou", event.slug, 1), {"round": 1, "logs": [upload(DOUBLE_RON)]}
    )
    assert response.status_code == 400
    page = text(response)
    assert f"{NICKS[0]} はこの大会の参加者ではありません" in page and "天鳳の名前" in page
    assert not Game.objects.exists()


def test_a_nickname_nobody_has_is_refused_before_the_logs_points():
    # A 4-player log under a ruleset that prices it otherwise (the M.League's uma) and with
    # nicknames nobody has: the organizer is told who is missing first, not that the points
    # differ and then, on the next try, who is missing (the walk of issue 48).
    event = make_event(ruleset="mleague", players=PLAYERS)
    message = refused(event.slug, "1", str(DOUBLE_RON))
    assert f"{NICKS[0]} is no player of this event" in message
    online(event, "tenhou_name", dict(zip(PLAYERS, NICKS, strict=True)))
    assert "is no player" not in refused(event.slug, "1", str(DOUBLE_RON))
