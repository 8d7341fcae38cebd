"""One write API for results (docs/standings.md): `results_changed` recounts, moves the version
as a results-only change and logs, together; nothing else may move the version without moving
`structure_version` too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.tournament.factories import PLAYERS, make_event, scores_game
from tournament.models import AuditEntry, Entry, Event, Player
from tournament.services.changes import change_record, results_changed

ROOT = Path(__file__).resolve().parents[2]


def test_only_results_changed_moves_the_version_without_the_structure():
    callers = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tournament").rglob("*.py")
        if re.search(r"structure\s*=\s*(False|players is None)", path.read_text(encoding="utf-8"))
    ]
    assert callers == ["tournament/services/changes.py"]
    text = (ROOT / "tournament/services/changes.py").read_text(encoding="utf-8")
    body = text[text.index("def results_changed") :]
    assert "structure=players is None" in body.split("\ndef ", 1)[0]


def test_no_service_recounts_or_touches_by_itself():
    # The two halves of a results write are results_changed's; a service calling either alone
    # would be the "two calls to change results" this API replaced.
    for path in (ROOT / "tournament").rglob("*.py"):
        name = path.relative_to(ROOT).as_posix()
        if name in ("tournament/services/changes.py", "tournament/services/standings.py"):
            continue
        text = path.read_text(encoding="utf-8")
        assert "entries_recount(" not in text, name
        assert "event_touch(" not in text, name


@pytest.mark.django_db
def test_results_changed_recounts_moves_the_version_and_logs():
    event = make_event()
    scores_game(event, 1, 1, PLAYERS[:4])
    before = Event.objects.get(pk=event.pk)
    player = Player.objects.get(name=PLAYERS[0])
    Entry.objects.filter(event=event, player=player).update(games=99)  # doubted figures
    results_changed(event=event, players=[player.pk], user=None, action="test", summary="s")
    after = Event.objects.get(pk=event.pk)
    assert Entry.objects.get(event=event, player=player).games == 1  # recounted
    assert after.version == before.version + 1
    assert after.structure_version == before.structure_version  # readers may follow
    assert AuditEntry.objects.filter(event=event, action="test").count() == 1


@pytest.mark.django_db
def test_every_other_change_makes_readers_rank_from_scratch():
    event = make_event()
    scores_game(event, 1, 1, PLAYERS[:4])
    before = Event.objects.get(pk=event.pk)
    change_record(event=event, user=None, action="test", summary="s")
    after = Event.objects.get(pk=event.pk)
    assert after.version == before.version + 1
    assert after.structure_version == before.version
    results_changed(event=event, players=None, user=None, action="import", summary="s")
    assert Event.objects.get(pk=event.pk).structure_version == after.version
