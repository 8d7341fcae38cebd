"""Errors in the reader's language (issue 12, finding 1): every engine and service error code
has its Japanese, with the same params; the code raised anywhere is in the catalog; a seat is
named as the table sees it (北 鈴木), never "seat 3", in either language."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext

from scoring.errors import ScoringError, Seat
from scoring.messages import MESSAGES as ENGINE
from scoring.messages import fail
from tests.tournament.organize_support import text, url
from tests.tournament.test_entry import hand, names, setup
from tournament.i18n import error_text, rank_text
from tournament.services.errors import MESSAGES as SERVICE
from tournament.services.errors import ServiceError, StageName
from tournament.services.hands import game_hand_add

ROOT = Path(__file__).resolve().parents[2]
SEAT_N = re.compile(r"\bseat \d")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_engine_and_service_codes_do_not_collide():
    assert not set(ENGINE) & set(SERVICE)


@pytest.mark.parametrize("code", sorted({**ENGINE, **SERVICE}))
def test_every_error_code_has_its_japanese_with_the_same_params(code):
    english = {**ENGINE, **SERVICE}[code]
    with translation.override("ja"):
        japanese = gettext(english)
    if english.strip("{}") not in ("error", "text"):  # "{error}": a wrapper, said as it is
        assert japanese != english, f"{code} has no Japanese"
    assert fields(japanese) == fields(english)


def _raised_codes() -> set[tuple[str, str]]:
    """Every code given as a literal to fail() or a ServiceError, anywhere in the code."""
    found = set()
    for folder in ("scoring", "tournament"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                first = node.args[0]
                if name in ("fail", "ServiceError", "ConflictError") and isinstance(
                    first, ast.Constant
                ):
                    found.add((str(path.relative_to(ROOT)), first.value))
    return found


def test_every_code_raised_is_in_the_catalog():
    raised = _raised_codes()
    assert len(raised) > 150  # the walk found the raises
    missing = [(path, code) for path, code in raised if code not in {**ENGINE, **SERVICE}]
    assert missing == []


def test_no_error_is_raised_without_a_code():
    for folder in ("scoring", "tournament"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name in ("errors.py", "messages.py"):
                continue
            for line, row in enumerate(path.read_text().splitlines(), 1):
                assert not re.search(r"raise ScoringError\(\s*f?\"", row), f"{path}:{line}"


SEATED = ["青木", "佐藤", "鈴木", "田中"]


@pytest.mark.parametrize("code", sorted(c for c, t in ENGINE.items() if "{seat}" in t))
@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_seat_reads_as_wind_and_name(code, language):
    params = dict.fromkeys(fields(ENGINE[code]), 7) | {"seat": Seat(3)}
    with translation.override(language):
        said = error_text(fail(code, "x", **params), SEATED)
    wind = {"ja": "北", "en": "North"}[language]  # issue 66: a wind in the reader's words
    assert f"{wind} 田中" in said and not SEAT_N.search(said)


def test_the_english_the_command_line_prints_keeps_seat_numbers():
    exc = fail("riichi.noten", "result.tenpai", seat=Seat(3))
    assert exc.message == ("seat 3 declared riichi and must be tenpai (a noten riichi is a chombo)")
    assert str(exc) == f"result.tenpai: {exc.message}"


def test_stage_names_and_nested_errors_are_translated():
    exc = ServiceError("stage.closed_already", "stage", stage=StageName("qualifier"))
    with translation.override("ja"):
        assert error_text(exc) == "予選はもう締め切られています"
    inner = ServiceError("game.unregistered", "seats[2]", name="X")
    outer = ServiceError("file.game", "games[0]", error=inner)
    assert outer.message == "seats[2]: X is not registered for this event"
    with translation.override("ja"):
        assert error_text(outer) == "seats[2]: X はこの大会に登録されていません"


def test_an_engine_error_without_a_code_is_still_said():
    exc = ServiceError.engine(ScoringError("x", "something odd"))
    assert exc.message == "something odd" and error_text(exc) == "something odd"


@pytest.mark.django_db
def test_a_noten_riichi_is_refused_in_japanese_naming_the_player():
    event, client, game = setup()
    client.cookies["django_language"] = "ja"
    who = names(game)[3]
    page = hand(client, event, game, type="draw", riichi=["3"], tenpai=["0"])
    html = text(page)
    assert page.status_code == 400
    assert f"北 {who} はリーチしているので聴牌のはずです" in html
    assert not SEAT_N.search(html)


@pytest.mark.django_db
def test_atamahane_names_the_winner_in_english_too():
    # The page offers one winner under 頭ハネ; a second (an import, the API) is refused by
    # the engine, and the refusal names the seat nearest the discarder with its player.
    _, _, game = setup()
    with pytest.raises(ServiceError) as refused:
        game_hand_add(
            game=game,
            hand={
                "result": {
                    "type": "ron",
                    "discarder": 0,
                    "wins": [{"seat": 2, "han": 2, "fu": 30}, {"seat": 1, "han": 2, "fu": 30}],
                }
            },
            expected_version=game.version,
        )
    with translation.override("en"):
        said = error_text(refused.value, names(game))
    assert f"South {names(game)[1]}, nearest the discarder" in said
    assert not SEAT_N.search(said)


@pytest.mark.django_db
def test_a_service_error_speaks_japanese_on_the_page():
    event, client, _ = setup()
    client.cookies["django_language"] = "ja"
    page = client.post(url("round-new", event.slug), {"method": "standings", "round": 2})
    assert page.status_code == 400 and "が終わっていません" in text(page)


@pytest.mark.parametrize(
    ("language", "label", "shown"),
    [
        ("en", "E1-0", "E1-0"),
        ("ja", "E1-0", "東1局 0本場"),
        ("ja", "S4-12", "南4局 12本場"),
        ("ja", "W1-2", "西1局 2本場"),
        ("ja", "3局目・戦国時代", "3局目・戦国時代"),  # Emperor's labels are Japanese already
    ],
)
def test_a_hand_label_reads_in_the_reader_s_language(language, label, shown):
    from tournament.i18n import hand_label, round_heading

    with translation.override(language):
        assert hand_label(label) == shown
        assert round_heading(3) == ("R3" if language == "en" else "3回戦")


@pytest.mark.django_db
def test_the_hand_form_log_and_sheet_name_hands_in_japanese():
    event, client, game = setup()
    client.cookies["django_language"] = "ja"
    assert hand(client, event, game, type="draw", tenpai=["0"]).status_code == 302
    entry = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "東1局 0本場" in entry  # the log's first hand
    assert "東2局 1本場 を記録" in entry  # the next hand's button (Baba: the deal passes)
    assert "E1-0" not in entry and "E2-1" not in entry
    sheet = text(client.get(url("game-detail", event.slug, game.pk)))
    assert "東1局 0本場" in sheet and "E1-0" not in sheet
    standings = text(client.get(url("event-detail", event.slug)))
    assert "1回戦" in standings and not re.search(r">\s*R1\b", standings)


def test_what_a_tenhou_log_disagrees_on_is_said_in_the_reader_s_language():
    # A real 3-player log of 2018 (whole points) replayed under a ruleset with tenths alone
    # (tenhou-sanma without its earlier rounding): its final points differ. A Japanese page
    # named the part by its key ("最終 points は").
    from scoring.presets import TENHOU_SANMA
    from scoring.tenhou import check_log, read_log

    log = ROOT / "tests/scoring/tenhou_logs/sanma/2018110809gm-00b9-0000-00a79b89.mjlog"
    with pytest.raises(ScoringError) as caught:
        check_log(TENHOU_SANMA.replace(rounding_earlier=None), read_log(log.read_bytes()))
    exc = caught.value
    # Whole points against tenths: the message names the knob that replays the log.
    assert exc.code == "log.final_whole"
    assert exc.message.startswith("the log's final points are whole numbers ([8.0, -66.0, 58.0])")
    with translation.override("ja"):
        said = error_text(exc)
    assert said.startswith("牌譜の最終ポイントは整数（[8.0, -66.0, 58.0]）")
    assert "points" not in said and "half_up" in said
    # Any other difference in the final points names the part in the reader's words.
    from scoring.errors import LogPart
    from scoring.messages import fail

    other = fail("log.final", "log", what=LogPart("points"), log=[8.0], ours=[8.5])
    with translation.override("ja"):
        assert error_text(other).startswith("牌譜の最終ポイントは [8.0]")
    with translation.override("en"):
        assert error_text(exc) == exc.message


def test_a_rank_in_the_field_reads_7th_in_english_and_7位_in_japanese():
    # The round-over push message: "you are 7th of 8", 「8人中 7位」.
    with translation.override("en"):
        said = [rank_text(n) for n in (1, 2, 3, 4, 7, 11, 12, 13, 21, 22, 23, 101, 111, 112)]
    assert said == [
        "1st", "2nd", "3rd", "4th", "7th", "11th", "12th", "13th",
        "21st", "22nd", "23rd", "101st", "111th", "112th",
    ]  # fmt: skip
    with translation.override("ja"):
        assert [rank_text(n) for n in (1, 2, 7, 11, 21)] == ["1位", "2位", "7位", "11位", "21位"]


@pytest.mark.parametrize(
    "language, winds",
    [("en", ["E 東", "S 南", "W 西", "N 北"]), ("ja", ["東", "南", "西", "北"])],
)
def test_a_printed_wind_is_its_marker_with_the_english_word_s_initial(language, winds):
    """The round sheet on paper (mahjong.wind_short): "North 北" printed over the name."""
    from tournament.templatetags.mahjong import wind_short

    with translation.override(language):
        assert [wind_short(position) for position in range(4)] == winds
