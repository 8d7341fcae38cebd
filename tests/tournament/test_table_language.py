"""Issue 12, "speak the table's language": one test (or more) per finding, each failing on the
code before it. Finding 1 (errors) is tests/tournament/test_i18n.py."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client
from django.utils import translation

from tests.tournament.organize_support import logged_in, organizer_for, scores_post, text, url
from tests.tournament.test_entry import hand, names, setup
from tournament.i18n import hand_summary
from tournament.models import AuditEntry

pytestmark = pytest.mark.django_db

SEATED = ["青木", "佐藤", "鈴木", "田中"]


def ron_3_40(client, event, game, **extra):
    """East 1: seat 2 rons seat 1 for 3 han 40 fu."""
    return hand(
        client,
        event,
        game,
        type="ron",
        discarder="1",
        wins_0_seat="2",
        wins_0_han="3",
        wins_0_fu="40",
        **extra,
    )


# --- 2. the change log is sentences ----------------------------------------------------------


def test_finding_2_a_hand_entry_keeps_the_hand_not_the_game_twice():
    event, client, game = setup()
    ron_3_40(client, event, game)
    entry = AuditEntry.objects.get(event=event, action="game.hand")
    assert entry.before is None and "hands" not in entry.after
    assert entry.after["hand"]["result"]["discarder"] == 1
    assert entry.after["label"] == "E1-0" and entry.after["number"] == 1


def test_finding_2_the_log_reads_as_sentences_in_japanese():
    event, client, game = setup()
    seated = names(game)
    ron_3_40(client, event, game)
    client.post(url("game-undo", event.slug, game.pk), {"version": 2})
    client.post(url("players-add", event.slug), {"players": "新人"})
    client.cookies["django_language"] = "ja"
    html = text(client.get(url("event-audit", event.slug)))
    assert (
        f"局の取り消し</strong> — 第1回戦 {game.table}卓目 · 東1局 0本場："
        f"{seated[2]} ロン ← {seated[1]} 3翻40符" in html
    )
    assert f"局</strong> — 第1回戦 {game.table}卓目 · 東1局 0本場：{seated[2]} ロン" in html
    assert "選手登録</strong> — 1人：新人" in html
    assert "game.hand" not in html and "event.players" not in html  # actions are words
    assert "registered 1 players" not in html and "{&#x27;" not in html  # no English, no dicts
    assert "&quot;discarder&quot;: 1" in html  # the raw data, as JSON, behind a disclosure


def test_finding_2_a_correction_says_what_changed():
    event, client, game = setup()
    address = url("game-scores", event.slug, game.pk)
    client.post(address, scores_post(game, [32000, 30000, 20000, 18000]))
    client.post(address, scores_post(game, [35000, 27000, 20000, 18000], version=2))
    seated = names(game)
    client.cookies["django_language"] = "ja"
    html = text(client.get(url("event-audit", event.slug)))
    assert (
        f"結果修正</strong> — 第1回戦 {game.table}卓目：東 {seated[0]} 32,000 → 35,000、"
        f"南 {seated[1]} 30,000 → 27,000"
    ) in html
    assert f"結果入力</strong> — 第1回戦 {game.table}卓目：東 {seated[0]} 32,000" in html


def test_finding_2_entries_written_before_still_read():
    event, client, _ = setup()
    AuditEntry.objects.create(
        event=event,
        action="game.hand",
        summary="round 1 table 1: hand 1",
        after={
            "round": 1,
            "table": 1,
            "seats": SEATED,
            "hands": [{"result": {"type": "tsumo", "winner": 0, "han": 2, "fu": 30}}],
        },
    )
    html = text(client.get(url("event-audit", event.slug)))
    assert "Round 1 table 1 · hand 1: 青木 tsumo, 2 han 30 fu" in html


# --- 4. the hand log in the reader's language -----------------------------------------------


@pytest.mark.parametrize(
    ("data", "english", "japanese"),
    [
        ({"result": {"type": "draw", "tenpai": []}}, "Draw, all noten", "流局（全員ノーテン）"),
        (
            {"riichi": [0], "result": {"type": "draw", "tenpai": [0, 2]}},
            "[riichi 青木] Draw, tenpai: 青木, 鈴木",
            "［立直 青木］流局（聴牌 青木、鈴木）",
        ),
        (
            {"result": {"type": "ron", "discarder": 2, "wins": [{"seat": 1, "han": 3, "fu": 40}]}},
            "佐藤 ron from 鈴木, 3 han 40 fu",
            "佐藤 ロン ← 鈴木 3翻40符",
        ),
        (
            {"result": {"type": "tsumo", "winner": 3, "yakuman": 2, "pao": 0}},
            "田中 tsumo, 2× yakuman (pao: 青木)",
            "田中 ツモ 役満×2（責任払い 青木）",
        ),
    ],
)
def test_finding_4_hand_summaries_speak_the_page_language(data, english, japanese):
    with translation.override("en"):
        assert hand_summary(data, SEATED) == english
    with translation.override("ja"):
        assert hand_summary(data, SEATED) == japanese


# --- 3. a venue screen; the page's status, width and tie at the cut ----------------------------


@pytest.fixture
def demo(capsys):
    from django.core.management import call_command

    call_command("load_demo")
    capsys.readouterr()
    return Client()


@pytest.fixture
def finished_demo(demo):
    """The demo's day played to its end (it loads mid-final): the champion decided."""
    from tests.tournament.factories import finish_demo_final

    finish_demo_final()
    return demo


