"""Issue 32: a Japanese reader meets no English. A crawler follows every link of the site in
Japanese — as the organizer and as a table's phone, over the demo tournament and a Tenhou day
in the middle of its first round (hands entered, a table waiting, a table disputed, a penalty
and a bonus, teams, a season) — and reads every page's text and every download. Outside names
(players, events, seasons, venues) and the CONTRACT keys of the CSV and JSON files, any word in
Latin letters fails the test, unless it is in ALLOWED: brands and formats a Japanese page
writes as they are. No page uses an element id twice (issue 43: the table's phone had two
`id_code` inputs)."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from collections import Counter
from html.parser import HTMLParser
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import Resolver404, resolve

from scoring import PRESETS
from tests.tournament.factories import signed_up
from tournament.models import Event, Game, Player, Series, SignUp, TableLink, Venue
from tournament.services.events import event_create, event_table_entry_set
from tournament.services.penalties import penalty_give
from tournament.services.profiles import entry_profile_set
from tournament.services.registration import registration_set
from tournament.services.rounds import round_seat
from tournament.services.series import series_add_event, series_create
from tournament.services.tables import game_dispute
from tournament.services.teams import teams_set

pytestmark = pytest.mark.django_db

# Words a Japanese page may write in Latin letters: file formats, the brands of rulesets and
# sites, and units. Kept short: each is a word a Japanese venue writes this way itself.
ALLOWED = {
    *("CSV", "XLSX", "JSON", "Excel", "API", "QR", "URL", "ID"),
    *("XML", "mjlog"),  # the Tenhou log's file type, as the import page names it
    "EMA",  # the European Mahjong Association, as Japanese pages write it (EMAルール)
    *("Discord", "Slack", "Telegram"),  # the chat services of the organizer's channels
}
# CONTRACT §2 and §4: the keys of the CSV and JSON downloads and their status codes.
CONTRACT_WORDS = {"champion", "finalist", "qualifier", "tie"}
CONTRACT_WORDS.add("JP")  # a profile's country, its ISO 3166-1 code (the EMA's file: CSV, JSON)
# CONTRACT §8: a sign-up's state, as the entrants' CSV and JSON keep it (the XLSX says it).
CONTRACT_WORDS |= {"registered", "waiting", "pending"}

SKIP_PREFIXES = ("/admin/", "/i18n/", "/accounts/logout/", "/static/", "/api/")
PER_KIND = 3  # pages of one kind (one URL name, one set of query keys) read at most
JAPANESE = {"accept-language": "ja"}
WORD = re.compile(r"[A-Za-z]+")
SITE = re.compile(r"[\w.-]+\.(?:net|com|jp|org)\b")  # tenhou.net: an address, not a word
# An address shown in words (the venue screen's "find your seat" beside its QR code), broken
# after its slashes: a URL, read as one — the channels' too (tgram://ボットのトークン/…).
ADDRESS = re.compile(r"(?:https?|discord|slack|tgram|mailtos?)://\S+(?:\s+[^\s/]*/)*")
HEADERS = [f"{a}{b}" for a in "東南西北" for b in "一二"]


class PageText(HTMLParser):
    """What a reader sees: text outside scripts and styles, and the words of titles, labels,
    placeholders and buttons; an element in another language (lang="en") is its own, and data
    shown as stored (the change log's `<pre translate="no">`, the codes of a round's sheet) is
    the CONTRACT's keys or codes."""

    SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.links: list[str] = []
        self.skipping: list[str] = []
        self.ids: Counter[str] = Counter()  # two elements of one id: a label names the wrong one

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids[a["id"] or ""] += 1
        if tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")
        void = tag in ("input", "img", "br", "meta", "link", "source", "col", "hr", "wbr")
        # Shown as stored, never translated (translate="no"): the change log's JSON, a
        # table's or a seat's code (BKDM7H is no English word).
        raw = a.get("translate") == "no"
        if not void and (tag in ("script", "style") or raw or (a.get("lang") or "ja") != "ja"):
            self.skipping.append(tag)
        if self.skipping:
            return
        self.parts += [a[k] or "" for k in self.SHOWN_ATTRIBUTES if a.get(k)]
        if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
            self.parts.append(a["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def _japanese_day() -> list[str]:
    """A Tenhou event in Japanese in its first round: one table mid-game, one waiting for a
    second seat, one disputed; a penalty; and a season of it. Returns the tables' links."""
    names = [
        f"{s}{g}" for s in ("山田", "佐藤", "鈴木", "高橋") for g in ("一郎", "花子", "健", "真央")
    ]
    event = event_create(name="春の天鳳杯", ruleset="tenhou", players=names)
    event_table_entry_set(event=event, table_entry="tables", table_mode="hands")
    round_seat(event=event, rng=random.Random(3))
    games = list(Game.objects.filter(round__event=event).order_by("table"))
    links = [g.links.get(revoked_at__isnull=True) for g in games]
    for k, (game, link) in enumerate(zip(games[:3], links[:3], strict=True)):
        phone = Client(headers=JAPANESE)
        phone.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[0]})
        hands = 1 if k == 0 else 2  # table 1 plays on; 2 and 3 end on a yakuman and a bust
        for number in range(1, hands + 1):
            game.refresh_from_db()
            post = {"do": "hand", "version": game.version, "number": number, "type": "ron"}
            post.update({"discarder": "2", "wins_0_seat": "3"})
            post.update({"wins_0_yakuman": "1"} if number > 1 else {"wins_0_han": "3"})
            post.update({"wins_0_fu": "" if number > 1 else "30"})
            assert phone.post(f"/t/{link.token}/", post).status_code == 302
    games[2].refresh_from_db()
    game_dispute(link=links[2], code=links[2].seat_codes[1], reason="点数が違う")
    penalty_give(event=event, player=names[5], points=-10, reason="遅刻", round_number=1)
    penalty_give(event=event, player=names[6], points=5, reason="マナー賞")
    teams_set(event=event, teams={"東チーム": names[:4], "西チーム": names[4:8]}, rule="sum")
    # A profile (issue 48): the dashboard shows its country and EMA number.
    entry = event.entries.select_related("player", "event").get(player__name=names[0])
    entry_profile_set(entry=entry, profile={"ema": "04090012", "country": "JP"})
    season = series_create(name="天鳳リーグ 2026")
    series_add_event(series=season, slug=event.slug)
    return [link.token for link in links]


