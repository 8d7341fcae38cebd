"""Tenhou logs into an event: `manage.py import_tenhou EVENT ROUND FILE…` and the upload on the
organizer's round page. Real logs (tests/scoring/tenhou_logs); all or nothing; errors name the
file and the hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from scoring.settlement import settle
from scoring.tenhou import read_log
from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, make_user, organizer_for, text, url
from tournament.models import AuditEntry, Game, Hand
from tournament.services.errors import ServiceError
from tournament.services.hand_fix import game_hand_fix
from tournament.services.imports import event_export, event_import
from tournament.services.tenhou import MAX_LOGS

pytestmark = pytest.mark.django_db

LOGS = Path(__file__).parent.parent / "scoring" / "tenhou_logs"
DOUBLE_RON = LOGS / "double-ron.mjlog"
NAGASHI = LOGS / "2019082700gm-00a9-0000-63d1f136.mjlog"


def players_of(*paths: Path) -> list[str]:
    return [name for p in paths for name in read_log(p.read_bytes()).players]


def tenhou_event(*paths: Path, ruleset: str = "tenhou", extra: tuple[str, ...] = ()):
    return make_event(ruleset=ruleset, players=[*players_of(*paths), *extra])


def nothing_written() -> bool:
    return not Game.objects.exists() and not Hand.objects.exists()


def test_the_command_records_each_log_as_a_game_of_the_round(capsys):
    event = tenhou_event(DOUBLE_RON, NAGASHI)
    call_command("import_tenhou", event.slug, "3", str(DOUBLE_RON), str(NAGASHI))
    games = list(Game.objects.filter(round__event=event).order_by("table"))
    assert [(g.round.number, g.table, g.finished) for g in games] == [(3, 1, True), (3, 2, True)]
    first = games[0]
    seats = list(first.seats.select_related("player").order_by("position"))
    log = read_log(DOUBLE_RON.read_bytes())
    assert [s.player.name for s in seats] == log.players
    assert [s.points for s in seats] == log.final_points  # as Tenhou scored it
    assert [s.score for s in seats] == log.final_scores
    assert first.hands.count() == len(log.hands)
    out = capsys.readouterr().out
    assert "double-ron.mjlog: round 3 table 1 (タケオしゃん, 初代☆" in out
    assert AuditEntry.objects.filter(action="game.record").count() == 2


def test_a_second_import_goes_to_the_next_free_table():
    event = tenhou_event(DOUBLE_RON, NAGASHI)
    call_command("import_tenhou", event.slug, "1", str(DOUBLE_RON))
    call_command("import_tenhou", event.slug, "1", str(NAGASHI))
    assert sorted(Game.objects.values_list("table", flat=True)) == [1, 2]


def refused(*args: str) -> str:
    with pytest.raises(CommandError) as caught:
        call_command("import_tenhou", *args)
    assert caught.value.returncode == 2
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_player_not_entered_is_named_and_nothing_is_written():
    names = players_of(DOUBLE_RON)
    event = make_event(ruleset="tenhou", players=[*names[:3], "Someone else"])
    message = refused(event.slug, "1", str(DOUBLE_RON))
    assert message.startswith("double-ron.mjlog: ")
    # Named, and where to add it (issue 48: a nickname may be a player's Tenhou name).
    assert f"{names[3]} is no player of this event" in message and "profiles" in message
    assert nothing_written()


def test_one_bad_log_among_good_ones_writes_nothing():
    event = tenhou_event(DOUBLE_RON, NAGASHI)
    truncated = LOGS / "2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog"
    message = refused(event.slug, "1", str(DOUBLE_RON), str(truncated))
    assert "no-game-end.mjlog: stops after S3-0" in message
    assert nothing_written()


def test_a_log_the_event_rules_price_differently_names_the_hand():
    event = tenhou_event(DOUBLE_RON, ruleset="baba")  # no double ron at baba
    message = refused(event.slug, "1", str(DOUBLE_RON))
    assert message.startswith("double-ron.mjlog: E4-0: the ruleset refuses this hand")
    assert nothing_written()


def test_a_three_player_log_for_a_four_player_event_is_refused(tmp_path):
    from tests.scoring.test_tenhou_logs import SANMA

    path = tmp_path / "sanma.mjlog"
    path.write_text(SANMA)
    event = make_event(ruleset="tenhou", players=["A", "B", "C", "D"])
    assert "plays 4 players, not 3" in refused(event.slug, "1", str(path))
    assert nothing_written()


def test_garbled_files_and_missing_ones_are_one_line(tmp_path):
    event = tenhou_event(DOUBLE_RON)
    garbled = tmp_path / "cut.mjlog"
    garbled.write_bytes(DOUBLE_RON.read_bytes()[:5000])
    assert "cut.mjlog: is not well-formed XML" in refused(event.slug, "1", str(garbled))
    assert "nowhere.mjlog" in refused(event.slug, "1", str(tmp_path / "nowhere.mjlog"))
    assert "no event" in refused("no-such-event", "1", str(DOUBLE_RON))
    assert nothing_written()


def test_a_log_imported_twice_is_refused_the_second_time():
    event = tenhou_event(DOUBLE_RON)
    call_command("import_tenhou", event.slug, "1", str(DOUBLE_RON))
    assert "already plays round 1 at table 1" in refused(event.slug, "1", str(DOUBLE_RON))
    assert Game.objects.count() == 1


# --- Tenhou's rounding by era (issue 64) --------------------------------------------------------

TENTHS_2022 = LOGS / "2022060100gm-00a9-0000-3ffa4858.mjlog"  # printed to the tenth


def seat_points(game: Game) -> list[float]:
    return [float(s.points) for s in game.seats.order_by("position")]


def test_a_log_of_either_era_imports_into_a_plain_tenhou_event_with_the_points_it_printed():
    event = tenhou_event(DOUBLE_RON, TENTHS_2022)
    call_command("import_tenhou", event.slug, "1", str(DOUBLE_RON), str(TENTHS_2022))
    old, today = Game.objects.filter(round__event=event).order_by("table")
    # Today's log: the event's own rounding (tenths), nothing kept on the game.
    assert seat_points(today) == read_log(TENTHS_2022.read_bytes()).final_points
    assert today.rounding == "" and not all(p == int(p) for p in seat_points(today))
    # A log of the whole-point years keeps the whole points Tenhou printed, not today's tenths.
    printed = read_log(DOUBLE_RON.read_bytes()).final_points
    assert seat_points(old) == printed and old.rounding == "half_up"
    today_points = settle(event.rules, [s.score for s in old.seats.order_by("position")])
    assert printed != [p.points for p in today_points.players]


def test_the_game_s_rounding_survives_the_event_file_and_a_hand_fixed():
    event = tenhou_event(DOUBLE_RON)
    call_command("import_tenhou", event.slug, "1", str(DOUBLE_RON))
    data = event_export(event)
    (game_data,) = data["games"]
    assert game_data["rounding"] == "half_up"
    # The file goes back in as it came out: the game still keeps its whole points.
    copy = event_import({**data, "slug": "copy"})
    (copied,) = Game.objects.filter(round__event=copy)
    assert copied.rounding == "half_up"
    assert seat_points(copied) == read_log(DOUBLE_RON.read_bytes()).final_points
    # A hand corrected in place (the same hand written again) keeps the game's rounding.
    game = Game.objects.get(round__event=event)
    first = game.hands.get(number=1).data
    game_hand_fix(game=game, number=1, hand=first, expected_version=game.version)
    game.refresh_from_db()
    assert game.rounding == "half_up"
    # A rounding no era of the ruleset had is refused, naming the field and what it may be.
    bad = {**data, "slug": "bad", "games": [{**game_data, "rounding": "gosha_rokunyu"}]}
    with pytest.raises(ServiceError) as caught:
        event_import(bad)
    assert "rounding: 'gosha_rokunyu' is not one of exact, half_up" in str(caught.value)


def test_a_refused_log_names_the_knob_that_would_take_it():
    # An East-South log into an East-only event: named `"winds": 2`.
    event = make_event(ruleset={"preset": "tenhou", "winds": 1}, players=players_of(TENTHS_2022))
    message = refused(event.slug, "1", str(TENTHS_2022))
    assert message.startswith("2022060100gm-00a9-0000-3ffa4858.mjlog: S1-0 comes after")
    assert '"winds": 2' in message
    # A whole-point log into an event with tenths alone: named `"rounding": "half_up"`.
    only_tenths = {"preset": "tenhou", "rounding_earlier": None}
    event = make_event(slug="t", ruleset=only_tenths, players=players_of(DOUBLE_RON))
    assert '"rounding": "half_up"' in refused(event.slug, "1", str(DOUBLE_RON))
    assert nothing_written()


# --- the upload -------------------------------------------------------------------------------


def upload(path: Path, name: str | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name or path.name, path.read_bytes())


def test_an_organizer_uploads_logs_on_the_round_page():
    event = tenhou_event(DOUBLE_RON, NAGASHI)
    client = logged_in(organizer_for(event))
    page = client.get(url("round-tenhou", event.slug, 2))
    assert page.status_code == 200 and 'value="2"' in text(page)
    response = client.post(
        url("round-tenhou", event.slug, 2),
        {"round": 2, "logs": [upload(DOUBLE_RON), upload(NAGASHI)]},
    )
    assert response.status_code == 302
    assert response["Location"] == url("round-sheet", event.slug, 2)
    assert Game.objects.filter(round__number=2, finished=True).count() == 2


def test_a_bad_upload_says_which_file_and_hand_next_to_it_and_keeps_nothing():
    event = tenhou_event(DOUBLE_RON, ruleset="baba")
    client = logged_in(organizer_for(event))
    response = client.post(
        url("round-tenhou", event.slug, 1), {"round": 1, "logs": [upload(DOUBLE_RON)]}
    )
    assert response.status_code == 400
    page = text(response)
    assert "E4-0" in page and "id_logs_error" in page
    assert nothing_written()


def test_the_upload_speaks_japanese():
    event = tenhou_event(DOUBLE_RON, ruleset="baba")
    client = logged_in(organizer_for(event), HTTP_ACCEPT_LANGUAGE="ja")
    response = client.post(
        url("round-tenhou", event.slug, 1), {"round": 1, "logs": [upload(DOUBLE_RON)]}
    )
    assert response.status_code == 400
    assert "牌譜" in text(response) and "E4-0" in text(response)


def test_an_upload_with_no_file_is_a_form_error():
    event = tenhou_event(DOUBLE_RON)
    client = logged_in(organizer_for(event))
    response = client.post(url("round-tenhou", event.slug, 1), {"round": 1})
    assert response.status_code == 400 and nothing_written()


def test_only_organizers_import():
    event = tenhou_event(DOUBLE_RON)
    stranger = logged_in(make_user("stranger"))
    response = stranger.post(
        url("round-tenhou", event.slug, 1), {"round": 1, "logs": [upload(DOUBLE_RON)]}
    )
    assert response.status_code in (403, 404) and nothing_written()


# --- Mahjong Soul, in the tenhou.net/6 JSON the converters write (issue 30) -----------------


def mahjongsoul_log(tmp_path: Path) -> Path:
    """A short Mahjong Soul game in the shape tensoul (github.com/Equim-chan/tensoul, convert.js)
    writes — not a real game: built by hand. East (the dealer) deals a yakuman into South and
    goes below zero: the game ends. `sc` holds each seat's final score and Mahjong Soul's own
    result, total_point / 1,000, settled from 25,000 with +15/+5/−5/−15 and no oka:
    South (57,000 − 25,000) / 1,000 + 15 = 47; West and North tie at 25,000 and the seat nearer
    the dealer ranks first: 0 + 5 = 5 and 0 − 5 = −5; East (−7,000 − 25,000) / 1,000 − 15 = −47.
    With Tenhou's oka South would have had 72."""
    empty = [[], [], []]
    hand = [[0, 0, 0], [25000] * 4, [11], [], *empty * 4]
    hand.append(["和了", [-32000, 32000, 0, 0], [1, 0, 1, "役満32000点", "国士無双(役満)"]])
    data = {
        "title": ["玉の間南", ""],
        "name": ["MS-A", "MS-B", "MS-C", "MS-D"],
        "rule": {"disp": "玉の間南喰赤", "aka53": 1, "aka52": 1, "aka51": 1},
        "log": [hand],
        "sc": [-7000, -47.0, 57000, 47.0, 25000, 5.0, 25000, -5.0],
    }
    path = tmp_path / "mahjongsoul.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    return path