def flat(response) -> str:
    """The page with the whitespace around tags taken out (template indentation)."""
    return re.sub(r"\s*([<>])\s*", r"\1", text(response))


def test_finding_3_the_venue_screen_has_every_column_and_every_row(demo):
    page = text(demo.get("/events/baba-demo/"))
    assert 'href="/events/baba-demo/screen/"' in page and '<main class="wide">' in page
    # Every stage (`?stage=`, its Overall tab): the plain address shows the stage being played
    # (issue 43), after the day the final's four.
    screen = demo.get("/events/baba-demo/screen/?stage=")
    html = flat(screen)
    assert screen.status_code == 200 and 'class="screen"' in html
    assert '<header class="site">' not in html  # nothing but the standings
    for header in ["Status", "Avg. rank", "4th", "R6", "R8"]:
        assert f">{header}<" in html
    assert html.count('<td class="player">') == 16 and "pagination" not in html
    assert 'data-interval="5"' in html and "screen.js" in html
    # The table alone, for the screen's own refresh.
    fetched = demo.get("/events/baba-demo/screen/?stage=qualifier", HTTP_X_REQUESTED_WITH="fetch")
    assert "<html" not in text(fetched) and text(fetched).count('<td class="player">') == 16


def test_finding_3_status_comes_right_after_the_total(demo):
    html = flat(demo.get("/events/baba-demo/"))
    head = html[html.index("<thead") : html.index("</thead>")]
    order = [head.index(h) for h in (">Rank<", ">Player<", ">Total<", ">Status<", ">Games<")]
    assert order == sorted(order)


def test_finding_2_an_import_reads_in_japanese(demo):
    from tournament.models import Event

    event = Event.objects.get(slug="baba-demo")
    from tests.tournament.organize_support import logged_in, organizer_for

    client = logged_in(organizer_for(event))
    html = text(client.get(url("event-audit", event.slug), headers={"accept-language": "ja"}))
    assert "取り込み</strong> — 16人、26対局" in html and "青木、" in html


def test_finding_3_a_tie_at_the_cut_says_how_it_was_broken(demo):
    html = text(demo.get("/events/baba-demo/?stage=qualifier"))
    assert "Qualifier cut:" in html and "both have 53.7" in html and "on top rate" in html
    ja = text(demo.get("/events/baba-demo/", headers={"accept-language": "ja"}))
    assert "予選の通過ライン：" in ja and "トップ率で" in ja