def _signing_up() -> list[str]:
    """An event taking sign-ups in Japanese (issue 50): one registered, two on the waiting
    list, one waiting for approval (e-mail addresses of digits: an address, not a word).
    Returns the private links, the organizer's list and the public form start the walk."""
    event = event_create(name="秋の申込杯", players=["森一郎", "森二郎", "森三郎"])
    registration_set(event=event, open=True, capacity=4)
    signups = [
        signed_up(event, name, f"{k}@example.org", language="ja")
        for k, name in enumerate(("田中一郎", "伊藤花子", "渡辺健"), start=101)
    ]
    registration_set(event=event, approval=True)
    signups.append(signed_up(event, "小林真央", "104@example.org"))
    base = f"/events/{event.slug}/"
    pages = [f"{base}register/", f"{base}register/sent/"]  # issue 63: check your mail
    return [*pages, *(f"{base}register/{s.token}/" for s in signups)]


def _names() -> list[str]:
    """Every name a page may show, longest first (so 山田一郎 goes before 山田)."""
    names = [
        *Player.objects.values_list("name", flat=True),
        *SignUp.objects.values_list("name", flat=True),
        *Event.objects.values_list("name", flat=True),
        *Series.objects.values_list("name", flat=True),
        *Venue.objects.values_list("name", flat=True),
        *Event.objects.values_list("slug", flat=True),
        *Series.objects.values_list("slug", flat=True),
        *[n for r in PRESETS.values() for n in (r.name, *r.names.values())],
        *get_user_model().objects.values_list("username", flat=True),
    ]
    return sorted({n for n in names if n}, key=len, reverse=True)


def _english(text: str, names: list[str], allowed: set[str]) -> list[str]:
    """Each word outside names and `allowed`, with the text around it (to find it by)."""
    for name in names:
        text = text.replace(name, " ")
    text = re.sub(r"\s+", " ", SITE.sub(" ", ADDRESS.sub(" ", text)))
    return [
        f"{m.group()}: …{text[max(0, m.start() - 20) : m.end() + 20]}…"
        for m in WORD.finditer(text)
        if m.group() not in allowed
    ]