def test_a_mahjong_soul_game_imports_into_a_mahjongsoul_event(tmp_path, capsys):
    path = mahjongsoul_log(tmp_path)
    event = make_event(slug="ms", ruleset="mahjongsoul", players=["MS-A", "MS-B", "MS-C", "MS-D"])
    call_command("import_tenhou", event.slug, "1", str(path))
    game = Game.objects.get(round__event=event)
    seats = list(game.seats.order_by("position"))
    assert [float(s.points) for s in seats] == [-47.0, 47.0, 5.0, -5.0]
    # The same game in a Tenhou event: its results are not the log's (Tenhou pays oka).
    tenhou = make_event(slug="th", ruleset="tenhou", players=["MS-A", "MS-B", "MS-C", "MS-D"])
    with pytest.raises(CommandError, match=r"mahjongsoul\.json") as refused:
        call_command("import_tenhou", tenhou.slug, "1", str(path))
    assert refused.value.returncode == 2


def junk_logs(count: int) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(f"log{i:03d}.mjlog", b"not a log") for i in range(count)]


def test_the_form_takes_the_200_logs_it_promises_and_each_reaches_the_check():
    # Issue 44: 101–200 files were Django's bare "Bad Request (400)" (its default limit 100).
    assert MAX_LOGS == 200
    event = tenhou_event(DOUBLE_RON)
    client = logged_in(organizer_for(event))
    page = text(client.get(url("round-tenhou", event.slug, 1)))
    assert "at most 200 files at once" in page
    response = client.post(url("round-tenhou", event.slug, 1), {"round": 1, "logs": junk_logs(200)})
    page = text(response)
    # The form, its error beside the upload naming the first file: every file was read.
    assert response.status_code == 400 and "id_logs_error" in page and "log000.mjlog" in page
    assert nothing_written()


def test_more_files_than_that_go_back_to_the_form_told_the_limit_in_the_site_s_words():
    event = tenhou_event(DOUBLE_RON)
    client = logged_in(organizer_for(event), HTTP_ACCEPT_LANGUAGE="ja")
    form_page = url("round-tenhou", event.slug, 1)
    response = client.post(
        form_page,
        {"round": 1, "logs": junk_logs(201)},
        HTTP_REFERER=f"http://testserver{form_page}",
    )
    assert response.status_code == 303 and response["Location"] == f"http://testserver{form_page}"
    page = text(client.get(response["Location"]))
    assert "一度に送れるファイルは 200 個までです" in page and 'name="logs"' in page
    assert nothing_written()
    # Sent from elsewhere (or without a Referer): back to the page the form posted to.
    response = client.post(
        form_page, {"round": 1, "logs": junk_logs(201)}, HTTP_REFERER="https://evil.example/"
    )
    assert response.status_code == 303 and response["Location"] == form_page
