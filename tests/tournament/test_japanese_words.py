"""Issue 43, words: a venue ran a whole Baba day in Japanese and met codes and English — a
stage closed as 「qualifier を締め切りました」, an error headed 「scores:」, the change log's
「teams.set — 4 teams, sum」, the admin's "CREATED AT" and its "Change" translated 切替, an
ASCII 「?」 ending the undo question, a table page with two inputs of one id, an XLSX with
Excel's default widths."""

from __future__ import annotations

import ast
import gettext
import io
import random
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from tests.tournament.factories import make_event, scores_game
from tests.tournament.organize_support import logged_in, organizer_for, scores_post, text, url
from tests.tournament.test_entry import setup
from tests.tournament.test_organize import finish_round
from tests.tournament.test_table_trust import bust, prove, seated
from tournament.auditlog import ACTIONS, entry_sentence
from tournament.exports.formats import display_width
from tournament.exports.standings import export_standings
from tournament.models import AuditEntry
from tournament.services.rounds import round_seat
from tournament.services.teams import teams_set

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
JA = {"accept-language": "ja"}
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def test_closing_a_stage_says_its_label_not_its_code():
    event = make_event(slug="baba", format="baba", players=[f"P{i:02d}" for i in range(8)])
    stage = event.stages.get(position=0)
    stage.first_round, stage.last_round, stage.advance = 1, 1, 4
    stage.save()
    round_seat(event=event, rng=random.Random(5))
    finish_round(event, 1)
    client = logged_in(organizer_for(event))
    closed = text(client.post(url("stage-action", "baba", 0, "close"), headers=JA, follow=True))
    assert event.stages.get(position=0).closed
    assert "予選を締め切りました" in closed and "qualifier" not in closed
    opened = text(client.post(url("stage-action", "baba", 0, "reopen"), follow=True))
    assert "The Qualifier is open again." in opened


def test_an_error_the_form_has_no_field_for_is_headed_by_words_not_its_path():
    event, client, game = setup()
    address = url("game-scores", event.slug, game.pk)
    wrong = scores_post(game, [43200, 31000, 18100, 7600])  # 99,900: the sum is off
    ja = text(client.post(address, wrong, headers=JA))
    assert "点数：合計が" in ja and "scores:" not in ja
    en = text(client.post(address, wrong))
    assert "Score: " in en and "scores:" not in en


def test_every_action_a_service_records_has_words_in_the_change_log():
    recorded = set()
    for path in (ROOT / "tournament").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
                "change_record",
                "_logged",
            ):
                values = [k.value for k in node.keywords if k.arg == "action"] + node.args[2:3]
                recorded |= {
                    v.value
                    for v in values
                    if isinstance(v, ast.Constant) and isinstance(v.value, str)
                }
    assert {"teams.set", "penalty.give", "series.create"} <= recorded  # the scan reads them
    assert recorded - set(ACTIONS) == set()


def test_the_change_log_says_the_teams_set_in_words_in_either_language():
    players = ["東 一", "東 二", "西 一", "西 二"]
    event = make_event(slug="teams", players=players)
    organizer = organizer_for(event)
    teams_set(event=event, teams={"東": players[:2], "西": players[2:]}, rule="best", best=1)
    entry = AuditEntry.objects.get(event=event, action="teams.set")
    page = text(logged_in(organizer).get(url("event-audit", "teams"), headers=JA))
    with translation.override("ja"):
        said = entry_sentence(entry)
    assert said in page and "teams.set" not in page and "チーム設定" in page
    assert "2チーム" in said and "東、西" in said and "1" in said
    with translation.override("en"):
        assert entry_sentence(entry).startswith("2 teams: 東, 西 · ")


def test_the_admin_reads_in_japanese_its_fields_and_its_change_link():
    admin = get_user_model().objects.create_superuser("root", "r@example.com", "pw")
    event = make_event(slug="adm")
    teams_set(event=event, teams={"A": ["P00", "P01"]})
    client = logged_in(admin)
    listing = text(client.get("/admin/tournament/auditentry/", headers=JA))
    assert "作成日時" in listing and "created at" not in listing.lower()
    assert "チーム設定" in listing and ">teams.set<" not in listing  # the rows and the filter
    index = text(client.get("/admin/", headers=JA))
    assert "変更" in index and "切替" not in index  # Django's own word, not our language switch
    site = text(client.get("/", headers=JA))
    assert "切替" in site  # the language switch keeps its word


