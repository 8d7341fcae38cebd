"""The hand form says when only one ron counts (頭ハネ, issue 66), in the page's language; a
ruleset with double ron shows a second winner instead."""

from __future__ import annotations

import pytest

from tests.tournament.organize_support import url
from tests.tournament.test_entry import setup

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("ruleset", "bump"), [("baba", True), ("tenhou", False)])
def test_the_hand_form_says_head_bump_where_the_rules_have_it(ruleset: str, bump: bool) -> None:
    event, client, game = setup(ruleset, slug=f"bump-{ruleset}")
    address = url("game-hands", event.slug, game.pk)
    english = client.get(address).content.decode()
    japanese = client.get(address, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert ("Head bump (頭ハネ): one ron only" in english) is bump
    assert ("頭ハネ：ロンは一人だけです" in japanese) is bump
    assert ('name="wins_1_seat"' in english) is not bump  # a second ron winner
