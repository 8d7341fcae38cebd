"""Issue 13: a table enters its own result through its link (CONTRACT §3); another seat
confirms before it counts; the organizer approves or settles a dispute; bad links and wrong
codes get a clear answer and nothing else."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, organizer_for, text, url
from tournament.models import AuditEntry, Game, TableLink
from tournament.models.games import CODE_ALPHABET
from tournament.selectors.standings import event_standings
from tournament.selectors.tables import table_states
from tournament.services.rounds import round_seat
from tournament.services.tables import table_link_renew
from tournament.services.throttle import LIMITS

pytestmark = pytest.mark.django_db


def seated(table_entry: str = "tables", players: int = 8):
    event = make_event(slug="t", players=[f"P{i:02d}" for i in range(players)])
    event.table_entry = table_entry
    event.save()
    round_seat(event=event, rng=random.Random(3))
    games = list(Game.objects.filter(round__event=event).order_by("table"))
    return event, games


def live(game: Game) -> TableLink:
    return game.links.get(revoked_at__isnull=True)


def as_seat(client: Client, link: TableLink, seat: int) -> None:
    """The phone proves its seat with the code on that seat's slip."""
    reply = client.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[seat]})
    assert reply.status_code in (302, 410), reply.status_code


def bust_ron(client: Client, link: TableLink, game: Game):
    """A yakuman ron from seat 1 to seat 2: seat 1 goes below zero, the game is over."""
    game.refresh_from_db()
    return client.post(
        f"/t/{link.token}/",
        {
            "do": "hand",
            "version": game.version,
            "type": "ron",
            "discarder": "1",
            "wins_0_seat": "2",
            "wins_0_yakuman": "1",
        },
    )


def seat_names(game: Game) -> list[str]:
    return [s.player.name for s in game.seats.select_related("player").order_by("position")]


def games_played(event) -> int:
    return sum(r.games for r in event_standings(event).rows)


def test_seating_gives_each_table_a_link_a_code_and_a_code_per_seat():
    _, games = seated()
    links = [live(g) for g in games]
    assert len({lk.token for lk in links}) == len(games) == 2
    for link in links:
        assert len(link.token) >= 22  # at least 128 bits, URL-safe
        assert re.fullmatch(f"[{CODE_ALPHABET}]{{6}}", link.code)
        assert len(set(link.seat_codes)) == 4


def test_a_typed_code_opens_its_table_and_wrong_codes_are_counted():
    _, games = seated()
    client = Client()
    link = live(games[1])
    reply = client.post("/t/", {"code": f" {link.code.lower()[:3]}-{link.code.lower()[3:]} "})
    assert reply.status_code == 302 and reply["Location"] == f"/t/{link.token}/"
    for _ in range(LIMITS["code", "phone"]):
        assert client.post("/t/", {"code": "ZZZZZZ"}).status_code == 400
    refused = client.post("/t/", {"code": link.code})  # even the right one, for a while
    assert refused.status_code == 429 and "15 minutes" in text(refused)
    assert int(refused["Retry-After"]) > 0
    # Another phone on the same network is not stopped by this one's guesses.
    other = Client().post("/t/", {"code": link.code})
    assert other.status_code == 302


def test_refused_codes_leave_no_session_rows_and_a_phone_is_still_counted_as_itself():
    # Issue 44: every cookie-less try at /t/ made a session row (307 rows from 307 tries).
    _, games = seated()
    link = live(games[0])
    for _ in range(5):
        assert Client().post("/t/", {"code": "ZZZZZZ"}).status_code == 400
    assert Session.objects.count() == 0
    # A phone that keeps its cookies is stopped by its own count, still without a session.
    phone = Client()
    for _ in range(LIMITS["code", "phone"]):
        assert phone.post("/t/", {"code": "ZZZZZZ"}).status_code == 400
    assert phone.post("/t/", {"code": link.code}).status_code == 429
    assert Session.objects.count() == 0
    assert Client().post("/t/", {"code": link.code}).status_code == 302
    # A forged cookie is no phone id: the try gets one of its own.
    forged = Client()
    forged.cookies["table-code-phone"] = "0" * 32
    assert forged.post("/t/", {"code": "ZZZZZZ"}).status_code == 400
    assert forged.cookies["table-code-phone"].value.split(":")[0] != "0" * 32