def test_every_model_field_has_its_japanese():
    missing = []
    for model in apps.get_app_config("tournament").get_models():
        for field in model._meta.get_fields():
            if not field.concrete or field.auto_created:
                continue
            with translation.override("ja"):
                japanese = str(field.verbose_name)
            if not CJK.search(japanese):
                missing.append(f"{model.__name__}.{field.name}: {japanese}")
    assert missing == []


def test_the_undo_question_ends_with_the_reader_s_question_mark():
    event, client, game = setup(slug="undo")
    client.post(
        url("game-hands", event.slug, game.pk),
        {"version": 1, "number": 1, "type": "ron", "discarder": "2", "wins_0_seat": "3"}
        | {"wins_0_han": "3", "wins_0_fu": "30"},
    )
    ja = text(client.get(url("game-hands", event.slug, game.pk), headers=JA))
    assert re.search(r"</strong>？</p>", ja)
    en = text(client.get(url("game-hands", event.slug, game.pk)))
    assert re.search(r"</strong>\?</p>", en)


def test_no_japanese_sentence_uses_an_ascii_question_mark():
    catalog = ROOT / "tournament/locale/ja/LC_MESSAGES/django.mo"
    with catalog.open("rb") as mo:
        japanese = gettext.GNUTranslations(mo)._catalog.values()  # type: ignore[attr-defined]
    assert [s for s in japanese if CJK.search(s) and "?" in s] == []


class Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs).get("id")
        if found:
            self.ids[found] += 1


def test_the_table_page_waiting_for_a_second_seat_uses_each_id_once():
    # The confirm form and the dispute form under it each had an input `id_code`.
    _event, game, link = seated()
    phone = Client()
    prove(phone, link, 1)
    bust(phone, link, game)
    page = text(Client().get(f"/t/{link.token}/"))
    assert 'name="reason"' in page and 'value="confirm"' in page  # both forms are there
    parser = Ids()
    parser.feed(page)
    assert [i for i, n in parser.ids.items() if n > 1] == []
    assert 'for="id_dispute_code"' in page and 'id="id_dispute_code"' in page


def test_the_xlsx_columns_are_as_wide_as_their_cells_cjk_counted_twice():
    from openpyxl import load_workbook

    names = ["長谷川 真理子", "Bo", "山田 一", "李 明"]
    event = make_event(slug="wide", players=names)
    scores_game(event, 1, 1, names, [43200, 31000, 18100, 7700])
    with translation.override("ja"):
        sheet = load_workbook(io.BytesIO(export_standings(event, "xlsx"))).active
    heads = {cell.value: cell.column_letter for cell in sheet[1]}
    player = sheet.column_dimensions[heads["選手"]].width
    assert display_width("長谷川 真理子") == 13  # six kanji twice, a space once
    assert player >= 13
    assert sheet.column_dimensions[heads["順位"]].width < player
    for letter in heads.values():  # every column set, none left at Excel's default
        assert sheet.column_dimensions[letter].width >= 4


def test_lists_in_a_japanese_sentence_are_joined_with_the_japanese_comma():
    event = make_event(slug="list", players=["山田", "佐藤", "鈴木", "高橋"])
    scores_game(event, 1, 1, ["山田", "佐藤", "鈴木", "高橋"], [40000, 30000, 20000, 10000])
    entry = AuditEntry.objects.get(event=event, action="game.record")
    with translation.override("ja"):
        assert "東 山田 40,000、南 佐藤 30,000" in entry_sentence(entry)
    with translation.override("en"):
        assert "East 山田 40,000, South 佐藤 30,000" in entry_sentence(entry)


def test_no_two_actions_read_alike_in_either_language():
    # The admin filters the log by these words: two actions said alike could not be told apart.
    for language in ("ja", "en"):
        with translation.override(language):
            said = Counter(str(words) for words in ACTIONS.values())
        assert [w for w, n in said.items() if n > 1] == [], language
