"""No status for a player whose place nothing has decided (issue 66): players yet to play are
equal at 0.0, which is no tie — not on the page, not in the files — while players who have
played and share a place are still `tie`; and no cut line is drawn while nobody has played."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from tests.tournament.factories import PLAYERS, baba_day, make_event, scores_game
from tournament.models import Event
from tournament.selectors.published import published
from tournament.selectors.standings import event_standings

pytestmark = pytest.mark.django_db


def _csv(client: Client, event: Event) -> dict[str, dict[str, str]]:
    text = client.get(f"/events/{event.slug}/standings.csv").content.decode()
    return {row["player"]: row for row in csv.DictReader(io.StringIO(text))}


def test_players_yet_to_play_are_not_tied_after_one_table(client: Client) -> None:
    event = make_event(players=PLAYERS[:16])
    scores_game(event, 1, 1, PLAYERS[:4])
    rows = _csv(client, event)
    waiting = [rows[p] for p in PLAYERS[4:16]]
    assert {r["rank"] for r in waiting} == {"3"}  # they still share a place…
    assert {r["status"] for r in waiting} == {""}  # …which decides nothing
    html = client.get(f"/events/{event.slug}/").content.decode()
    assert "status-tie" not in html
    now = Event.objects.get(pk=event.pk)
    assert [r.status for r in published(now).standings.rows] == [
        r.status for r in event_standings(now).rows
    ]


def test_players_who_played_to_the_same_total_are_still_tied(client: Client) -> None:
    event = make_event(players=PLAYERS[:12])
    scores_game(event, 1, 1, PLAYERS[:4])
    scores_game(event, 1, 2, PLAYERS[4:8])  # the same scores: each place's pair tied
    rows = _csv(client, event)
    assert rows[PLAYERS[0]]["total"] == rows[PLAYERS[4]]["total"]
    assert (rows[PLAYERS[0]]["status"], rows[PLAYERS[4]]["status"]) == ("tie", "tie")
    assert {rows[p]["status"] for p in PLAYERS[8:12]} == {""}


def test_a_result_ranked_again_gives_the_same_statuses_as_ranking_everyone() -> None:
    """The standings after a result are ranked again from the ones held (rank_again): the
    players yet to play must lose no status there that ranking everyone would not give."""
    event = make_event(players=PLAYERS[:16])
    published(Event.objects.get(pk=event.pk))  # held, so the next is ranked from it
    for table, seats in enumerate((PLAYERS[:4], PLAYERS[4:8]), start=1):
        scores_game(event, 1, table, seats)
        now = Event.objects.get(pk=event.pk)
        shown = [(r.player, r.rank, r.status) for r in published(now).standings.rows]
        assert shown == [(r.player, r.rank, r.status) for r in event_standings(now).rows]
    assert {r.status for r in published(now).standings.rows if not r.games} == {""}


def test_no_cut_line_before_anyone_plays(client: Client) -> None:
    event = baba_day(slug="before-round-1", played=0)
    for stage in ["", *event.stages.values_list("name", flat=True)]:
        html = client.get(f"/events/{event.slug}/", {"stage": stage} if stage else {}).content
        assert b' cut"' not in html and b"status-tie" not in html, stage
