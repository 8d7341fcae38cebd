"""Events on the 3-player presets: 3-seat tables, results settled by the preset, and real Tenhou
3-player logs imported (`import_tenhou`) as the 4-player ones are into a 4-player event
(test_tenhou_import.py) — every hand checked by the engine against the event's `tenhou-sanma`
rules, each game recorded with the scores and points the log prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scoring.names import normalize_name
from scoring.tenhou import read_log
from tests.scoring.test_sanma_presets import OWARI
from tests.tournament.factories import make_event, scores_game
from tournament.models import Game, Hand
from tournament.services.errors import ServiceError

pytestmark = pytest.mark.django_db

LOGS = Path(__file__).parent.parent / "scoring" / "tenhou_logs" / "sanma"
GAMES = [LOGS / name for name in sorted(OWARI)]
FOUR_PLAYER = LOGS.parent / "double-ron.mjlog"
# The logs are from the years Tenhou rounded results to the thousand: a plain event takes them
# all the same (issue 64), each game keeping the whole points its log printed.
OLD_RULES = "tenhou-sanma"


def sanma_event(*paths: Path, ruleset=None):
    names = [n for p in paths for n in read_log(p.read_bytes()).players]
    return make_event(ruleset=ruleset or OLD_RULES, players=list(dict.fromkeys(names)))


def test_three_player_logs_are_recorded_as_three_player_games(capsys):
    event = sanma_event(*GAMES)
    assert event.rules.players == 3
    # 神速★.com plays the 2009 and the 2014 game: two rounds.
    call_command("import_tenhou", event.slug, "1", str(GAMES[1]), str(GAMES[2]))
    call_command("import_tenhou", event.slug, "2", str(GAMES[0]))
    games = list(Game.objects.filter(round__event=event).order_by("round__number", "table"))
    assert [(g.round.number, g.table) for g in games] == [(1, 1), (1, 2), (2, 1)]
    assert all(g.finished for g in games)
    for path, game in zip([GAMES[1], GAMES[2], GAMES[0]], games, strict=True):
        log = read_log(path.read_bytes())
        seats = list(game.seats.select_related("player").order_by("position"))
        assert [s.player.name for s in seats] == [normalize_name(n) for n in log.players]
        scores, points = OWARI[path.name]  # as the log's owari prints them
        assert [s.score for s in seats] == scores
        assert [s.points for s in seats] == points
        assert game.hands.count() == len(log.hands)
    out = capsys.readouterr().out
    assert "2014091101gm-00b9-0000-5ca6b487.mjlog: round 1 table 1 (Emurated, " in out


def refused(*args: str) -> str:
    with pytest.raises(CommandError) as caught:
        call_command("import_tenhou", *args)
    assert caught.value.returncode == 2
    return str(caught.value)


def test_tenths_alone_refuse_an_old_log_naming_the_points():
    # An event with today's tenths and no earlier rounding: the 2014 log printed 54.0.
    only_tenths = {"preset": "tenhou-sanma", "rounding_earlier": None}
    event = sanma_event(GAMES[1], ruleset=only_tenths)
    message = refused(event.slug, "1", str(GAMES[1]))
    assert message.startswith("2014091101gm-00b9-0000-5ca6b487.mjlog: ") and "54.2" in message
    # … and says which knob replays it (the walk of issue 48: nothing pointed the way).
    assert "whole numbers" in message and '"rounding": "half_up"' in message
    assert not Game.objects.exists() and not Hand.objects.exists()


def test_a_four_player_log_for_a_three_player_event_is_refused():
    names = read_log(FOUR_PLAYER.read_bytes()).players
    event = make_event(ruleset=OLD_RULES, players=names)
    assert "plays 3 players, not 4" in refused(event.slug, "1", str(FOUR_PLAYER))
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("preset", "points"),
    [
        # (final − 40,000) / 1,000, oka 15 to the top, uma 20-0-20 (T4 in docs/rulesets.md)
        ("tenhou-sanma", [40.0, -5.0, -35.0]),
        # (final − 35,000) / 1,000, no oka, uma 15-0-15 (MS2)
        ("mahjongsoul-sanma", [25.0, 0.0, -25.0]),
    ],
)
def test_an_event_on_a_sanma_preset_seats_three_and_settles_by_it(preset, points):
    event = make_event(ruleset=preset, players=["A", "B", "C", "D", "E", "F"])
    assert event.rules.players == 3
    game = scores_game(event, 1, 1, ["A", "B", "C"], [45000, 35000, 25000])
    seats = list(game.seats.order_by("position"))
    assert [s.points for s in seats] == points
    with pytest.raises(ServiceError, match="3 players, not 4"):
        scores_game(event, 1, 2, ["C", "D", "E", "F"], [40000, 30000, 20000, 15000])


def mahjongsoul_sanma_log(tmp_path: Path) -> Path:
    """A short Mahjong Soul 3-player game in the shape tensoul (github.com/Equim-chan/tensoul,
    convert.js) writes for three players — the fourth name empty, `sc` each seat's final score
    and Mahjong Soul's own result, total_point / 1,000. Not a real game: built by hand (no real
    one could be found, docs/rulesets.md). East, the dealer, rons a yakuman (48,000) from South,
    who goes below zero: the game ends. Settled from 35,000 with 15-0-15 and no oka: East
    (83,000 − 35,000) / 1,000 + 15 = 63; West 0; South (−13,000 − 35,000) / 1,000 − 15 = −63."""
    hand = [[0, 0, 0], [35000, 35000, 35000, 0], [11], [], *([] for _ in range(12))]
    hand.append(["和了", [48000, -48000, 0, 0], [0, 1, 0, "役満48000点", "国士無双(役満)"]])
    data = {
        "title": ["三玉の間南", ""],
        "name": ["MS-A", "MS-B", "MS-C", ""],
        "rule": {"disp": "三玉の間南喰赤", "aka53": 1, "aka52": 1, "aka51": 0},
        "log": [hand],
        "sc": [83000, 63.0, -13000, -63.0, 35000, 0.0, 0, 0],
    }
    path = tmp_path / "mahjongsoul-sanma.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    return path


def test_a_mahjong_soul_three_player_game_imports_into_a_mahjongsoul_sanma_event(tmp_path):
    path = mahjongsoul_sanma_log(tmp_path)
    names = ["MS-A", "MS-B", "MS-C"]
    event = make_event(slug="ms3", ruleset="mahjongsoul-sanma", players=names)
    call_command("import_tenhou", event.slug, "1", str(path))
    seats = list(Game.objects.get(round__event=event).seats.order_by("position"))
    assert [s.points for s in seats] == [63.0, -63.0, 0.0]
    # In a Tenhou 3-player event the same game settles with oka and 20-0-20: refused.
    tenhou = make_event(slug="th3", ruleset="tenhou-sanma", players=names)
    assert "mahjongsoul-sanma.json" in refused(tenhou.slug, "1", str(path))


@pytest.mark.parametrize(
    "ruleset, language, said, not_said",
    [
        ("tenhou-sanma", "en", "By standings: 1–3 together, 4–6, …", "1–4 together"),
        ("tenhou-sanma", "ja", "成績順（1–3位、4–6位…で同卓）", "1–4位"),
        ("tenhou", "en", "By standings: 1–4 together, 5–8, …", "1–3 together"),
    ],
)
def test_seating_by_standings_groups_players_by_the_table_s_size(ruleset, language, said, not_said):
    # A walk through a sanma event (issue 48) found its dashboard offering "1–4 together".
    from tests.tournament.organize_support import logged_in, organizer_for, text, url

    event = make_event(ruleset=ruleset, players=[f"P{i}" for i in range(12)])
    client = logged_in(organizer_for(event))
    client.cookies["django_language"] = language
    page = text(client.get(url("event-manage", event.slug)))
    assert said in page and not_said not in page
    # Refused (seated twice), the form comes back with the same words.
    client.post(url("round-new", event.slug), {"method": "random", "round": "1"})
    again = text(client.post(url("round-new", event.slug), {"method": "nope", "round": "2"}))
    assert said in again and not_said not in again
