"""A 3-player event at 300 a honba, as Pantheon's sanma pays it (issue 64; docs/rulesets.md,
"Three players at 300 a honba"): the event file imports (CONTRACT §2), a tsumo's 150 a payer
leaves a score on 50s, and the result's hundredths are stored, ranked and shown exactly on
SQLite and PostgreSQL alike."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.core.management import call_command

from tests.scoring.support import draw, ron, tsumo, win
from tests.scoring.test_sanma_honba import PANTHEON_SANMA
from tournament.forms.games import ScoresForm
from tournament.models import Entry, Event, Seat
from tournament.numbers import format_points
from tournament.services.imports import event_export, event_import

pytestmark = pytest.mark.django_db

RULESET = {**PANTHEON_SANMA, "winds": 1}
PLAYERS = ["Aoki", "Baba", "Chiba"]
# The East-only game of tests/scoring/test_sanma_honba.py, whose comment has the arithmetic:
# 37,750 / 39,800 / 27,450 → 2.75 / 19.8 / −22.55 — one honba's 150 a payer in it.
HANDS = [
    {"result": draw(0)},
    {"result": tsumo(1, 5)},
    {"result": ron(2, win(0, 3, 30))},
    {"result": draw()},
]


def event_file() -> dict:
    return {
        "name": "Pantheon sanma club",
        "slug": "pantheon-sanma",
        "ruleset": RULESET,
        "format": "league",
        "players": PLAYERS,
        "games": [
            {"round": 1, "table": 1, "seats": PLAYERS, "hands": HANDS},
            # Final scores on 50s, as such a game may end: (36,150 − 35,000) / 1,000 + 15 = 16.15.
            {"round": 2, "table": 1, "seats": PLAYERS, "scores": [36150, 33850, 35000]},
        ],
    }


def test_an_event_file_at_300_a_honba_imports_with_exact_hundredths(tmp_path, capsys):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event_file(), ensure_ascii=False), encoding="utf-8")
    call_command("import_event", str(path))
    event = Event.objects.get(slug="pantheon-sanma")
    assert event.rules.honba == 300 and event.rules.players == 3
    seats = Seat.objects.filter(round__event=event).order_by("round__number", "position")
    by_game = [[(s.score, s.points) for s in seats if s.round.number == n] for n in (1, 2)]
    assert by_game[0] == [
        (37750, Decimal("2.75")),
        (39800, Decimal("19.8")),
        (27450, Decimal("-22.55")),
    ]
    assert by_game[1] == [(36150, Decimal("16.15")), (33850, Decimal("-16.15")), (35000, 0)]
    totals = {e.player.name: e.total for e in Entry.objects.filter(event=event)}
    # 2.75 + 16.15, 19.8 − 16.15, −22.55 + 0: hundredths kept through the sum.
    assert totals == {"Aoki": Decimal("18.9"), "Baba": Decimal("3.65"), "Chiba": Decimal("-22.55")}

    capsys.readouterr()  # the import's own line
    call_command("export_standings", event.slug, format="csv")
    rows = capsys.readouterr().out.splitlines()
    assert rows[1].startswith("1,Aoki,18.9,2,") and ",2.75,16.15," in rows[1]
    assert rows[3].startswith("3,Chiba,-22.55,2,")


def test_the_file_round_trips():
    event = event_import(event_file())
    exported = event_export(event)
    assert exported["ruleset"]["honba"] == 300
    again = event_import({**exported, "slug": "copy"})
    assert again.rules == event.rules


def test_the_final_scores_form_steps_by_50_where_scores_move_in_fifties():
    event = event_import(event_file())
    form = ScoresForm(rules=event.rules, names=PLAYERS, players=PLAYERS)
    assert form.fields["score_0"].widget.attrs["step"] == 50


def test_points_show_hundredths_only_where_they_have_them():
    assert format_points(Decimal("16.15"), False) == "16.15"
    assert format_points(Decimal("-22.55"), False) == "-22.55"
    assert format_points(Decimal("16.20"), False) == "16.2"  # two places stored, one needed
    assert format_points(16.2, False) == "16.2"
    assert format_points(Decimal("18.00"), True) == "18"
