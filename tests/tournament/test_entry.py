"""Result entry through the screens: final scores (sum, preview, busts), hand by hand (the
sheet, undo, the end), both adapting to 3-player and emperor tables; corrections, conflicts,
deletion; and each bad input of RULES.md shown next to its field with nothing saved."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.tournament.factories import PLAYERS, make_event
from tests.tournament.organize_support import logged_in, organizer_for, scores_post, text, url
from tournament.models import AuditEntry, Game, Hand, Seat
from tournament.selectors.standings import event_standings
from tournament.services.games import game_correct
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db


def setup(ruleset: Any = "baba", players: list[str] | None = None, slug: str = "e") -> tuple:
    event = make_event(slug=slug, ruleset=ruleset, players=players or PLAYERS[:8])
    user = organizer_for(event)
    round_seat(event=event, rng=random.Random(11))
    game = Game.objects.filter(round__event=event).order_by("table").first()
    return event, logged_in(user), game


def names(game: Game) -> list[str]:
    return [s.player.name for s in game.seats.select_related("player").order_by("position")]


def totals(event) -> dict[str, float]:
    return {str(r.player): float(r.total) for r in event_standings(event).rows}


# --- final scores --------------------------------------------------------------------------


def test_final_scores_preview_then_save_updates_the_standings():
    event, client, game = setup()
    address = url("game-scores", event.slug, game.pk)
    page = client.get(address)
    assert page.status_code == 200 and 'data-expected="100000"' in text(page)
    data = scores_post(game, [43200, 31000, 18100, 7700])
    preview = client.post(address, {**data, "preview": "1"})
    html = text(preview)
    assert (
        preview.status_code == 200
        and "Preview" in html
        and "+" not in html.split("Preview")[0][-1:]
    )
    assert "43200" in html and not Seat.objects.filter(game=game, rank__isnull=False).exists()
    saved = client.post(address, data)
    assert saved.status_code == 302 and saved["Location"] == url("round-sheet", event.slug, 1)
    game.refresh_from_db()
    assert game.finished and game.version == 2
    first = names(game)[0]
    assert totals(event)[first] > 0
    assert AuditEntry.objects.filter(event=event, action="game.record").exists()


def test_wrong_sum_is_shown_keeps_the_input_and_saves_nothing():
    event, client, game = setup()
    page = client.post(
        url("game-scores", event.slug, game.pk), scores_post(game, [43200, 31000, 18100, 7600])
    )
    html = text(page)
    assert page.status_code == 400
    assert "99900" in html and "100000" in html  # the engine's message, with both sums
    assert 'value="7600"' in html and 'value="43200"' in html  # what was typed is kept
    game.refresh_from_db()
    assert not game.finished and game.version == 1


def test_a_bust_is_entered_per_seat_and_checked():
    event, client, game = setup()
    address = url("game-scores", event.slug, game.pk)
    data = scores_post(game, [61000, 30000, 14000, -5000], bust_3=["0"])
    assert client.post(address, data).status_code == 302
    game.refresh_from_db()
    assert game.busts == [{"seat": 3, "by": [0]}]
    # Claiming a bust for a seat that did not go below zero is refused next to that seat.
    data = scores_post(game, [61000, 30000, 9000, 0], bust_2=["0"])
    page = client.post(address, data)
    assert page.status_code == 400 and "a bust is below 0" in text(page)
    assert 'id="id_bust_2_error"' in text(page) or "bust_2" in text(page)


def test_a_player_twice_in_a_round_is_refused_next_to_the_seat():
    event, client, game = setup()
    other = Game.objects.get(round=game.round, table=2)
    clash = names(other)[0]
    data = scores_post(game, [40000, 30000, 20000, 10000])
    data["seat_2"] = clash
    page = client.post(url("game-scores", event.slug, game.pk), data)
    html = text(page)
    assert page.status_code == 400 and f"{clash} already plays round 1 at table 2" in html
    assert 'id="id_seat_2_error"' in html
    game.refresh_from_db()
    assert not game.finished
    # The same for a table added by hand.
    page = client.post(
        url("game-new", event.slug),
        {
            "round": 1,
            "table": 3,
            "version": "",
            "deposits": 0,
            **{f"seat_{i}": n for i, n in enumerate([clash, "P00", "P01", "P02"])},
            **{f"score_{i}": s for i, s in enumerate([40000, 30000, 20000, 10000])},
        },
    )
    assert page.status_code == 400 and "already plays round 1" in text(page)
    assert not Game.objects.filter(round=game.round, table=3).exists()


def test_two_organizers_saving_the_same_game_get_a_conflict_not_an_overwrite():
    event, client, game = setup()
    address = url("game-scores", event.slug, game.pk)
    first = scores_post(game, [40000, 30000, 20000, 10000])
    second = scores_post(game, [10000, 20000, 30000, 40000])  # typed from the same page load
    assert client.post(address, first).status_code == 302
    page = client.post(address, second)
    html = text(page)
    assert page.status_code == 409
    assert "Someone else saved this table" in html
    assert 'value="40000"' in html and 'name="version" value="2"' in html  # input kept, new base
    game.refresh_from_db()
    assert [s.score for s in game.seats.order_by("position")] == [40000, 30000, 20000, 10000]
    # Saving again, now knowingly, replaces the first save.
    again = {**second, "version": 2}
    assert client.post(address, again).status_code == 302
    game.refresh_from_db()
    assert [s.score for s in game.seats.order_by("position")] == [10000, 20000, 30000, 40000]
    log = AuditEntry.objects.filter(event=event, action="game.correct").first()
    assert log.before["scores"] == [40000, 30000, 20000, 10000]
    audit = text(client.get(url("event-audit", event.slug)))
    east = names(game)[0]
    assert (
        f"Result corrected</strong> — Round 1 table {game.table}: East {east} 40,000 → 10,000"
        in audit
    )
    assert "Before" in audit


def test_delete_a_game_and_the_standings_follow():
    event, client, game = setup()
    client.post(
        url("game-scores", event.slug, game.pk), scores_post(game, [40000, 30000, 20000, 10000])
    )
    top = names(game)[0]
    assert totals(event)[top] > 0
    assert client.get(url("game-delete", event.slug, game.pk)).status_code == 200
    client.post(url("game-delete", event.slug, game.pk))
    assert not Game.objects.filter(pk=game.pk).exists()
    assert totals(event)[top] == 0
    assert AuditEntry.objects.filter(event=event, action="game.remove").exists()


def test_three_player_tables_get_three_seats():
    event, client, game = setup("free-sanma", PLAYERS[:6], slug="sanma")
    assert game.seats.count() == 3
    html = text(client.get(url("game-scores", event.slug, game.pk)))
    assert "score_2" in html and "score_3" not in html
    sheet = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "East" in sheet and "West" in sheet and "North " not in sheet  # English words


# --- hand by hand --------------------------------------------------------------------------


def hand(client, event, game, **fields: Any):
    game.refresh_from_db()
    return client.post(url("game-hands", event.slug, game.pk), {"version": game.version, **fields})


def test_deleting_a_game_in_play_shows_its_scores_after_the_last_hand():
    event, client, game = setup()
    assert hand(client, event, game, type="draw", tenpai=["0"]).status_code == 302
    page = text(client.get(url("game-delete", event.slug, game.pk)))
    live = Hand.objects.get(game=game, number=1).scores
    assert "in play" in page
    for name, score in zip(names(game), live, strict=True):
        assert f"{name}: {score}" in page


def test_posting_a_hand_plays_each_hand_once(monkeypatch):
    """The page replays the table's hands to check the new one against them; the service
    plays the new hand on that flow instead of replaying the game again (issue 16)."""
    from scoring.flow import GameFlow

    event, client, game = setup()
    for _ in range(3):
        assert hand(client, event, game, type="draw", tenpai=["0"]).status_code == 302
    played = []
    real = GameFlow.play

    def counted(self, hand_):
        played.append(hand_)
        return real(self, hand_)

    monkeypatch.setattr(GameFlow, "play", counted)
    assert hand(client, event, game, type="draw", tenpai=["1"]).status_code == 302
    assert len(played) == 3 + 1  # the sheet's three, then the new one
    assert Hand.objects.filter(game=game).count() == 4
    # A hand the engine refuses (1 han 20 fu, when it reads the hand): the sheet's flow was
    # handed over, so the page shows a sheet made again — four hands, as stored.
    played.clear()
    refused = hand(client, event, game, type="tsumo", winner="0", han="1", fu="20")
    assert refused.status_code == 400 and 'id="id_fu_error"' in text(refused)
    assert len(played) == 4 + 4 and Hand.objects.filter(game=game).count() == 4


def test_hand_by_hand_sheet_records_hands_and_undoes_the_last():
    event, client, game = setup()
    page = client.get(url("game-hands", event.slug, game.pk))
    assert page.status_code == 200 and "E1-0" in text(page)
    # East 1: seat 2 rons seat 1 for 3 han 40 fu, seat 0 declared riichi.
    reply = hand(
        client,
        event,
        game,
        type="ron",
        riichi=["0"],
        discarder="1",
        wins_0_seat="2",
        wins_0_han="3",
        wins_0_fu="40",
    )
    assert reply.status_code == 302
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "E2-0" in html and "ron from" in html
    stored = Hand.objects.get(game=game, number=1)
    assert stored.deltas == [-1000, -5200, 6200, 0] and stored.deposits == 0
    # East 2: dealer (seat 1) tsumo 2 han 30 fu: the dealer keeps the deal.
    assert hand(client, event, game, type="tsumo", winner="1", han="2", fu="30").status_code == 302
    assert "E2-1" in text(client.get(url("game-hands", event.slug, game.pk)))
    game.refresh_from_db()
    client.post(url("game-undo", event.slug, game.pk), {"version": game.version})
    assert Hand.objects.filter(game=game).count() == 1
    assert "E2-0" in text(client.get(url("game-hands", event.slug, game.pk)))
    assert AuditEntry.objects.filter(event=event, action="game.undo").exists()


@pytest.mark.parametrize("version", ["", "abc", "-1", "１"])
def test_an_undo_with_a_garbled_version_is_a_conflict_not_a_server_error(version):
    event, client, game = setup()
    assert hand(client, event, game, type="tsumo", winner="1", han="2", fu="30").status_code == 302
    reply = client.post(url("game-undo", event.slug, game.pk), {"version": version}, follow=True)
    assert reply.status_code == 200
    assert Hand.objects.filter(game=game).count() == 1  # nothing taken back


def test_an_impossible_fu_is_refused_next_to_the_fu_field_and_the_buttons_stay_pressed():
    event, client, game = setup()
    page = hand(client, event, game, type="tsumo", winner="0", han="1", fu="20")
    html = text(page)
    assert page.status_code == 400 and 'id="id_fu_error"' in html and "20" in html
    assert re.search(r'name="fu" value="20"[^>]*checked', html)  # kept
    assert re.search(r'name="han" value="1"[^>]*checked', html)
    assert not Hand.objects.filter(game=game).exists()
    page = hand(
        client,
        event,
        game,
        type="ron",
        discarder="1",
        wins_0_seat="2",
        wins_0_han="1",
        wins_0_fu="25",
    )
    assert page.status_code == 400 and 'id="id_wins_0_fu_error"' in text(page)
    # A fu no button offers (a stale or hand-made post) is refused by the form, next to fu.
    page = hand(client, event, game, type="tsumo", winner="0", han="2", fu="35")
    assert page.status_code == 400 and 'id="id_fu_error"' in text(page)


def test_the_form_offers_as_many_ron_winners_as_the_venue_lets_win():
    event, client, game = setup()  # baba: 頭ハネ, one winner
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert 'name="wins_0_seat"' in html and 'name="wins_1_seat"' not in html


def test_a_double_ron_opens_the_second_winner_and_its_error_lands_there():
    event, client, game = setup("jan-niki")  # ダブロン, トリロン
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert 'name="wins_2_seat"' in html and 'name="wins_3_seat"' not in html
    page = hand(
        client,
        event,
        game,
        type="ron",
        discarder="0",
        wins_0_seat="1",
        wins_0_han="2",
        wins_0_fu="30",
        wins_1_seat="2",
        wins_1_han="1",
        wins_1_fu="25",
    )
    html = text(page)
    assert page.status_code == 400 and 'id="id_wins_1_fu_error"' in html
    assert re.search(r'<details class="winner" data-win open>', html)
    assert not Hand.objects.filter(game=game).exists()


def test_the_game_closes_itself_and_refuses_a_hand_after_the_end():
    event, client, game = setup()
    # A yakuman ron from a non-dealer: 32000 takes seat 1 below zero, the game ends (飛び).
    reply = hand(
        client, event, game, type="ron", discarder="1", wins_0_seat="2", wins_0_yakuman="1"
    )
    assert reply.status_code == 302
    game.refresh_from_db()
    assert game.finished
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "The game is over" in html and "Record" not in html
    assert totals(event)[names(game)[2]] > 0  # in the standings at once
    page = client.post(
        url("game-hands", event.slug, game.pk),
        {"version": game.version, "type": "tsumo", "winner": "0", "han": "1", "fu": "30"},
    )
    assert page.status_code == 400 and "already over" in text(page)
    assert Hand.objects.filter(game=game).count() == 1


def test_a_hand_from_a_stale_phone_is_a_conflict_and_keeps_the_input():
    event, client, game = setup()
    stale = game.version
    hand(client, event, game, type="draw", tenpai=["0"])
    mine = {"version": stale, "number": 1, "type": "tsumo", "winner": "3", "han": "4", "fu": "30"}
    page = client.post(url("game-hands", event.slug, game.pk), mine)
    html = text(page)
    assert page.status_code == 409 and "Another phone saved this table first" in html
    assert "They saved hand 1" in html and "Yours, not saved" in html
    assert '<input type="hidden" name="han" value="4">' in html  # kept, for "replace"
    assert Hand.objects.filter(game=game).count() == 1
    # Sent again as it was, it is refused again: never a second hand.
    assert client.post(url("game-hands", event.slug, game.pk), mine).status_code == 409
    game.refresh_from_db()
    replace = {**mine, "version": game.version, "replace": "1"}
    assert client.post(url("game-hands", event.slug, game.pk), replace).status_code == 302
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    assert len(hands) == 1 and hands[0].data["result"]["type"] == "tsumo"


def test_agari_yame_is_offered_only_at_the_last_hand_where_allowed():
    event, client, game = setup("hyper", slug="hy")  # 29: ラス親のアガリ止めあり
    assert "アガリ止め" not in text(client.get(url("game-hands", event.slug, game.pk)))
    for _ in range(7):  # draws with nobody tenpai: the deal passes each time
        assert hand(client, event, game, type="draw").status_code == 302
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "S4-7" in html and "アガリ止め" in html
    # South 4: the dealer (seat 3) wins and stops while on top.
    reply = hand(client, event, game, type="tsumo", winner="3", han="3", fu="30", stop="on")
    assert reply.status_code == 302
    game.refresh_from_db()
    assert game.finished


def test_emperor_sheet_shows_the_emperor_and_takes_card_game_wins():
    event, client, game = setup("emperor", slug="emp")
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert 'name="yaku"' in html and 'name="virtue"' in html and 'name="fu"' not in html
    rules = event.rules
    need = rules.emperor_virtuous[4]
    reply = hand(
        client,
        event,
        game,
        type="tsumo",
        winner="1",
        yaku=str(rules.emperor_min_yaku[4]),
        bonus="1",
        virtue=str(need),
        calls="0",
    )
    assert reply.status_code == 302, text(reply)
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "emperor" in html and "Dynasty" in html
    # Too few yaku for 縛り is refused next to the yaku field.
    page = hand(client, event, game, type="ron", winner="2", discarder="0", yaku="0")
    assert page.status_code == 400 and 'id="id_yaku_error"' in text(page)


def test_final_scores_over_a_hand_game_replace_it_after_a_correction():
    event, client, game = setup()
    hand(client, event, game, type="draw", tenpai=["1"])
    game.refresh_from_db()
    assert game.mode == "hands" and not game.finished
    # Entering final scores for it replaces the hand record (a correction, logged) — once
    # the organizer ticks that it may: unticked, nothing is written (test_scores_over_hands).
    data = scores_post(game, [40000, 30000, 20000, 10000])
    assert client.post(url("game-scores", event.slug, game.pk), data).status_code == 400
    assert game.hands.count() == 1
    data["replace_hands"] = "on"
    assert client.post(url("game-scores", event.slug, game.pk), data).status_code == 302
    game.refresh_from_db()
    assert game.mode == "scores" and game.finished and not game.hands.exists()
    sheet = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "entered by its final scores" in sheet


def test_correcting_a_game_from_the_service_keeps_the_sheet_consistent():
    event, client, game = setup()
    game_correct(
        game=game,
        data={"round": 1, "table": game.table, "seats": names(game), "hands": []},
        expected_version=game.version,
    )
    page = client.get(url("game-hands", event.slug, game.pk))
    assert page.status_code == 200 and "E1-0" in text(page)


def test_emperor_final_scores_have_no_bust_or_yakuman_fields():
    event, client, game = setup("emperor", slug="emp2")
    html = text(client.get(url("game-scores", event.slug, game.pk)))
    assert 'name="score_3"' in html and "yk0_winner" not in html and "bust_0" not in html


def test_a_game_is_only_reachable_through_its_own_event():
    event, client, game = setup()
    other = make_event(slug="other")
    other.organizers.add(*event.organizers.all())
    assert client.get(url("game-scores", other.slug, game.pk)).status_code == 404
    assert client.post(url("game-delete", other.slug, game.pk)).status_code == 404
    assert Game.objects.filter(pk=game.pk).exists()


def test_where_nagashi_is_a_draw_the_form_asks_who_was_tenpai():
    event, client, game = setup(ruleset="tenhou")
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert 'data-for="draw nagashi"' in html
    # East 1: seat 2's nagashi; the dealer (seat 0) tenpai keeps the deal, honba + 1.
    reply = hand(client, event, game, type="nagashi", winners=["2"], tenpai=["0", "2"])
    assert reply.status_code == 302
    stored = Hand.objects.get(game=game, number=1)
    assert stored.data["result"] == {"type": "nagashi", "winners": [2], "tenpai": [0, 2]}
    assert "E1-1" in text(client.get(url("game-hands", event.slug, game.pk)))


def test_where_nagashi_is_a_win_the_form_does_not_ask_tenpai():
    event, client, game = setup(ruleset="baba")
    assert 'data-for="draw nagashi"' not in text(client.get(url("game-hands", event.slug, game.pk)))


def test_where_the_game_stops_by_itself_the_table_is_never_asked():
    event, client, game = setup("tenhou", slug="tn")
    for _ in range(7):  # draws with nobody tenpai: the deal passes each time
        assert hand(client, event, game, type="draw").status_code == 302
    html = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "S4-7" in html and "アガリ止め" not in html
