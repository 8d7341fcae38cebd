"""The EMA's results file (issues 48 and 64, exports/ema.py; `export_standings SLUG --format
ema`, the dashboard's download): a heading saying which tournament, then one row per player who
played — place, EMA number, last and first names, country as the EMA writes it, score in whole
points — as the EMA's published results and its results workbook hold them (README, "Sending
results to the EMA", cites them). Also: UK typed for a country is taken as GB everywhere one is
typed, and a player's family name is part of their profile."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import translation

from tests.tournament.factories import league_data, make_event, scores_game
from tests.tournament.organize_support import logged_in, make_user, organizer_for, text, url
from tournament.auditlog import entry_sentence
from tournament.exports.ema import ema_places, ema_score, export_ema
from tournament.exports.standings import export_standings
from tournament.models import AuditEntry, Entry, Event
from tournament.services.errors import ServiceError
from tournament.services.imports import event_export, event_import
from tournament.services.profiles import name_parts

pytestmark = pytest.mark.django_db

COLUMNS = ["rank", "ema", "last_name", "first_name", "country", "score"]
HEADING = ["tournament", "date", "place", "players", "countries", "rules"]


def ema_event(**kwargs: Any) -> Event:
    """Five registered under the EMA's rules; Endo never plays."""
    seats = ["Anton Kösters", "Baba", "長谷川 真理子", "Doi Ken"]
    event = make_event(ruleset="ema", players=[*seats, "Endo"], **kwargs)
    scores_game(event, 1, 1, seats, [48200, 36000, 23100, 12700])
    Entry.objects.filter(event=event, player__name="Baba").update(
        ema_number="04090012", country="FR"
    )
    Entry.objects.filter(event=event, player__name="長谷川 真理子").update(country="JP")
    return event


def csv_rows(data: bytes | str) -> list[list[str]]:
    text_ = data.decode() if isinstance(data, bytes) else data
    return list(csv.reader(io.StringIO(text_)))


def split(rows: list[list[str]]) -> tuple[dict[str, str], list[list[str]]]:
    """The CSV's heading (its lines up to the first empty one) and its table."""
    blank = rows.index([])
    return dict(rows[:blank]), rows[blank + 1 :]


def table_of(event: Event) -> list[list[str]]:
    return split(csv_rows(export_ema(event, "csv")))[1]


# --- the score --------------------------------------------------------------------------


def test_the_score_is_in_whole_points_as_the_ema_shows_riichi_results():
    event = ema_event()
    table = table_of(event)
    assert table[0] == COLUMNS
    standings = {r[1]: r[2] for r in csv_rows(export_standings(event, "csv"))[1:]}
    by_last = {r[2]: r for r in table[1:]}
    # The standings count the EMA's result in thousands with a decimal (28.2); the EMA's
    # pages show the points (28200), a whole number.
    for last, player in (("KÖSTERS", "Anton Kösters"), ("BABA", "Baba"), ("KEN", "Doi Ken")):
        score = by_last[last][5]
        assert "." not in score and score.lstrip("-").isdigit()
        assert Decimal(score) == Decimal(standings[player]) * 1000
    assert "." in standings["Anton Kösters"]  # the case that needed a decimal


def test_a_score_is_exact_whatever_the_float():
    assert ema_score(56.5, 1000) == 56500
    assert ema_score(-0.1, 1000) == -100
    assert ema_score(Decimal("28.2"), 1000) == 28200  # 28.2 × 1000 is 28199.999… in floats
    assert ema_score(12.5, 100) == 1250  # the Emperor game's 100 points a point


def test_the_xlsx_holds_the_score_as_a_whole_number(tmp_path):
    from openpyxl import load_workbook

    event = ema_event()
    out = tmp_path / "ema.xlsx"
    call_command("export_standings", event.slug, "--format", "ema", "--output", str(out))
    rows = list(load_workbook(out).active.iter_rows(values_only=True))
    baba = next(r for r in rows if r[2] == "BABA")
    assert isinstance(baba[5], int)


# --- the country --------------------------------------------------------------------------


def test_great_britain_is_written_uk_as_the_ema_writes_it_and_iso_codes_stay():
    event = ema_event()
    Entry.objects.filter(event=event, player__name="Doi Ken").update(country="GB")
    by_last = {r[2]: r for r in table_of(event)[1:]}
    assert by_last["KEN"][4] == "UK"
    assert by_last["BABA"][4] == "FR" and by_last["長谷川"][4] == "JP"
    # Kept as ISO's GB: the event file and the registration list say GB.
    assert event_export(event)["profiles"]["Doi Ken"] == {"country": "GB"}