def test_the_table_records_hands_as_itself_and_the_log_says_at_which_table():
    event, games = seated()
    client = Client()
    link = live(games[0])
    page = client.get(f"/t/{link.token}/")
    assert page.status_code == 200 and "Which seat are you?" in text(page)
    as_seat(client, link, 3)
    game = games[0]
    reply = client.post(
        f"/t/{link.token}/",
        {
            "do": "hand",
            "version": game.version,
            "type": "tsumo",
            "winner": "0",
            "han": "2",
            "fu": "30",
        },
    )
    assert reply.status_code == 302
    assert game.hands.count() == 1 and games[1].hands.count() == 0  # only its own table
    playing = table_states(event)[1][0]
    assert (playing.state, playing.label) == ("playing", "E1-1")  # the dealer won: renchan
    entry = AuditEntry.objects.filter(action="game.hand").get()
    assert (entry.at_table, entry.at_seat, entry.user) == (game.table, 3, None)
    organizer = logged_in(organizer_for(event))
    log = text(organizer.get(url("event-audit", event.slug)))
    assert f"at table {game.table} (North)" in log


def test_a_result_waits_for_another_seat_then_counts():
    event, games = seated()
    game, client = games[0], Client()
    link = live(game)
    as_seat(client, link, 2)
    assert bust_ron(client, link, game).status_code == 302
    game.refresh_from_db()
    assert game.confirmation == "waiting" and not game.finished and game.submitted_seat == 2
    assert games_played(event) == 0  # not in the standings yet
    page = text(client.get(f"/t/{link.token}/"))
    assert "waits for another seat" in page
    # The seat that entered it cannot confirm it, nor can the phone it was entered on; a
    # wrong code is refused.
    other = Client()
    reply = other.post(f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[2]})
    assert reply.status_code == 400 and "another seat" in text(reply)
    reply = client.post(f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[0]})
    assert reply.status_code == 400 and "another seat&#x27;s own phone" in text(reply)
    reply = other.post(f"/t/{link.token}/", {"do": "confirm", "code": "AAAAAA"})
    assert reply.status_code == 400 and "not the code of a seat" in text(reply)
    game.refresh_from_db()
    assert game.confirmation == "waiting" and games_played(event) == 0
    reply = other.post(f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[0]})
    assert reply.status_code == 302
    game.refresh_from_db()
    assert game.finished and game.confirmation == ""
    assert games_played(event) == 4  # four seats, one game each
    # Over: the link is closed; the phone that held a seat here reads "confirmed" (issue 47).
    assert Client().get(f"/t/{link.token}/").status_code == 410
    reply = client.get(f"/t/{link.token}/")
    assert reply.status_code == 200 and "Result confirmed" in text(reply)


def test_a_dispute_goes_to_the_organizer_who_approves():
    event, games = seated()
    game, client = games[0], Client()
    link = live(game)
    as_seat(client, link, 2)
    bust_ron(client, link, game)
    reply = client.post(
        f"/t/{link.token}/", {"do": "dispute", "code": link.seat_codes[1], "reason": "it was 2 han"}
    )
    assert reply.status_code == 302
    game.refresh_from_db()
    assert game.confirmation == "disputed" and game.dispute == "it was 2 han"
    organizer = logged_in(organizer_for(event))
    dashboard = text(organizer.get(url("event-manage", event.slug)))
    assert 'data-state="disputed"' in dashboard
    assert "it was 2 han" in text(organizer.get(url("game-hands", event.slug, game.pk)))
    # The approval carries the version the page showed: without one, it approves nothing.
    organizer.post(url("game-approve", event.slug, game.pk))
    game.refresh_from_db()
    assert not game.finished and games_played(event) == 0
    organizer.post(url("game-approve", event.slug, game.pk), {"version": game.version})
    game.refresh_from_db()
    assert game.finished and games_played(event) == 4


def test_bad_links_answer_clearly_and_never_open_another_table():
    _event, games = seated()
    client = Client()
    old = live(games[0])
    assert client.get("/t/not-a-real-token/").status_code == 404
    table_link_renew(game=games[0])
    reply = client.get(f"/t/{old.token}/")
    assert reply.status_code == 410 and "replaced" in text(reply)
    new = live(games[0])
    assert new.token != old.token and client.get(f"/t/{new.token}/").status_code == 200
    as_seat(client, old, 0)  # a revoked link changes nothing
    assert client.post(f"/t/{old.token}/", {"do": "hand", "type": "draw"}).status_code == 410
    assert games[0].hands.count() == 0


