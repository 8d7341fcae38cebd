"""Players' statistics (CONTRACT §4 "Statistics"): the selector against statistics counted by
hand for a small event, its fixed query count, the event statistics page, the player page and
the exports."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from tests.tournament.factories import make_event
from tournament.exports.statistics import export_statistics
from tournament.models import Player
from tournament.selectors.statistics import event_statistics, player_statistics
from tournament.services.games import game_record

pytestmark = pytest.mark.django_db

SEATS = ["Aoki", "Baba", "Chiba", "Doi"]
# A Baba game of four hands (seat 0 the first dealer):
#   E1-0  Aoki riichi; Chiba rons Baba, 3 han 40 fu: 5200 + Aoki's stick → Chiba +6200
#   E2-0  Baba (dealer) tsumo 2 han 30 fu: 1000 all → Baba +3000
#   E2-1  draw, only Aoki tenpai: Aoki +3000 (the deal passes after any draw at Baba, honba + 1)
#   E3-2  Aoki rons Baba, 1 han 30 fu, two honba: 1000 + 600 → Aoki +1600
HANDS = [
    {
        "riichi": [0],
        "result": {"type": "ron", "discarder": 1, "wins": [{"seat": 2, "han": 3, "fu": 40}]},
    },
    {"result": {"type": "tsumo", "winner": 1, "han": 2, "fu": 30}},
    {"result": {"type": "draw", "tenpai": [0]}},
    {"result": {"type": "ron", "discarder": 1, "wins": [{"seat": 0, "han": 1, "fu": 30}]}},
]
# Counted by hand from the comments above (and the five draws that end the game add a hand each
# and nothing else).
COUNTED = (
    "wins",
    "tsumo_wins",
    "deal_ins",
    "riichi",
    "dealer_wins",
    "average_win",
    "average_deal_in",
)
EXPECTED = {
    "Aoki": (1, 0, 0, 1, 0, 1600, None),
    "Baba": (1, 1, 2, 0, 1, 3000, 3400),
    "Chiba": (1, 0, 0, 0, 0, 6200, None),
    "Doi": (0, 0, 0, 0, 0, None, None),
}


def small_event(slug: str = "st", extra_games: int = 0):
    """The game above, then five draws with nobody tenpai to the end of South 4 (nine hands);
    beside it a game kept as final scores, which adds nothing."""
    players = [*SEATS, "Endo", "Fujii", "Goto", "Hara"]
    event = make_event(slug=slug, ruleset="baba", players=players)
    hands = HANDS + [{"result": {"type": "draw", "tenpai": []}}] * 5
    game_record(event=event, data={"round": 1, "table": 1, "seats": SEATS, "hands": hands})
    game_record(
        event=event,
        data={"round": 1, "table": 2, "seats": players[4:], "scores": [40000, 30000, 20000, 10000]},
    )
    for k in range(extra_games):
        game_record(
            event=event,
            data={"round": 2 + k, "table": 1, "seats": SEATS, "hands": hands},
        )
    return event


def stats_by_name(event):
    return {s.player: s.tally for s in event_statistics(event)}


def test_the_selector_matches_statistics_counted_by_hand():
    event = small_event()
    stats = stats_by_name(event)
    for name, counted in EXPECTED.items():
        want = {"hands": 9, **dict(zip(COUNTED, counted, strict=True))}
        for rate, count in (
            ("win_rate", "wins"),
            ("deal_in_rate", "deal_ins"),
            ("riichi_rate", "riichi"),
        ):
            want[rate] = round(want[count] / 9, 3)
        assert stats[name].to_json() == want, name
    # Games kept as final scores add nothing: their players have no hands.
    assert stats["Endo"].to_json()["hands"] == 0 and stats["Endo"].to_json()["win_rate"] is None


@pytest.mark.parametrize("extra_games", [0, 3])
def test_the_selectors_take_two_queries_whatever_the_size(extra_games, django_assert_num_queries):
    event = small_event(extra_games=extra_games)
    player = Player.objects.get(name="Baba")
    with django_assert_num_queries(2):
        event_statistics(event)
    with django_assert_num_queries(2):
        per_event, overall = player_statistics(player)
    assert overall.hands == 9 * (1 + extra_games) and per_event[event.pk].hands == overall.hands


def test_over_every_event_adds_the_events_up():
    first, second = small_event("s1"), small_event("s2")
    per_event, overall = player_statistics(Player.objects.get(name="Baba"))
    assert set(per_event) == {first.pk, second.pk}
    assert overall.deal_ins == 4 and overall.value("average_deal_in") == 3400


def test_the_event_statistics_page(client):
    event = small_event()
    page = client.get(f"/events/{event.slug}/stats/?min=0")
    html = page.content.decode()
    assert page.status_code == 200
    # The win rate board: Aoki, Baba and Chiba tied first (one win in nine hands each), Doi —
    # who never won — not listed; the dealer wins board names Baba alone (helper-48 saw ties
    # numbered 1.–5. and boards of noughts).
    board = html[html.index('id="b-win_rate"') : html.index('id="b-deal_in_rate"')]
    assert board.count('<li value="1">') == 3 and "Doi" not in board
    dealer = html[html.index('id="b-dealer_wins"') : html.index('id="all-h"')]
    assert dealer.count("<li ") == 1 and "Baba" in dealer
    deal_in = html[html.index('id="b-deal_in_rate"') : html.index('id="b-riichi_rate"')]
    assert "Doi" in deal_in  # never dealt in: the best there is, kept
    assert "Deal-in rate" in html and "0.222" in html and "3400" in html
    # Above what they played, everyone is set aside, named with their hands.
    html = client.get(f"/events/{event.slug}/stats/?min=20").content.decode()
    assert "Fewer than 20 hands" in html and "Baba</a> (9)" in html
    # Issue 32: the page starts from a minimum that fits the event (a fixed 20 hid every
    # player of a short event): half the middle player's 9 hands, and it says so.
    html = client.get(f"/events/{event.slug}/stats/").content.decode()
    assert "Baba</a> (9)" not in html and "at least 4 hands" in html and "usual minimum" in html
    assert "add nothing. Ranked: players with at least 4 hands" in html
    # One sentence in Japanese too: no half-width space before its full-width bracket.
    japanese = client.get(f"/events/{event.slug}/stats/", HTTP_ACCEPT_LANGUAGE="ja")
    assert "ランキング対象：4局以上の選手（この大会の標準" in japanese.content.decode()
    # One line, as Japanese joins sentences: no space between them (helper-48).
    assert "最終点数だけで記録した対局は含みません。ランキング対象：" in japanese.content.decode()
    # Sorted by deal-in rate, lowest first: Baba (0.5) last.
    html = client.get(f"/events/{event.slug}/stats/?min=0&sort=deal_in_rate").content.decode()
    table = html[html.index("Every statistic") :]
    assert table.index("Baba") > table.index("Doi")
    # A bad parameter is the default, not an error.
    assert client.get(f"/events/{event.slug}/stats/?min=lots").status_code == 200


def test_the_boards_read_their_label_and_order_from_the_export_columns(client):
    """One place says which statistics are better lower (exports/statistics.LOWER_IS_BETTER):
    the page's boards sort and name each one as its column does in the table and the files."""
    from tournament.exports.statistics import STATISTIC_COLUMN
    from tournament.views.public.statistics import BOARDS

    lower = {name for name in BOARDS if not STATISTIC_COLUMN[name].best_first}
    assert lower == {"deal_in_rate"}
    event = small_event()
    html = client.get(f"/events/{event.slug}/stats/?min=0").content.decode()
    for name in BOARDS:
        assert f'<h2 id="b-{name}">{STATISTIC_COLUMN[name].label}</h2>' in html
    deal_in = html[html.index('id="b-deal_in_rate"') : html.index('id="b-riichi_rate"')]
    rates = [float(v) for v in re.findall(r'<span class="num">([0-9.]+)</span>', deal_in)]
    assert rates == sorted(rates) and rates[0] == 0  # lowest first: never dealing in is best


