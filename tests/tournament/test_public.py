"""Public standings: the django-tables2 table, stage tabs and the cut, the live fragment,
downloads from the same rows — each at a fixed number of queries whatever the size."""

from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tables2 import RequestConfig

from tests.tournament.factories import league_data, make_event, scores_game
from tests.tournament.organize_support import text, url
from tournament.demo import demo_events
from tournament.exports.standings import standings_table
from tournament.models import Event, Player
from tournament.selectors.published import published
from tournament.selectors.standings import (
    event_standings,
    fraction_rounds,
)
from tournament.services.games import game_record
from tournament.services.imports import event_import
from tournament.services.ratings import ratings_catch_up_all
from tournament.views.public.standings import PER_PAGE

pytestmark = pytest.mark.django_db
RANKS = ["rank_1", "rank_2", "rank_3", "rank_4"]


def has_column(html: str, header: str) -> bool:
    """A column heading, not the same letters inside the page's random CSRF token."""
    return re.search(rf">\s*{header}\s*<", html) is not None


def main(html: str) -> str:
    return html[html.index("<main") : html.index("</main>")]


def queries(client, address: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        page = client.get(address)
    assert page.status_code == 200
    return len(captured), text(page)


@pytest.mark.parametrize("name", ["event-detail", "standings-live"])
def test_standings_page_costs_the_same_queries_for_any_size(client, name):
    small = event_import(league_data(8, 2))
    large = event_import(league_data(64, 6))
    # Expected, whatever the number of players and rounds:
    # * the event: its stamps make the ETag, and the page made reads its whole row
    #   (tournament/http_caching.py: a 304 or a kept page reads the stamps alone) — 2
    # * the page (not its live table): the registration settings (a sign-up link while open)
    # * its stages · registered players with their figures · penalties (the standings, 3:
    #   no seat is read)
    # * the rounds with results and the first with a table still playing (columns, marker)
    # * whether the event has teams (their tab beside the stages' — issue 34)
    few, _ = queries(client, url(name, small.slug))
    many, html = queries(client, url(name, large.slug))
    assert few == many == (8 if name == "event-detail" else 7)
    assert "Player 0063" in html and has_column(html, "R6")


def test_readers_share_cached_standings_until_a_write_moves_the_event_on(client):
    event = event_import(league_data(8, 1))
    address = url("event-detail", event.slug)
    cold, _ = queries(client, address)
    warm, html = queries(client, address)
    # The cold page: as above (the registration settings among them). The warm page: the
    # event's stamps alone, the whole page kept by its tag (http_caching.py `whole_page`).
    assert (cold, warm) == (8, 1)
    assert not has_column(html, "R2")
    names = [f"Player {i:04d}" for i in range(4)]
    game_record(
        event=event,
        data={"round": 2, "table": 1, "seats": names, "scores": [10000, 20000, 30000, 40000]},
    )
    after, html = queries(client, address)
    # The event's stamps and its row, the four entries the result recounted (the standings
    # ranked again from those this process held: selectors/standings.py), the rounds, the
    # registration settings.
    assert after == 5 and has_column(html, "R2")


def test_big_standings_come_in_pages_of_100(client):
    event = event_import(league_data(128, 1))
    first = client.get(url("event-detail", event.slug))
    second = client.get(url("event-detail", event.slug) + "?page=2")
    rows = re.compile(r'<tr class="status-')
    assert len(rows.findall(first.content.decode())) == 100
    assert len(rows.findall(second.content.decode())) == 28
    assert "?page=2" in first.content.decode()


@pytest.mark.parametrize(
    "query", ["", "?sort=player", "?sort=-total", "?sort=c2", "?stage=qualifier"]
)
def test_the_lean_table_body_is_the_stock_template_cell_for_cell(rf, query):
    # StandingsTable.body_html replaces django-tables2's per-cell template for speed; the
    # stock template, given the same table, must print the same rows.
    for data in demo_events():
        event_import(data)
    event_import(league_data(128, 2))
    for event in Event.objects.all():
        result = event_standings(event)
        stage = next((s for s in result.stages if f"stage={s.stage.name}" in query), None)
        for page in ("", "&page=2"):
            request = rf.get("/" + (query or "?") + page)
            html = {}
            for template in ("tournament/_standings_table.html", "django_tables2/table.html"):
                table = standings_table(
                    result, players_per_table=event.rules.players, whole=False, stage=stage
                )
                table.template_name = template
                RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
                html[template] = re.sub(r">\s+<", "><", table.as_html(request)).strip()
            lean, stock = html.values()
            assert lean == stock, event.slug
            assert lean.count("<tr") > 1


def test_demo_baba_standings_show_the_cut_tabs_and_statuses(client):
    for data in demo_events():
        event_import(data)
    html = text(client.get(url("event-detail", "baba-demo")))
    rows = re.findall(r"<tr class=\"([^\"]*)\">", html)
    # Four finalists above the line (django-tables2 adds odd/even), everyone else below.
    assert [i for i, r in enumerate(rows) if " cut " in f" {r} "] == [3]
    assert all("finalist" in r or "champion" in r for r in rows[:4])
    assert all("qualifier" in r for r in rows[4:])
    assert "Qualifier" in html and "Final" in html and "Finalist" in html
    assert "Out at the cut" in html
    qualifier = text(client.get(url("event-detail", "baba-demo") + "?stage=qualifier"))
    assert 'aria-current="page">Qualifier' in qualifier and not has_column(qualifier, "R7")
    # Sorting by a column is django-tables2's; the cut line is dropped when not in rank order.
    by_name = text(client.get(url("event-detail", "baba-demo") + "?sort=player"))
    rows = re.findall(r"<tr class=\"([^\"]*)\">", by_name)
    assert len(rows) == 16 and not any(" cut " in f" {r} " for r in rows)


def test_downloads_are_the_contract_files(client):
    event = event_import(league_data(8, 2))
    page = client.get(url("standings-export", event.slug, "csv"))
    assert page["Content-Disposition"] == f'attachment; filename="{event.slug}-standings.csv"'
    rows = list(csv.reader(io.StringIO(page.content.decode())))
    contract = ["rank", "player", "total", "games", "top_rate", "r1", "r2", "status"]
    assert rows[0][:8] == contract and rows[0][8:] == ["average_rank", *RANKS, "penalties"]
    assert len(rows) == 9
    data = json.loads(client.get(url("standings-export", event.slug, "json")).content)
    assert len(data["standings"]) == 8
    xlsx = client.get(url("standings-export", event.slug, "xlsx"))
    assert xlsx.content[:2] == b"PK"
    pdf = url("standings-export", event.slug, "csv").replace(".csv", ".pdf")
    assert client.get(pdf).status_code == 404  # a format the pipeline does not write


def test_every_page_with_downloads_offers_each_format_the_pipeline_writes(client):
    from tournament.exports.formats import FORMATS
    from tournament.models import Series

    event = event_import(league_data(8, 2))
    series = Series.objects.create(name="Season", slug="season")
    pages = {
        "standings-export": (url("event-detail", event.slug), event.slug),
        "statistics-export": (url("event-statistics", event.slug), event.slug),
        "series-export": (url("series-detail", series.slug), series.slug),
    }
    for download, (page, slug) in pages.items():
        html = client.get(page).content.decode()
        for fmt in FORMATS.values():
            address = url(download, slug, fmt.slug)
            assert f'href="{address}" download>{fmt.label}<' in html, (page, fmt.slug)
            answer = client.get(address)
            assert answer.status_code == 200 and answer["Content-Type"] == fmt.content_type


def test_the_page_refreshes_itself_only_while_the_event_runs(client):
    event = event_import(league_data(8, 2))
    html = text(client.get(url("event-detail", event.slug)))
    assert "data-live=" in html and "js/live.js" in html and "Last updated" in html
    assert not Event.objects.filter(slug="nope").exists()
    assert client.get(url("standings-live", "nope")).status_code == 404


def test_the_page_follows_all_it_says_not_the_table_alone(client):
    """A phone left on the standings: the round in play, its "Find your seat", the round tabs
    and "final" move with the table — live.js asks the page's own address and swaps the whole
    region (helper-48 saw "round 3 in progress" stay on a phone after the round was over)."""
    event = event_import(league_data(8, 2))
    address = url("event-detail", event.slug)
    html = text(client.get(address))
    region = re.search(r'<div id="standings-page" data-live="([^"]+)"(.*)</div>', html, re.S)
    assert region and region.group(1) == address
    inside = region.group(2)
    assert 'class="meta"' in inside and 'class="rounds-nav' in inside and 'id="standings"' in inside
    fetched = client.get(address, headers={"X-Requested-With": "fetch"})
    assert fetched.status_code == 200 and 'id="standings-page"' in text(fetched)


def test_round_view_and_game_sheet_with_the_hand_log_and_chart(client):
    for data in demo_events():
        if data["slug"] == "baba-demo":
            event = event_import(data)
    standings = text(client.get(url("event-detail", event.slug)))
    assert url("round-detail", event.slug, 1) in standings
    page = text(client.get(url("round-detail", event.slug, 1)))
    assert page.count('class="card table-card"') == 4
    # Table 1 of the Baba demo is kept hand by hand: its sheet has the log and the chart.
    from tournament.models import Game

    game = Game.objects.get(round__event=event, round__number=1, table=1)
    with CaptureQueriesContext(connection) as captured:
        sheet = text(client.get(url("game-detail", event.slug, game.pk)))
    # The seats' names with the game's and its event's versions (the ETag, the key) · for the
    # sheet: the event, the game with its round and live scores, seats with players, hands
    assert len(captured) == 5
    with CaptureQueriesContext(connection) as captured:
        again = text(client.get(url("game-detail", event.slug, game.pk)))
    # The names and versions: the sheet is shared until they change (the frame around it,
    # with its forms' CSRF tokens, is drawn per request).
    assert len(captured) == 1 and main(again) == main(sheet)
    assert "<polyline" in sheet and sheet.count("<polyline") == 4 and "E1-0" in sheet
    assert "Uma" in sheet and "Oka" in sheet
    other = event_import(league_data(8, 1))
    assert client.get(url("game-detail", other.slug, game.pk)).status_code == 404


def test_player_page_lists_every_game_across_events(client):
    small = event_import(league_data(8, 2))
    data = league_data(8, 3)
    data["slug"], data["name"] = "second", "Second league"
    second = event_import(data)
    ratings_catch_up_all()  # the ratings' queue, which runs after a commit (none in a test)
    name = "Player 0001"
    player = Player.objects.get(name=name)
    standings = text(client.get(url("event-detail", small.slug)))
    assert url("player-detail", player.pk) in standings
    # An address made from the name, shared before players had ids, leads to the same page.
    assert client.get(f"/players/{name}/")["Location"] == url("player-detail", player.pk)
    with CaptureQueriesContext(connection) as captured:
        page = client.get(url("player-detail", player.pk))
    html = text(page)
    # Their events (for the ETag) · their own games' versions (the shared part's key) · their
    # finished seats with round, event and game · two for the statistics · where they stand:
    # per event the event itself, and its standings unless this process ranked that version
    # (the first event's page did; the second's are read: stages, entries, penalties) · their
    # rating's history (issue 34; its newest step is in the first query, for the ETag).
    assert len(captured) == 11
    with CaptureQueriesContext(connection) as captured:
        again = text(client.get(url("player-detail", player.pk)))
    # Their events (the ETag): the page's content is kept by what that query read (issue 46),
    # so nothing else is read until one of them moves on; the frame is drawn per request.
    assert len(captured) == 1 and main(again) == main(html)
    assert html.count("<polyline") == 3 and small.name in html and second.name in html
    assert "5 games" in html
    # Each event's chart is named as its heading says: the totals round by round, not a game
    # sheet's hands.
    assert "Scores after each hand" not in html
    assert html.count(f'id="chart-title-{small.pk}">Total by round</title>') == 1
    assert client.get("/players/Nobody/").status_code == 404
    assert client.get(url("player-detail", 10**9)).status_code == 404


def test_a_change_elsewhere_moves_where_a_player_stands_not_the_rest_of_their_page(client):
    from tournament.services.penalties import penalty_give

    event = event_import(league_data(8, 2))
    standings = event_standings(event)
    last = standings.rows[-1]
    player = Player.objects.get(name=last.player)
    page = text(client.get(url("player-detail", player.pk)))
    assert f"{last.rank} of 8" in page
    # A bonus for them (no game of theirs changes) takes them to the top.
    penalty_give(event=event, player=last.player, points="500", reason="bonus")
    with CaptureQueriesContext(connection) as captured:
        after = text(client.get(url("player-detail", player.pk)))
    assert "1 of 8" in after and "500.0" in after
    seen = event_standings(event).rows
    assert next(r for r in seen if r.player == last.player).total == last.total + 500
    # Their events · their own games · the event and its standings for the new placings: their
    # seats and statistics are not read again, nor their rating's history (kept by its newest
    # step, which a penalty does not move).
    assert len(captured) == 6

    def from_places(html: str) -> str:
        return html[html.index('class="stats places"') :]

    assert from_places(main(after)) == from_places(main(page))


def test_a_change_that_leaves_a_player_s_place_keeps_their_page_s_content(client, monkeypatch):
    # Issue 67: the content is kept by what it shows (their places, not the events' versions):
    # after a change elsewhere that leaves their place, the page is made again (its tag holds
    # the event's version) around the content kept; a change that moves them draws it again.
    from tournament.services.penalties import penalty_give
    from tournament.views.public import players

    event = event_import(league_data(8, 2))
    rows = event_standings(event).rows
    player = Player.objects.get(name=rows[0].player)
    first = client.get(url("player-detail", player.pk))
    drawn: list[int] = []
    sections = players._PlayerBody.sections  # a cached_property: the sections drawn

    def counted(body: players._PlayerBody) -> list:
        drawn.append(1)
        return sections.func(body)

    monkeypatch.setattr(players._PlayerBody, "sections", property(counted))
    penalty_give(event=event, player=rows[-1].player, points="-1", reason="late")
    after = client.get(url("player-detail", player.pk))
    assert after["ETag"] != first["ETag"]  # the event moved on: the page was made again…
    assert drawn == []  # …around its content as it was kept
    assert main(text(after)) == main(text(first))
    penalty_give(event=event, player=player.name, points="-500", reason="bonus taken back")
    moved = text(client.get(url("player-detail", player.pk)))
    assert drawn and "8 of 8" in moved and "1 of 8" not in moved


def test_standings_read_together_are_each_events_own():
    from tournament.selectors.cache import clear_all
    from tournament.selectors.published import published_of
    from tournament.selectors.standings import event_standings

    first = event_import(league_data(8, 2))
    data = league_data(12, 3)
    data["slug"], data["name"] = "second", "Second league"
    second = event_import(data)
    clear_all()
    together = published_of([first, second])
    for event in (first, second):
        alone = event_standings(event)
        shown = together[event.pk].standings
        assert [r.to_json() for r in shown.rows] == [r.to_json() for r in alone.rows]
        assert shown.stages == alone.stages


def test_a_whole_point_venue_shows_a_round_whole_unless_a_result_in_it_has_a_fraction(client):
    from tournament.models import Seat
    from tournament.services.changes import standings_rebuild

    event = make_event(ruleset="jan-niki")
    names = ["P00", "P01", "P02", "P03"]
    scores_game(event, 1, 1, names, [38500, 30600, 20500, 10400])
    scores_game(event, 2, 1, names, [38500, 30600, 20500, 10400])
    # A result with a half point in round 2 (as a venue's own settlement may give).
    seat = Seat.objects.get(round__number=2, player__name="P03")
    Seat.objects.filter(pk=seat.pk).update(points=seat.points - Decimal("0.5"))
    standings_rebuild(event)
    html = text(client.get(url("event-detail", event.slug)))
    first = re.search(r'<tr class="[^"]*">(.*?)</tr>', html, re.S).group(1)
    cells = re.findall(r"<td[^>]*>\s*(.*?)\s*</td>", first, re.S)
    # Rank, player, total, games, top rate, avg. rank, 1st–4th, R1, R2: R1 whole, R2 in tenths.
    assert cells[-2:] == ["59", "59.0"], cells
    # Chosen from the rounds' results (selectors), the columns match reading every row.
    result = event_standings(event)
    facts = {"rounds": [1, 2], "fractions": fraction_rounds(result)}
    assert facts["fractions"] == {2}
    for given in (facts, {}):
        table = standings_table(result, players_per_table=4, whole=True, **given)
        rounds = [c for c in table.columns if re.fullmatch(r"r\d+", c.name)]
        assert [c.column.whole for c in rounds] == [True, False]


def test_a_page_reads_the_rounds_of_the_rows_it_shows_only(client):
    event = event_import(league_data(256, 3))
    client.get(url("event-detail", event.slug))
    result = published(Event.objects.get(pk=event.pk)).standings  # as the page had them
    decoded = [row.player for row in result.rows if row._detail is not None]
    assert decoded == [row.player for row in result.rows[:PER_PAGE]]


@pytest.mark.parametrize("query", ["", "?page=2", "?sort=player"])
def test_a_page_makes_the_records_of_the_rows_it_shows_only(rf, query):
    event = event_import(league_data(256, 2))
    result = event_standings(event)
    table = standings_table(result, players_per_table=4, whole=False)
    request = rf.get("/" + query)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    html = table.as_html(request)
    shown = re.findall(r'<td class="player">([^<]+)</td>', html)
    made = table.data.data
    if query == "?sort=player":  # sorted by the reader's choice: every row, in that order
        assert len(made) == 256 and shown == sorted(r.player for r in result.rows)[:PER_PAGE]
    else:
        start = PER_PAGE if query else 0
        assert shown == [r.player for r in result.rows[start : start + PER_PAGE]]
        assert sorted(made._made) == list(range(start, min(start + PER_PAGE, 256)))


def test_a_game_sheet_is_made_again_when_its_game_or_names_change_not_for_other_games(client):
    from tournament.services.players import player_rename

    event = event_import(league_data(8, 1))
    first = event.rounds.get().games.get(table=1)
    address = url("game-detail", event.slug, first.pk)
    cold, sheet = queries(client, address)
    names = [f"Player {i:04d}" for i in range(8) if f"Player {i:04d}" not in sheet][:4]
    game_record(
        event=event,
        data={"round": 2, "table": 1, "seats": names, "scores": [10000, 20000, 30000, 40000]},
    )
    warm, again = queries(client, address)  # another game's result: the same sheet, shared
    assert (cold, warm) == (5, 1) and main(again) == main(sheet)
    seated = Player.objects.get(name=re.search(r"Player \d{4}", main(sheet)).group(0))
    player_rename(player=seated, name="Renamed Player")
    after, renamed = queries(client, address)
    assert after == 5 and "Renamed Player" in main(renamed)