def test_an_organizer_event_shows_the_table_but_takes_no_entry():
    _, games = seated(table_entry="organizers")
    client = Client()
    link = live(games[0])
    page = text(client.get(f"/t/{link.token}/"))
    assert "entered by the organizers" in page and 'name="type"' not in page
    as_seat(client, link, 0)
    bust_ron(client, link, games[0])
    assert games[0].hands.count() == 0


@pytest.mark.parametrize("players", [8, 32])
def test_the_tables_states_cost_three_queries_whatever_the_number(players):
    event, games = seated(players=players)
    client = Client()
    link = live(games[0])
    as_seat(client, link, 2)
    bust_ron(client, link, games[0])
    event.refresh_from_db()
    with CaptureQueriesContext(connection) as captured:
        _number, states = table_states(event)
    assert len(captured) == 3
    assert [s.state for s in states][:2] == ["waiting", "not_started"]
    assert len(states) == players // 4


def test_an_event_of_final_scores_has_tables_enter_their_final_scores():
    event, games = seated()
    organizer = logged_in(organizer_for(event))
    organizer.post(
        url("table-entry", event.slug), {"table_entry": "tables", "table_mode": "scores"}
    )
    game, client = games[0], Client()
    link = live(game)
    as_seat(client, link, 0)
    page = text(client.get(f"/t/{link.token}/"))
    assert 'name="score_0"' in page and 'name="type"' not in page
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    post = {"do": "scores", "version": game.version, "deposits": "0"}
    for i, (name, score) in enumerate(zip(names, [40000, 30000, 20000, 10000], strict=True)):
        post.update({f"seat_{i}": name, f"score_{i}": str(score)})
    bad = client.post(f"/t/{link.token}/", {**post, "score_3": "9000"})
    assert bad.status_code == 400 and games_played(event) == 0
    assert client.post(f"/t/{link.token}/", post).status_code == 302
    game.refresh_from_db()
    assert game.confirmation == "waiting" and games_played(event) == 0
    Client().post(f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[3]})
    game.refresh_from_db()
    assert game.finished and games_played(event) == 4


def test_two_phones_saving_the_same_hand_get_the_conflict_screen():
    _, games = seated()
    game = games[0]
    link = live(game)
    first, second = Client(), Client()
    for phone, seat in ((first, 0), (second, 1)):
        as_seat(phone, link, seat)
    hand = {"do": "hand", "version": game.version, "number": 1, "type": "draw", "tenpai": ["0"]}
    assert first.post(f"/t/{link.token}/", hand).status_code == 302
    other = {**hand, "tenpai": ["1"]}  # typed on the other phone from the same version
    reply = second.post(f"/t/{link.token}/", other)
    page = text(reply)
    assert reply.status_code == 409 and "Another phone saved this table first" in page
    # The other phone's hand is shown (not just the scores), and this one's as typed.
    names = seat_names(game)
    assert f"They saved hand 1 (E1-0): <strong>Draw, tenpai: {names[0]}" in page
    assert f"Yours, not saved: <strong>Draw, tenpai: {names[1]}" in page
    assert game.hands.count() == 1
    # Saving the stale form again, as the old screen invited, still adds nothing.
    assert second.post(f"/t/{link.token}/", other).status_code == 409
    assert game.hands.count() == 1


def _replace_form(page: str) -> dict[str, list[str]]:
    """The fields of the conflict screen's "replace" form, as the browser would send them."""
    form = page[page.index('<section class="card warning conflict"') :]
    form = form[form.index("<form") : form.index("</form>")]
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(r'name="([^"]+)" value="([^"]*)"', form):
        fields.setdefault(name, []).append(value)
    return fields


