"""Issue 46: while a round is seated, the venue screen sends a screenful of its tables at a
time (`?from=&rows=` counted in tables, sliced in the database), its page the first window
with a link to the next; a bad window is 400, never 500; the before-the-last-game table the
screen shows is capped, the rest left to the standings page."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournament.factories import make_event
from tournament.models import Event
from tournament.selectors.tables import round_phase, round_seating
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

FETCH = {"X-Requested-With": "fetch"}


@pytest.fixture
def seated() -> Event:
    """200 players, the first round seated (50 tables) and nobody playing yet."""
    event = make_event(slug="big", players=[f"Player {i:03d}" for i in range(200)])
    round_seat(event=event, rng=random.Random(7))
    assert round_phase(event).phase == "seating"
    return event


def _tables(html: str) -> list[tuple[int, list[str]]]:
    """(table, names East first) of each card the body holds."""
    cards = re.findall(r'<li class="seat-card"[^>]*>\s*<h2>Table (\d+)</h2>(.*?)</ol>', html, re.S)
    assert len(cards) == html.count('class="seat-card"')
    return [(int(n), re.findall(r'<span class="name">([^<]+)</span>', c)) for n, c in cards]


def _marker(html: str) -> tuple[int, int]:
    found = re.search(r'data-rows-from="(\d+)" data-rows-total="(\d+)"', html)
    assert found, "no window marker"
    return int(found[1]), int(found[2])


def test_a_window_holds_only_its_tables_with_their_players(seated):
    whole = [(t.table, t.players) for t in round_seating(seated, 1)]
    assert len(whole) == 50
    reply = Client().get(f"/events/{seated.slug}/screen/?from=10&rows=7", headers=FETCH)
    html = reply.content.decode()
    assert reply.status_code == 200
    assert _tables(html) == whole[10:17]
    assert [n for n, _ in _tables(html)] == list(range(11, 18))
    assert _marker(html) == (10, 50)


def test_past_the_end_is_the_last_tables_and_too_many_the_most(seated):
    whole = [(t.table, t.players) for t in round_seating(seated, 1)]
    far = Client().get(f"/events/{seated.slug}/screen/?from=999999999&rows=4", headers=FETCH)
    assert _tables(far.content.decode()) == whole[-4:] and _marker(far.content.decode()) == (46, 50)
    every = Client().get(f"/events/{seated.slug}/screen/?rows=100000", headers=FETCH)
    assert _tables(every.content.decode()) == whole  # 50 tables: under the most (100)


def test_the_page_holds_the_first_window_and_links_the_next(seated, monkeypatch):
    from tournament.views.public import screen

    monkeypatch.setattr(screen, "WINDOW_MOST", 20)
    html = Client().get(f"/events/{seated.slug}/screen/").content.decode()
    assert [n for n, _ in _tables(html)] == list(range(1, 21)) and _marker(html) == (0, 50)
    assert "Tables 1–20 of 50" in html and re.search(r'content="5;url=\?from=20"', html)
    last = Client().get(f"/events/{seated.slug}/screen/?from=40").content.decode()
    assert [n for n, _ in _tables(last)] == list(range(31, 51))  # the last 20
    assert "Tables 31–50 of 50" in last and re.search(r'content="5;url=\?from=0"', last)
    ja = Client().get(f"/events/{seated.slug}/screen/", headers={"accept-language": "ja"})
    assert "50卓中 1〜20卓目" in ja.content.decode()


def test_a_small_round_is_sent_whole_without_a_next_link():
    event = make_event(slug="small", players=[f"Player {i:02d}" for i in range(16)])
    round_seat(event=event, rng=random.Random(1))
    html = Client().get(f"/events/{event.slug}/screen/").content.decode()
    assert len(_tables(html)) == 4 and _marker(html) == (0, 4)
    assert "data-screen-more" not in html and 'content="5"' in html


@pytest.mark.parametrize(
    "query",
    ["from=abc", "rows=0", "rows=-5", "from=-1", "from=1e3", "rows=１０", "from=" + "9" * 40,
     "from=1&from=2", "rows="],
)  # fmt: skip
def test_a_window_nobody_can_show_is_400_never_500(seated, query):
    for headers in ({}, FETCH):
        reply = Client().get(f"/events/{seated.slug}/screen/?{query}", headers=headers)
        assert reply.status_code == 400, (query, headers)


def test_a_window_costs_the_same_queries_whatever_its_size(seated):
    """The fetched window, nothing cached for its version: the same queries for 5 tables as
    for 50 (the seats are read for the window only, never the round's every table)."""
    from tournament.selectors.cache import clear_all

    counts = []
    for rows in (5, 50):
        clear_all()
        with CaptureQueriesContext(connection) as queries:
            reply = Client().get(f"/events/{seated.slug}/screen/?rows={rows}", headers=FETCH)
        assert reply.status_code == 200
        counts.append([q["sql"] for q in queries.captured_queries])
    # Expect 10 queries:
    # * the event's stamps (the tag), then its whole row (the body made): by_event_version
    # * the latest round, and its games' states (round_phase: 2)
    # * whether a table has a result, or a hand (round_begun: the clock is not started)
    # * the stages' rounds (stage_in_play)
    # * whether the round ends a stage (no: no "before the last game" panel, no ranking)
    # * the round's seated tables counted, the window's seats (round_seating_window: 2)
    assert len(counts[0]) == len(counts[1]) == 10, "\n".join(counts[1])
    for rows, sqls in zip((5, 50), counts, strict=True):
        seats = [sql for sql in sqls if 'FROM "tournament_seat" INNER JOIN' in sql]
        assert len(seats) == 1 and f"LIMIT {rows})" in seats[0]  # the window's games only


def test_the_screen_s_before_the_last_game_table_is_capped(monkeypatch):
    """A one-stage field of thousands would list every player before its last round: the
    screen shows the leaders' first BEFORE_MOST rows and says how many more the standings
    page holds; a field under the cap is shown whole, as before."""
    from django.core.management import call_command

    from tests.tournament.test_conditions_live import final_game, undo
    from tournament.selectors.cache import clear_all
    from tournament.views.public import screen

    call_command("load_demo")
    game = final_game()
    undo(game, game.hands.count())  # the final (4 players) seated, its game not begun

    def before_rows() -> tuple[list[str], str]:
        clear_all()
        html = Client().get("/events/baba-demo/screen/", headers=FETCH).content.decode()
        table = html[html.index('class="before-table"') : html.index("</table>")]
        return re.findall(r"<tr><td>(\d+)</td>", table), html

    ranks, html = before_rows()
    assert len(ranks) == 4 and "more — see" not in html
    monkeypatch.setattr(screen, "BEFORE_MOST", 3)
    capped, html = before_rows()
    assert capped == ranks[:3]
    assert 'And 1 more — see <a href="/events/baba-demo/">the standings page</a>.' in html