def test_uk_typed_in_an_event_file_is_the_united_kingdom():
    data = league_data(4, 1)
    data["profiles"] = {"Player 0000": {"country": "uk"}, "Player 0001": {"country": "UK"}}
    event = event_import(data)
    codes = {e.player.name: e.country.code for e in event.entries.select_related("player")}
    assert codes["Player 0000"] == codes["Player 0001"] == "GB"
    assert event_export(event)["profiles"]["Player 0000"] == {"country": "GB"}


def test_uk_typed_on_the_profile_page_and_the_sign_up_form_is_accepted():
    from tournament.services.registration import registration_set

    event = make_event(slug="su", players=["Aoki", "Baba", "Chiba", "Doi"])
    entry = Entry.objects.get(event=event, player__name="Aoki")
    client = logged_in(organizer_for(event))
    page = url("player-profile", event.slug, entry.pk)
    form = {"ema": "", "country": "UK", "family_name": "", "tenhou": "", "mahjongsoul": ""}
    assert client.post(page, form).status_code == 302
    assert Entry.objects.get(pk=entry.pk).country.code == "GB"
    assert 'value="GB" selected' in text(client.get(page))

    registration_set(event=event, open=True)
    answer = Client().post(
        "/events/su/register/",
        {"name": "Endo", "email": "endo@example.org", "ema": "", "country": "UK"},
    )
    assert answer.status_code == 302
    from tournament.models import SignUp

    assert SignUp.objects.get(email="endo@example.org").country.code == "GB"


def test_a_code_that_is_no_country_is_still_refused():
    data = league_data(4, 1)
    data["profiles"] = {"Player 0000": {"country": "XX"}}
    with pytest.raises(ServiceError) as caught:
        event_import(data)
    assert str(caught.value).startswith("profiles.Player 0000.country: ")


# --- last and first names --------------------------------------------------------------------


def test_the_names_are_split_by_the_rule_when_no_family_name_is_given():
    table = table_of(ema_event())
    names = {(r[2], r[3]) for r in table[1:]}
    # The last word (KÖSTERS Anton); the first for a name in Japanese script; a one-word
    # name is all family name. In capitals, as the EMA writes last names.
    assert ("KÖSTERS", "Anton") in names
    assert ("長谷川", "真理子") in names
    assert ("BABA", "") in names
    assert ("KEN", "Doi") in names  # the rule's guess for a name written family first …


def test_the_organizer_corrects_the_split_with_the_family_name():
    event = ema_event()
    Entry.objects.filter(event=event, player__name="Doi Ken").update(family_name="Doi")
    names = {(r[2], r[3]) for r in table_of(event)[1:]}
    assert ("DOI", "Ken") in names  # … which the profile's family name puts right


@pytest.mark.parametrize(
    ("name", "family", "parts"),
    [
        ("Jan van der Berg", "van der Berg", ("van der Berg", "Jan")),
        ("Jan van der Berg", "", ("Berg", "Jan van der")),
        ("Aoki Taro", "aoki", ("aoki", "Taro")),  # matched in any case, at the start
        ("Tony", "Kösters", ("Kösters", "Tony")),  # not part of the name: the name is given
        ("Doi", "Doi", ("Doi", "")),
        ("王 伟", "", ("王", "伟")),
        ("김 민수", "", ("김", "민수")),
    ],
)
def test_name_parts(name, family, parts):
    assert name_parts(name, family) == parts


def test_the_family_name_is_a_profile_key_of_the_event_file_and_comes_back():
    data = league_data(4, 1)
    data["profiles"] = {"Player 0000": {"family_name": "  Player  "}}
    event = event_import(data)
    assert event_export(event)["profiles"] == {"Player 0000": {"family_name": "Player"}}


def test_the_organizer_sets_the_family_name_on_the_profile_page_which_shows_the_rule():
    event = make_event(players=["Jan van der Berg", "Baba", "Chiba", "Doi"])
    entry = Entry.objects.get(event=event, player__name="Jan van der Berg")
    client = logged_in(organizer_for(event))
    page = url("player-profile", event.slug, entry.pk)
    shown = text(client.get(page))
    assert 'name="family_name"' in shown and 'placeholder="Berg"' in shown  # the rule's guess
    form = {"ema": "", "country": "", "tenhou": "", "mahjongsoul": ""}
    assert client.post(page, {**form, "family_name": "van der Berg"}).status_code == 302
    assert Entry.objects.get(pk=entry.pk).family_name == "van der Berg"
    log = AuditEntry.objects.get(action="player.profile")
    assert log.after == {"player": "Jan van der Berg", "family_name": "van der Berg"}
    with translation.override("ja"):
        assert "姓 van der Berg" in entry_sentence(log)
        assert "姓" in text(client.get(page, HTTP_ACCEPT_LANGUAGE="ja"))


