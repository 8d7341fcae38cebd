"""A result saved again as it stands is no change (issue 66): nothing written, nothing logged,
no version moved; a real correction still is one."""

from __future__ import annotations

import pytest

from tests.tournament.factories import PLAYERS, make_event, scores_game
from tournament.models import Event

pytestmark = pytest.mark.django_db


def test_saving_a_result_as_it_stands_writes_and_logs_nothing() -> None:
    """Issue 66: the same scores saved again logged 「結果修正：変更なし」 and moved the
    event's version (every phone's page made again for nothing)."""
    from tournament.models import AuditEntry, Game
    from tournament.services.games import game_correct

    event = make_event(players=PLAYERS[:4])
    game = scores_game(event, 1, 1, PLAYERS[:4])
    game.refresh_from_db()
    before = (Event.objects.get(pk=event.pk).version, AuditEntry.objects.count(), game.version)
    data = {"round": 1, "table": 1, "seats": PLAYERS[:4], "scores": [40000, 30000, 20000, 10000]}
    game_correct(game=game, data=data, expected_version=game.version)
    game = Game.objects.get(pk=game.pk)
    after = (Event.objects.get(pk=event.pk).version, AuditEntry.objects.count(), game.version)
    assert after == before
    data["scores"] = [41000, 29000, 20000, 10000]  # a real correction still writes
    game_correct(game=game, data=data, expected_version=game.version)
    assert AuditEntry.objects.filter(action="game.correct").count() == 1