def test_finding_8_the_first_tap_on_total_sorts_best_first(finished_demo):
    html = text(finished_demo.get("/events/baba-demo/?sort=total"))
    totals = re.findall(r'<td class="player">.*?</td><td class="num">(-?\d+\.\d)</td>', html)
    first = [float(t) for t in totals[:3]]
    assert first == sorted(first, reverse=True) and first[0] == 146.8


# --- 6. correct it the way it was entered; the end said once -----------------------------------


def test_finding_6_final_scores_of_a_hand_game_start_from_its_hands():
    event, client, game = setup()
    ron_3_40(client, event, game, riichi=["0"])
    html = text(client.get(url("game-scores", event.slug, game.pk)))
    # E1: 鈴木 (seat 2) 3 han 40 fu from seat 1 (5,200) and seat 0's riichi stick.
    for position, score in enumerate([24000, 19800, 31200, 25000]):
        assert re.search(rf'name="score_{position}" value="{score}"', html)
    assert 'name="deposits" value="0"' in html


def test_finding_6_a_bust_ends_the_game_with_its_result_said_once():
    event, client, game = setup()
    reply = hand(
        client, event, game, type="ron", discarder="1", wins_0_seat="2", wins_0_yakuman="1"
    )
    page = client.get(reply["Location"])
    html = text(page)
    seated = names(game)
    assert html.count("The game is over") == 1
    assert f"South {seated[1]} busted (by West {seated[2]})" in html
    assert f"<td>West {seated[2]}</td><td>57000</td><td>1</td>" in html


# --- 7. exports that open right ---------------------------------------------------------------


def test_finding_7_downloads_follow_the_selected_stage(demo):
    page = text(demo.get("/events/baba-demo/?stage=qualifier"))
    assert 'href="/events/baba-demo/standings.csv?stage=qualifier"' in page
    overall = demo.get(url("standings-export", "baba-demo", "csv")).content.decode()
    qualifier = demo.get(url("standings-export", "baba-demo", "csv") + "?stage=qualifier")
    rows = list(csv.reader(io.StringIO(qualifier.content.decode())))
    assert "baba-demo-qualifier-standings.csv" in qualifier["Content-Disposition"]
    assert rows[0][5:12] == ["r1", "r2", "r3", "r4", "r5", "r6", "status"]  # its rounds only
    # The qualifier ranks on rounds 1-6: 松本's 53.7 is 5th there, 西村 (53.7, more tops) 4th.
    assert [r[1] for r in rows[4:6]] == ["西村", "松本"] and rows[5][11] == "qualifier"
    assert not overall.startswith("\ufeff")  # the CONTRACT §2 file: plain UTF-8


def test_finding_7_the_xlsx_says_statuses_in_words_in_the_readers_language(finished_demo):
    from openpyxl import load_workbook

    def sheet(**headers):
        book = finished_demo.get(url("standings-export", "baba-demo", "xlsx"), **headers).content
        sheet = load_workbook(io.BytesIO(book)).active
        heads = [c.value for c in sheet[1]]
        return sheet.title, heads, [[c.value for c in row] for row in sheet.iter_rows(min_row=2)]

    title, heads, rows = sheet()
    assert title == "Standings" and heads[:6] == [
        "Rank",
        "Player",
        "Total",
        "Games",
        "Top rate",
        "R1",
    ]
    english = [row[heads.index("Status")] for row in rows]
    assert english[:2] == ["Champion", "Finalist"] and english[-1] == "Out at the cut"
    assert "qualifier" not in english
    # Issue 32: the Japanese file is Japanese to its headings (the CSV keeps the CONTRACT keys).
    title, heads, rows = sheet(headers={"accept-language": "ja"})
    assert title == "順位表" and heads[:6] == [
        "順位",
        "選手",
        "合計",
        "半荘数",
        "トップ率",
        "1回戦",
    ]
    assert not [h for h in heads if re.search("[A-Za-z]", h)]
    japanese = [row[heads.index("状況")] for row in rows]
    assert japanese[0] != "Champion" and "qualifier" not in japanese