def _download_words(path: str, body: bytes) -> tuple[str, set[str]]:
    """The text of a download and the words it may hold: XLSX is read as a person reads it
    (every word in Japanese); CSV and JSON keep the CONTRACT keys."""
    path = urlsplit(path).path
    if path.endswith(".xlsx"):
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(body))
        cells = [str(c) for s in book for row in s.iter_rows(values_only=True) for c in row if c]
        return " ".join([*book.sheetnames, *cells]), ALLOWED
    text = body.decode("utf-8-sig")
    if path.endswith(".csv"):
        rows_ = list(csv.reader(io.StringIO(text)))
        keys = rows_[0] if rows_ else []
        if [] in rows_:  # a heading's `key,value` lines, an empty line, the table's keys (EMA)
            blank = rows_.index([])
            keys = [row[0] for row in rows_[:blank]] + rows_[blank + 1]
    else:
        data = json.loads(text)
        rows = [r for value in data.values() if isinstance(value, list) for r in value]
        heading = [k for value in data.values() if isinstance(value, dict) for k in value]
        keys = [*data, *heading, *(k for r in rows for k in r), "null", "true", "false"]  # syntax
    allowed = ALLOWED | CONTRACT_WORDS | {w for k in keys for w in WORD.findall(k)}
    return text, allowed


def _kind(path: str) -> str:
    parts = urlsplit(path)
    try:
        name = resolve(parts.path).url_name or parts.path
    except Resolver404:
        return ""
    keys = sorted(k.split("=")[0] for k in parts.query.split("&") if k)
    return f"{name}?{'&'.join(keys)}"


def crawl(client: Client, start: list[str], names: list[str]) -> tuple[dict[str, list[str]], int]:
    """Every page reachable from `start` (all of `start`, PER_KIND of a kind beyond) → its
    English words."""
    found: dict[str, list[str]] = {}
    seen: set[str] = set()
    kinds: Counter[str] = Counter()
    queue = list(start)
    read = 0
    while queue:
        path = queue.pop(0)
        kind = _kind(path)
        if path in seen or not kind or (kinds[kind] >= PER_KIND and path not in start):
            continue
        seen.add(path)
        kinds[kind] += 1
        response = client.get(path, headers=JAPANESE)
        assert response.status_code < 500, path
        if response.status_code != 200:
            continue
        read += 1
        kind_of_body = response.get("Content-Type", "")
        if kind_of_body.startswith("text/html"):
            parser = PageText()
            parser.feed(response.content.decode())
            words = _english(" ".join(parser.parts), names, ALLOWED)
            words += [f"id used twice: {i}" for i, n in parser.ids.items() if n > 1]
            for href in parser.links:
                target = urlsplit(urljoin(path, href))
                if target.netloc or not target.path.startswith("/"):
                    continue
                if target.path.startswith(SKIP_PREFIXES):
                    continue
                # A page links an event of Japanese name by its address escaped (%E6%98%A5…):
                # read as the path it names, or the walk never enters that event's pages.
                queue.append(unquote(target.path) + (f"?{target.query}" if target.query else ""))
        else:
            text, allowed = _download_words(path, response.content)
            words = _english(text, names, allowed)
        if words:
            found[path] = sorted(set(words))
    return found, read


def test_every_page_and_download_reads_in_japanese(capsys):
    call_command("load_demo")
    capsys.readouterr()
    tokens = _japanese_day()
    signing_up = _signing_up()
    names = _names()
    admin = get_user_model().objects.create_superuser("管理者", "a@example.com", "pw")
    organizer = Client()
    organizer.force_login(admin)
    events = [f"/events/{slug}/" for slug in Event.objects.values_list("slug", flat=True)]
    sheets = [  # the Tenhou day's tables on the organizer's score sheet: hands, waiting, disputed
        f"/events/{link.game.round.event.slug}/manage/games/{link.game_id}/hands/"
        for link in TableLink.objects.filter(token__in=tokens).select_related("game__round__event")
    ]
    start = ["/", *events, *[f"{e}manage/" for e in events], *sheets, "/t/", "/series/new/"]
    found, read = crawl(organizer, [*start, *signing_up], names)
    # A table's phone, with a seat proved, and the public reader.
    phone = Client()
    link = TableLink.objects.get(token=tokens[0])
    phone.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[1]}, headers=JAPANESE)
    more, read_more = crawl(phone, [f"/t/{t}/" for t in tokens], names)
    public, read_public = crawl(Client(), ["/", *events, "/accounts/login/", *signing_up], names)
    assert read + read_more + read_public > 80  # the walk reached the site, not one page
    assert {**found, **more, **public} == {}