def test_the_conflict_screen_replaces_the_last_hand_with_mine_in_one_step():
    event, games = seated()
    game = games[0]
    link = live(game)
    first, second = Client(), Client()
    as_seat(first, link, 0)
    as_seat(second, link, 1)
    hand = {"do": "hand", "version": game.version, "number": 1, "type": "draw", "tenpai": ["0"]}
    first.post(f"/t/{link.token}/", hand)
    reply = second.post(f"/t/{link.token}/", {**hand, "tenpai": ["1"]})
    fields = _replace_form(reply.content.decode())
    assert fields["do"] == ["replace"] and fields["tenpai"] == ["1"]
    assert second.post(f"/t/{link.token}/", fields).status_code == 302
    assert [h.data["result"]["tenpai"] for h in game.hands.order_by("number")] == [[1]]
    actions = list(
        AuditEntry.objects.filter(event=event).order_by("pk").values_list("action", flat=True)
    )
    assert actions[-3:] == ["game.hand", "game.undo", "game.hand"]
    # The same replacement sent twice (a double tap) is done once; a stale one is refused.
    assert second.post(f"/t/{link.token}/", fields).status_code == 302
    assert game.hands.count() == 1
    first.post(f"/t/{link.token}/", {**hand, "version": game_version(game), "number": 2})
    stale = second.post(f"/t/{link.token}/", {**fields, "tenpai": ["2"]})
    assert stale.status_code == 409 and game.hands.count() == 2


def game_version(game: Game) -> int:
    game.refresh_from_db()
    return game.version


def test_undo_asks_first_and_says_what_it_took_back():
    _, games = seated()
    game = games[0]
    link = live(game)
    phone = Client()
    as_seat(phone, link, 0)
    hand = {"do": "hand", "version": game.version, "number": 1, "type": "draw", "tenpai": ["0"]}
    phone.post(f"/t/{link.token}/", hand)
    page = text(phone.get(f"/t/{link.token}/"))
    assert "Take back hand 1 (E1-0):" in page and "Yes, take it back" in page
    reply = phone.post(
        f"/t/{link.token}/", {"do": "undo", "version": game_version(game)}, follow=True
    )
    said = f"Hand 1 (E1-0: Draw, tenpai: {seat_names(game)[0]}) is taken back."
    assert said in text(reply)
    assert game.hands.count() == 0


def test_guessing_links_never_stops_a_valid_link():
    _, games = seated()
    link = live(games[0])
    client = Client()
    for i in range(LIMITS["link", "address"]):
        assert client.get(f"/t/guess-{i}/").status_code == 404
    stopped = client.get("/t/guess-again/")
    assert stopped.status_code == 429 and int(stopped["Retry-After"]) > 0
    # The same address, the same phone: a real link still opens.
    assert client.get(f"/t/{link.token}/").status_code == 200


def test_the_dashboard_keeps_showing_open_tables_of_earlier_rounds():
    event, _games = seated()
    organizer = logged_in(organizer_for(event))
    anyway = {"method": "random", "shortfall": "", "while_unfinished": "on"}
    assert organizer.post(url("round-new", event.slug), anyway).status_code == 302
    number, states = table_states(event)
    assert number == 2
    assert [(s.game.round.number, s.game.table) for s in states] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    page = text(organizer.get(url("event-manage", event.slug)))
    assert "Round 1" in page and "still open" in page


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_game_s_public_sheet_says_its_result_waits_or_is_disputed_not_in_progress(language):
    """helper-48: a played-out game waiting for a second seat read "in progress" on its public
    sheet while the table's phones said it waited for confirmation. helper-51: a seated table
    with no hand read "in progress" (対局中) while the standings said "take your seats" — a
    status is what was recorded: nothing entered yet, then a hand, then the result."""
    event, games = seated()
    game, client = games[0], Client()
    link = live(game)
    as_seat(client, link, 2)
    sheet = url("game-detail", event.slug, game.pk)
    words = {
        "en": ("nothing entered yet", "in progress", "waiting for confirmation", "disputed"),
        "ja": ("未入力", "対局中", "確認待ち", "異議あり"),
    }[language]

    rounds = url("round-detail", event.slug, game.round.number)

    def status() -> str:
        page = text(Client().get(sheet, headers={"accept-language": language}))
        said = re.search(r'<span class="live-note">([^<]+)</span>', page).group(1)
        # The round's page says the same of the table (helper-49 saw 対局中 there).
        listed = text(Client().get(rounds, headers={"accept-language": language}))
        card = listed[listed.index(f"/games/{game.pk}/") :]
        assert re.search(r'<span class="badge live-badge">([^<]+)</span>', card).group(1) == said
        return said

    assert status() == words[0]
    first = {"do": "hand", "version": game.version, "type": "tsumo", "winner": "0"}
    assert client.post(f"/t/{link.token}/", {**first, "han": "2", "fu": "30"}).status_code == 302
    assert status() == words[1]
    # A game in play heads its scores as what they are so far, not as its result (helper-52).
    sheet_page = text(Client().get(sheet, headers={"accept-language": language}))
    so_far = {"en": "<caption>Scores so far</caption>", "ja": "<caption>現在の点数</caption>"}
    assert so_far[language] in sheet_page
    bust_ron(client, link, game)
    assert status() == words[2]
    client.post(f"/t/{link.token}/", {"do": "dispute", "code": link.seat_codes[1], "reason": "x"})
    assert status() == words[3]