@pytest.mark.parametrize(
    ("hands", "least"),
    [([], 0), ([0, 0], 0), ([9] * 4, 4), ([8, 9, 10, 200], 4), ([60] * 8, 20), ([1, 0, 0], 0)],
)
def test_the_fitting_minimum_never_hides_the_middle_player(hands, least):
    from tournament.selectors.statistics import fitting_minimum

    assert fitting_minimum(hands) == least
    played = sorted(h for h in hands if h)
    if played:  # at least half of those who played are ranked
        assert sum(h >= least for h in played) * 2 >= len(played)


def test_the_statistics_page_speaks_japanese(client):
    event = small_event()
    html = client.get(f"/events/{event.slug}/stats/?min=0", HTTP_ACCEPT_LANGUAGE="ja").content
    assert "放銃率" in html.decode()


def test_the_player_page_shows_hand_statistics(client):
    small_event()
    player = Player.objects.get(name="Baba")
    html = client.get(f"/players/{player.pk}/").content.decode()
    assert "Over every event" in html and "Deal-in rate" in html and "0.222" in html


def test_the_statistics_export_in_every_format():
    event = small_event()
    rows = list(csv.reader(io.StringIO(export_statistics(event, "csv").decode())))
    assert rows[0][:5] == ["player", "hands", "wins", "tsumo_wins", "win_rate"]
    baba = next(r for r in rows if r[0] == "Baba")
    assert baba[rows[0].index("deal_in_rate")] == "0.222"
    assert baba[rows[0].index("average_deal_in")] == "3400"
    data = json.loads(export_statistics(event, "json"))
    assert next(p for p in data["statistics"] if p["player"] == "Doi")["average_win"] is None
    assert export_statistics(event, "xlsx")[:2] == b"PK"