# --- 8. smaller -----------------------------------------------------------------------------


def test_finding_8_each_language_is_named_in_its_own_words(client):
    html = text(client.get("/", headers={"accept-language": "ja"}))
    assert '<option value="en" lang="en">English</option>' in html and "英語" not in html
    assert '<option value="ja" lang="ja" selected>日本語</option>' in html


# --- 5. fast, fitted entry (taps are counted in tests/browser/test_fast_entry.py) -------------


def _form(html: str, name: str) -> list[str]:
    """The values of the buttons (radios or checkboxes) named `name`, in page order."""
    return re.findall(rf'<input type="(?:radio|checkbox)" name="{name}" value="([^"]*)"', html)


def test_finding_5_han_and_fu_are_buttons_and_seats_are_names():
    event, client, game = setup()
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert _form(html, "wins_0_han") == [str(h) for h in range(1, 14)]
    assert _form(html, "wins_0_fu") == [str(f) for f in (20, 25, *range(30, 111, 10))]
    assert _form(html, "wins_0_yakuman")[:2] == ["1", "2"]
    assert _form(html, "discarder") == ["0", "1", "2", "3"]
    assert f"North {names(game)[3]}" in html  # a seat button says wind and name (in English)
    assert 'type="number"' not in html  # nothing typed on a phone's number pad
    assert re.search(r'name="type" value="ron"[^>]*checked', html)  # most hands are a ron
    assert 'name="wins_1_seat"' not in html  # 頭ハネ: one winner


def test_finding_5_free_sanma_asks_no_fu():
    event, client, game = setup("free-sanma", players=["一", "二", "三", "四", "五", "六"])
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert _form(html, "wins_0_han") and not _form(html, "wins_0_fu") and not _form(html, "fu")
    assert _form(html, "discarder") == ["0", "1", "2"]
    reply = hand(client, event, game, type="ron", discarder="1", wins_0_seat="2", wins_0_han="2")
    assert reply.status_code == 302


def test_finding_5_the_emperor_fields_have_hints_and_the_minimum():
    event, client, game = setup("emperor")
    client.cookies["django_language"] = "ja"
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "縛り：4人なら4役以上、鳴き1回ごとに+1" in html
    assert "3以上で有徳" in html and "1役500点" in html
    client.cookies["django_language"] = "en"
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "At least 4 with 4 players" in html


# --- 8. smaller things ------------------------------------------------------------------------


def test_finding_8_a_game_sheet_shows_only_the_prizes_its_venue_pays(demo):
    from tournament.models import Game

    def headers(slug: str) -> list[str]:
        game = Game.objects.filter(round__event__slug=slug, finished=True).first()
        html = flat(demo.get(url("game-detail", slug, game.pk), headers={"accept-language": "en"}))
        return re.findall(r'<th scope="col">([^<]+)</th>', html.split("</table>")[0])

    assert headers("baba-demo")[-1] == "Bust"  # a bust prize, and no chips
    assert "Prizes" not in headers("baba-demo") and "Chips" not in headers("baba-demo")
    assert headers("jan-niki-league")[-2:] == ["Bust", "Prizes"]  # 飛び賞 and yakuman chips
    assert headers("hyper-club-night")[-1] == "Oka"  # pays neither


def test_finding_8_withdraw_asks_first(demo):
    from tournament.models import Entry, Event

    event = Event.objects.get(slug="jan-niki-league")
    entry = Entry.objects.filter(event=event).select_related("player").first()
    client = logged_in(organizer_for(event))
    page = text(client.get(url("event-manage", event.slug)))
    assert f'href="{url("player-withdraw", event.slug, entry.pk)}"' in page  # a link, not a POST
    asked = client.get(url("player-withdraw", event.slug, entry.pk))
    assert asked.status_code == 200 and f"Withdraw {entry.player.name}?" in text(asked)
    entry.refresh_from_db()
    assert not entry.withdrawn  # asking changed nothing
    client.post(url("player-withdraw", event.slug, entry.pk), {"withdrawn": "1"})
    entry.refresh_from_db()
    assert entry.withdrawn