def test_a_returning_player_keeps_their_family_name():
    from tournament.services.events import event_register_players

    first = make_event(players=["Doi Ken", "B", "C", "D"])
    Entry.objects.filter(event=first, player__name="Doi Ken").update(family_name="Doi")
    later = make_event(slug="later", players=[])
    event_register_players(event=later, names=["Doi Ken", "Newcomer"])
    families = dict(later.entries.values_list("player__name", "family_name"))
    assert families == {"Doi Ken": "Doi", "Newcomer": ""}


# --- the heading ------------------------------------------------------------------------------


def test_the_csv_starts_with_the_tournament_s_heading():
    from tournament.models import Venue

    event = ema_event()
    event.venue = Venue.objects.create(name="Mahjong Baba", slug="baba-club", preset="ema")
    event.save(update_fields=["venue"])
    Entry.objects.filter(event=event, player__name="Doi Ken").update(country="GB")
    heading, table = split(csv_rows(export_ema(event, "csv")))
    assert list(heading) == HEADING
    assert heading["tournament"] == event.name
    assert heading["date"] == event.held_on.isoformat()
    assert heading["place"] == "Mahjong Baba"
    assert heading["players"] == str(len(table) - 1) == "4"  # who played: Endo did not
    assert heading["countries"] == "3"  # FR, JP, UK; a player without one is not counted
    assert heading["rules"] == event.rules.name == "EMA Riichi Competition Rules (2016)"


def test_the_heading_in_xlsx_speaks_the_reader_s_language_and_in_json_is_an_object():
    from openpyxl import load_workbook

    event = ema_event()
    with translation.override("ja"):
        sheet = load_workbook(io.BytesIO(export_ema(event, "xlsx"))).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:2] == ("大会", event.name)
    assert rows[len(HEADING)] == (None,) * len(rows[0])  # an empty row, then the table
    assert rows[len(HEADING) + 1][:4] == ("順位", "EMA番号", "姓", "名")
    baba = next(r for r in rows if r[2] == "BABA")
    assert baba[1] == "04090012" and baba[4] == "FR"  # the number as text; the code
    data = json.loads(export_ema(event, "json"))
    assert list(data["tournament"]) == HEADING and data["tournament"]["players"] == 4
    assert [list(r) for r in data["ema"]] == [COLUMNS] * 4


# --- who is listed ------------------------------------------------------------------------------


def test_a_registered_player_who_never_played_is_left_out_and_places_close_up():
    event = make_event(ruleset="ema", players=["A", "B", "C", "D", "E", "F", "G", "H", "Nobody"])
    scores_game(event, 1, 1, ["A", "B", "C", "D"], [45000, 35000, 25000, 15000])
    scores_game(event, 1, 2, ["E", "F", "G", "H"], [45000, 35000, 25000, 15000])
    standings = csv_rows(export_standings(event, "csv"))[1:]
    nobody = next(r for r in standings if r[1] == "Nobody")
    below = [r for r in standings if int(r[0]) > int(nobody[0])]
    assert below  # the standings rank Nobody (total 0) above those who lost points
    table = table_of(event)
    assert len(table) - 1 == 8 and "NOBODY" not in {r[2] for r in table}
    # Places as the standings', one fewer for each player below Nobody; ties kept.
    places = {r[2]: int(r[0]) for r in table[1:]}
    for rank, player, *_ in standings:
        if player != "Nobody":
            shift = 1 if int(rank) > int(nobody[0]) else 0
            assert places[player.upper()] == int(rank) - shift
    assert len(set(places.values())) < len(places)  # the two tables' equal totals tie


def test_ema_places_close_up_and_keep_ties():
    assert ema_places([1, 1, 3, 5, 5, 7]) == [1, 1, 3, 4, 4, 6]
    assert ema_places([]) == []


# --- the ways to it ---------------------------------------------------------------------------


def test_the_command_writes_the_file_csv_or_xlsx_and_refuses_teams(tmp_path, capsys):
    event = ema_event()
    call_command("export_standings", event.slug, "--format", "ema")
    assert split(csv_rows(capsys.readouterr().out))[1][0] == COLUMNS
    out = tmp_path / "ema.csv"
    call_command("export_standings", event.slug, "--format", "ema", "--output", str(out))
    assert split(csv_rows(Path(out).read_bytes()))[1][0] == COLUMNS
    with pytest.raises(CommandError) as caught:
        call_command("export_standings", event.slug, "--format", "ema", "--teams")
    assert caught.value.returncode == 2


def test_organizers_download_the_ema_file_from_the_dashboard_and_nobody_else_does():
    event = ema_event()
    client = logged_in(organizer_for(event))
    address = url("ema-export", event.slug, "csv")
    assert address in text(client.get(url("event-manage", event.slug)))
    response = client.get(address)
    assert response.status_code == 200 and "ema.csv" in response["Content-Disposition"]
    assert split(csv_rows(response.content))[1][0] == COLUMNS
    stranger = logged_in(make_user("stranger"))
    assert stranger.get(address).status_code != 200
