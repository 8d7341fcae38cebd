"""Closing a stage is logged as what it decided (issue 66): the qualifier by who goes on, the
final by its winner and order — not 「決勝：通過 …」 (everyone "advancing" from the last stage)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.tournament.factories import baba_day
from tournament.auditlog import entry_sentence
from tournament.models import AuditEntry
from tournament.selectors.standings import event_standings
from tournament.services.stages import stage_close

pytestmark = pytest.mark.django_db


def test_closing_the_qualifier_then_the_final_says_who_goes_on_then_who_won() -> None:
    event = baba_day(slug="closing", played=8, close_qualifier=True)
    final = event.stages.order_by("position").last()
    stage_close(event=event, stage=final)
    qualifier_entry, final_entry = AuditEntry.objects.filter(action="stage.close").order_by("pk")
    ranked = [str(r.player) for r in event_standings(event).rows]
    with translation.override("ja"):
        said = entry_sentence(final_entry)
        assert f"優勝 {ranked[0]}" in said and "通過" not in said
        assert "通過" in entry_sentence(qualifier_entry)
    with translation.override("en"):
        said = entry_sentence(final_entry)
        assert f"won by {ranked[0]}" in said
        assert "advancing" not in said
        assert "advancing" in entry_sentence(qualifier_entry)