def test_finding_8_the_player_page_says_where_they_finished_and_their_places_in_words(demo):
    from tournament.models import Event
    from tournament.selectors.standings import event_standings

    event = Event.objects.get(slug="baba-demo")
    rows = event_standings(event).rows
    row = next(r for r in rows if r.status == "qualifier")  # out at the cut
    player = event.entries.get(player__name=row.player).player
    html = flat(demo.get(url("player-detail", player.pk), headers={"accept-language": "en"}))
    assert f"<dd>{row.rank} of {len(rows)}" in html and "Out at the cut" in html
    firsts = row.rank_counts.get(1, 0)
    assert f"<dt>1st</dt><dd>{firsts}</dd>" in html and "1: " not in html
    html = flat(demo.get(url("player-detail", player.pk), headers={"accept-language": "ja"}))
    assert f"{len(rows)}人中{row.rank}位" in html


def test_finding_8_one_player_registered_is_singular():
    event, client, _ = setup()
    reply = client.post(url("players-add", event.slug), {"players": "新人"}, follow=True)
    assert "1 player registered." in text(reply)


@pytest.mark.parametrize(
    ("action", "before", "after", "english", "japanese"),
    [
        ("clock.minutes", None, {"round_minutes": 1}, "1 minute per round", "1回戦 1 分"),
        ("clock.minutes", None, {"round_minutes": 90}, "90 minutes per round", "1回戦 90 分"),
        ("clock.minutes", None, {"round_minutes": 0}, "no round clock", "回戦の時計なし"),
        (
            "clock.start",
            None,
            {"round": 3, "minutes": 90},
            "Round 3: the clock started (90 minutes)",
            "第3回戦：時計開始（90 分）",
        ),
        (
            "clock.extra",
            None,
            {"round": 2, "table": 4, "minutes": 5},
            "Round 2 table 4: 5 extra minutes",
            "第2回戦 4卓目：5 分延長",
        ),
        (
            "table.link",
            None,
            {"round": 2, "table": 4},
            "Round 2 table 4: a new link (the old one no longer opens it)",
            "第2回戦 4卓目：新しいリンク（古いリンクでは開けません）",
        ),
    ],
)
def test_every_settings_change_reads_as_a_sentence_in_both_languages(
    action, before, after, english, japanese
):
    from tournament.auditlog import entry_sentence

    entry = AuditEntry(action=action, summary="the stored English", before=before, after=after)
    with translation.override("en"):
        assert entry_sentence(entry) == english
    with translation.override("ja"):
        assert entry_sentence(entry) == japanese


def test_the_abortive_draws_are_named_in_the_reader_s_language():
    """helper-52: an English hand form offered 九種九牌, 四風連打, 四開槓 as its reasons. Every
    abortive draw the engine knows has a label; English words in English, the Japanese term in
    Japanese — on the form's buttons and in a hand's summary."""
    from scoring.knobs import ABORT_NAMES
    from tournament.i18n import ABORT_LABELS

    assert set(ABORT_LABELS) == set(ABORT_NAMES)
    with translation.override("ja"):
        assert {k: str(v) for k, v in ABORT_LABELS.items()} == ABORT_NAMES
    event, client, game = setup(ruleset="tenhou")
    english = text(
        client.get(url("game-hands", event.slug, game.pk), headers={"accept-language": "en"})
    )
    assert "Nine terminals and honours" in english and "九種九牌" not in english
    japanese = text(
        client.get(url("game-hands", event.slug, game.pk), headers={"accept-language": "ja"})
    )
    assert "九種九牌" in japanese and "Nine terminals" not in japanese
    data = {"riichi": [], "result": {"type": "abort", "reason": "kyuushu"}}
    with translation.override("en"):
        assert hand_summary(data, names(game)) == "Abortive draw (Nine terminals and honours)"
    with translation.override("ja"):
        assert hand_summary(data, names(game)) == "途中流局（九種九牌）"