def test_the_organizers_score_sheet_leads_to_the_tables_link():
    """The dashboard's table opens its score sheet; a table entering its own results gets its
    link and seat codes from the round's sheet, which the score sheet points to."""
    event, games = seated()
    organizer = logged_in(organizer_for(event))
    sheet = text(organizer.get(url("game-hands", event.slug, games[1].pk)))
    where = f"{url('round-sheet', event.slug, 1)}#table-{games[1].table}"
    assert f'href="{where}"' in sheet
    round_sheet = text(organizer.get(url("round-sheet", event.slug, 1)))
    assert f'id="table-{games[1].table}"' in round_sheet and live(games[1]).code in round_sheet
    event.table_entry = "organizers"
    event.save()
    assert "#table-" not in text(organizer.get(url("game-hands", event.slug, games[1].pk)))


@pytest.mark.parametrize(
    "language, prompt",
    [
        ("en", 'Scan, or type this code at <strong translate="no">testserver/t/</strong>:'),
        (
            "ja",
            "QRコードを読み取るか、"
            '<strong translate="no">testserver/t/</strong> でこのコードを入力：',
        ),
    ],
)
def test_the_round_sheet_says_where_to_type_a_table_s_code_in_the_reader_s_order(language, prompt):
    """The printed sheet's prompt names the address inside the sentence, so Japanese puts it
    where Japanese does (it read 「読み取るか、次の場所でこのコードを入力 host/t/:」)."""
    event, games = seated()
    organizer = logged_in(organizer_for(event))
    sheet = organizer.get(url("round-sheet", event.slug, 1), headers={"accept-language": language})
    assert sheet.content.decode().count(prompt) == len(games)


def test_the_venue_screen_says_a_round_waits_for_confirmation_once_every_table_has_played():
    """The walk of 2026-11-30: the screen said "Round 8 in progress" while the final's result
    waited for a second seat. Once every table has played out and a result waits, the room is
    told so; a table still playing keeps "in progress"; every result confirmed: done."""
    event, games = seated()
    phones = [Client() for _ in games]
    for phone, game in zip(phones, games, strict=True):
        as_seat(phone, live(game), 0)

    def heading(language: str = "en") -> str:
        page = text(
            Client().get(f"/events/{event.slug}/screen/", headers={"accept-language": language})
        )
        return re.search(r'<p class="meta">(.*?)<span class="page-of"', page, re.S).group(1)

    assert bust_ron(phones[0], live(games[0]), games[0]).status_code == 302
    assert "Round 1 in progress" in heading()
    assert "Round 1 in progress" in text(Client().get(f"/events/{event.slug}/"))
    assert bust_ron(phones[1], live(games[1]), games[1]).status_code == 302
    assert "Round 1: every table has played, waiting for confirmation" in heading()
    assert "第1回戦：全卓終局・結果の確認待ち" in heading("ja")
    assert "in progress" not in heading()
    # The standings say the same (a second walk found "Round 8 in progress" there).
    standings = text(Client().get(f"/events/{event.slug}/"))
    assert "Round 1: every table has played, waiting for confirmation" in standings
    assert "Round 1 in progress" not in standings
    for game in games:  # each by another seat's own phone
        link = live(game)
        reply = Client().post(f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[3]})
        assert reply.status_code == 302
    assert "Round 1: every table has finished" in heading()