# Issue 43: the words that decide (CONTRACT §2) — a page's badge class or its Japanese — and
# the moments of a Baba day at which each may first be read.
DECIDING = {
    "qualifier": ("決勝進出", "予選敗退", "status-finalist", "status-qualifier", "status-tie"),
    "final": ("status-champion",),
}
BABA_MOMENTS = [  # baba_day's arguments, and which stages are played out by then
    ({"played": 1}, set()),
    ({"played": 5, "seat_next": True}, set()),  # before the qualifier's last game
    ({"played": 6}, {"qualifier"}),
    ({"played": 8, "undo": 1}, {"qualifier"}),  # the final's last hand
    ({"played": 8}, {"qualifier", "final"}),
]


def _decided_early(path: str, body: bytes, kind: str, decided: set[str]) -> list[str]:
    """The deciding words of stages still being played that `body` holds: in a page's text
    and classes, or a download's status column."""
    early = [w for stage, words in DECIDING.items() if stage not in decided for w in words]
    if kind.startswith("text/html"):
        text = body.decode()
        return [f"{w} on {path}" for w in early if w in text]
    path = urlsplit(path).path
    codes = {"qualifier": {"finalist", "qualifier", "tie"}, "final": {"champion"}}
    codes_early = {c for stage, c_ in codes.items() if stage not in decided for c in c_}
    if path.endswith(".csv"):
        rows = csv.DictReader(io.StringIO(body.decode("utf-8-sig")))
        statuses = {row.get("status") for row in rows}
    elif path.endswith(".json"):
        data = json.loads(body)
        statuses = {r.get("status") for v in data.values() if isinstance(v, list) for r in v}
    else:
        return []
    return [f"status {s} in {path}" for s in statuses & codes_early]


def test_a_baba_day_reads_in_japanese_and_decides_nothing_early():
    """The whole Baba day (16 players, qualifier 1–6, final 7–8) at five moments, read in
    Japanese as the organizer and as the public: no Latin word outside names and CONTRACT keys,
    and no word that decides a stage — finalist, out at the cut, a tie to settle, champion — on
    the event's pages, venue screen or downloads while that stage's games remain."""
    from tests.tournament.factories import baba_day

    admin = get_user_model().objects.create_superuser("管理者", "a@example.com", "pw")
    early: list[str] = []
    english: dict[str, list[str]] = {}
    for k, (moment, decided) in enumerate(BABA_MOMENTS):
        event = baba_day(slug=f"馬場の日-{k}", **moment)
        names = _names()
        base = f"/events/{event.slug}/"
        pages = [base, f"{base}screen/", f"{base}standings/live/", f"{base}seat/"]
        downloads = [f"{base}standings.{fmt}" for fmt in ("csv", "json", "xlsx")]
        organizer = Client()
        organizer.force_login(admin)
        found, _read = crawl(organizer, [*pages, f"{base}manage/", *downloads], names)
        public, _read = crawl(Client(), [*pages, *downloads], names)
        english.update(found)
        english.update(public)
        for path in [*pages, f"{base}?stage=qualifier", f"{base}?stage=final", *downloads]:
            for reader in (organizer, Client()):
                response = reader.get(path, headers=JAPANESE)
                assert response.status_code == 200, path
                kind = response.get("Content-Type", "")
                early += _decided_early(path, response.content, kind, decided)
        api = Client().get(f"/api/v1/events/{event.slug}/standings")
        early += _decided_early("standings.json", api.content, "application/json", decided)
    assert early == []
    assert english == {}
