"""Organizer screens end to end through Django's test client: rights, event set-up, seating,
stages. (Result entry is in test_entry.py.)"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from django.test import Client

from scoring.seating import meetings, repeats, seat
from tests.tournament.factories import PLAYERS, make_event
from tests.tournament.organize_support import (
    logged_in,
    make_user,
    organizer_for,
    scores_post,
    text,
    url,
)
from tournament.models import AuditEntry, Entry, Event, Game, Player, SitOut
from tournament.selectors.standings import event_standings
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    """An event with round 1 seated (two tables) and its organizer."""
    event = make_event(slug="club")
    user = organizer_for(event)
    round_seat(event=event, rng=random.Random(1))
    return event, user


def organizer_urls(event: Event) -> list[tuple[str, str, dict]]:
    game = Game.objects.filter(round__event=event).order_by("table").first()
    entry = event.entries.first()
    s = event.slug
    return [
        ("get", url("event-manage", s), {}),
        ("post", url("players-add", s), {"players": "Newcomer"}),
        ("post", url("player-withdraw", s, entry.pk), {"withdrawn": "1"}),
        ("post", url("round-new", s), {"method": "random"}),
        ("get", url("round-sheet", s, 1), {}),
        ("post", url("round-unseat", s, 1), {}),
        ("post", url("stage-action", s, 0, "close"), {}),
        ("get", url("game-new", s), {}),
        ("post", url("game-new", s), {}),
        ("get", url("game-scores", s, game.pk), {}),
        ("post", url("game-scores", s, game.pk), {}),
        ("get", url("game-hands", s, game.pk), {}),
        ("post", url("game-hands", s, game.pk), {}),
        ("post", url("game-undo", s, game.pk), {}),
        ("get", url("game-delete", s, game.pk), {}),
        ("post", url("game-delete", s, game.pk), {}),
        ("get", url("event-audit", s), {}),
        ("post", url("game-approve", s, game.pk), {}),
        ("post", url("table-link-new", s, game.pk), {}),
        ("get", url("table-states", s), {}),
        ("post", url("table-entry", s), {"table_entry": "tables"}),
        ("post", url("game-feature", s, game.pk), {}),
        ("post", url("game-unfeature", s), {}),
        ("post", url("round-minutes", s), {"round_minutes": "60"}),
        ("post", url("round-clock", s, 1), {}),
        ("post", url("game-extra", s, game.pk), {"minutes": "5"}),
        ("get", url("penalties", s), {}),
        (
            "post",
            url("penalties", s),
            {"player": entry.player.name, "kind": "penalty", "points": "1", "reason": "x"},
        ),
    ]


# What a referee may do (results); the rest of organizer_urls is the organizers' alone.
REFEREE_NAMES = {
    "event-manage",
    "round-sheet",
    "game-new",
    "game-scores",
    "game-hands",
    "game-undo",
    "game-approve",
    "table-link-new",
    "table-states",
    "event-audit",
    "penalties",
    "round-clock",
    "game-extra",
}


def test_every_organizer_view_refuses_visitors_and_other_users(seated):
    event, _organizer = seated
    stranger = logged_in(make_user("stranger"))
    anonymous = Client()
    for method, address, data in organizer_urls(event):
        page = getattr(anonymous, method)(address, data)
        assert page.status_code == 302 and page["Location"].startswith("/accounts/login/?next="), (
            address
        )
        assert getattr(stranger, method)(address, data).status_code == 403, address
    # Nothing the refused requests asked for happened.
    assert not Player.objects.filter(name="Newcomer").exists()
    assert not Entry.objects.filter(event=event, withdrawn=True).exists()
    assert event.rounds.count() == 1 and Game.objects.filter(round__event=event).count() == 2


def test_every_organizer_view_answers_its_organizers_and_admins(seated):
    event, organizer = seated
    admin = make_user("admin", is_superuser=True, is_staff=True)
    for user in (organizer, admin):
        client = logged_in(user)
        for method, address, _data in organizer_urls(event):
            if method == "get":
                assert client.get(address).status_code == 200, address
    # An organizer of another event has no right here.
    other = make_event(slug="other")
    assert logged_in(organizer).get(url("event-manage", other.slug)).status_code == 403


def test_every_post_needs_the_csrf_token(seated):
    event, organizer = seated
    client = logged_in(organizer, enforce_csrf_checks=True)
    for method, address, data in organizer_urls(event):
        if method == "post":
            assert client.post(address, data).status_code == 403, address
    assert client.post(url("event-new"), {"name": "x"}).status_code == 403
    assert event.rounds.count() == 1 and not Player.objects.filter(name="Newcomer").exists()


def test_log_in_and_out():
    make_user("kana")
    client = Client()
    page = client.post(url("login"), {"username": "kana", "password": "wrong"})
    assert page.status_code == 200 and "errorlist" in text(page)
    page = client.post(url("login"), {"username": "kana", "password": "pw"})
    assert page.status_code == 302
    assert "kana" in text(client.get("/"))
    client.post(url("logout"))
    assert "kana" not in text(client.get("/"))


def test_the_log_in_page_answers_at_the_address_typed_from_memory():
    """helper-51 typed /login/ and met a 404: it leads to the log-in, keeping where to go."""
    page = Client().get("/login/?next=/events/")
    assert page.status_code == 302 and page["Location"] == url("login") + "?next=/events/"


def test_create_an_event_from_a_preset_with_a_pasted_list():
    Player.objects.create(name="Aoki")
    user = make_user("host")
    client = logged_in(user)
    assert client.get(url("event-new")).status_code == 403  # needs the right to create events
    user.user_permissions.add(
        __import__("django.contrib.auth.models", fromlist=["Permission"]).Permission.objects.get(
            codename="add_event"
        )
    )
    client = logged_in(user)
    form = text(client.get(url("event-new")))
    assert "preset:free-sanma" in form
    page = client.post(
        url("event-new"),
        {
            "name": "Autumn cup",
            "slug": "autumn",
            "rules": "preset:jan-niki",
            "format": "league",
            "players": "Aoki\nBaba, Chiba\tDoi\n\n",
        },
    )
    assert page.status_code == 302 and page["Location"] == url("event-manage", "autumn")
    assert "Known from earlier events, reused (not a new player): Aoki." in text(
        client.get(page["Location"])
    )
    event = Event.objects.get(slug="autumn")
    assert event.rules.slug == "jan-niki" and user in event.organizers.all()
    names = sorted(event.entries.values_list("player__name", flat=True))
    assert names == ["Aoki", "Baba", "Chiba", "Doi"]
    assert Player.objects.filter(name="Aoki").count() == 1  # known names are reused


def test_event_form_keeps_what_was_typed_on_error():
    make_event(slug="taken")
    client = logged_in(make_user("root", is_superuser=True))
    page = client.post(
        url("event-new"),
        {
            "name": "Again",
            "slug": "taken",
            "rules": "preset:baba",
            "format": "league",
            "players": "Ueda",
        },
    )
    html = text(page)
    assert page.status_code == 400 and "exists already" in html
    assert 'value="Again"' in html and "Ueda" in html
    assert Event.objects.count() == 1


def test_register_and_withdraw_players(seated):
    event, organizer = seated
    client = logged_in(organizer)
    client.post(url("players-add", event.slug), {"players": "P01\nNew One"})
    assert event.entries.count() == 9
    entry = event.entries.get(player__name="New One")
    client.post(url("player-withdraw", event.slug, entry.pk), {"withdrawn": "1"})
    entry.refresh_from_db()
    assert entry.withdrawn
    assert AuditEntry.objects.filter(event=event, action="event.withdraw").exists()
    client.post(url("player-withdraw", event.slug, entry.pk), {"withdrawn": "0"})
    entry.refresh_from_db()
    assert not entry.withdrawn


def test_round_one_seats_everyone_once_with_winds(seated):
    event, _ = seated
    games = list(Game.objects.filter(round__event=event).prefetch_related("seats"))
    seated_players = [s.player_id for g in games for s in g.seats.all()]
    assert len(games) == 2 and len(seated_players) == len(set(seated_players)) == 8
    for g in games:
        assert sorted(s.position for s in g.seats.all()) == [0, 1, 2, 3] and not g.finished


def test_random_seating_keeps_apart_players_who_met():
    players = [f"p{i}" for i in range(16)]
    rng = random.Random(7)
    history: dict = {}
    for _ in range(2):  # four rounds of 16 can be played with nobody meeting twice
        tables = seat(players, 4, "random", history=history, rng=rng, tries=200)
        assert repeats(tables, history) == 0
        for key, count in meetings(tables).items():
            history[key] = history.get(key, 0) + count
    # Eight players: the best a second round can do is two pairs meeting again per table.
    eight = players[:8]
    first = seat(eight, 4, "random", rng=rng)
    second = seat(eight, 4, "random", history=meetings(first), rng=rng)
    assert repeats(second, meetings(first)) == 4


def finish_round(event: Event, number: int) -> None:
    """Final scores for every table of a round, better seats scoring more."""
    for game in Game.objects.filter(round__event=event, round__number=number):
        from tournament.services.games import game_correct

        seats = list(game.seats.select_related("player").order_by("position"))
        game_correct(
            game=game,
            data={
                "round": number,
                "table": game.table,
                "seats": [s.player.name for s in seats],
                "scores": [40000, 30000, 20000, 10000][: len(seats)],
            },
            expected_version=game.version,
        )


def test_seating_by_standings_puts_the_top_four_together(seated):
    event, organizer = seated
    client = logged_in(organizer)
    page = client.post(url("round-new", event.slug), {"method": "standings"})
    assert page.status_code == 400 and "round 1 table 1 is not finished" in text(page)
    finish_round(event, 1)
    page = client.post(url("round-new", event.slug), {"method": "standings"})
    assert page.status_code == 302 and page["Location"] == url("round-sheet", event.slug, 2)
    top = {str(r.player) for r in event_standings(event).rows[:4]}
    table1 = Game.objects.get(round__event=event, round__number=2, table=1)
    assert {s.player.name for s in table1.seats.all()} == top
    sheet = text(client.get(url("round-sheet", event.slug, 2)))
    assert "東" in sheet and "北" in sheet and all(name in sheet for name in top)


def test_players_that_do_not_fill_the_tables_are_never_dropped_silently():
    event = make_event(slug="ten", players=PLAYERS[:10])
    organizer = organizer_for(event)
    client = logged_in(organizer)
    page = client.post(url("round-new", event.slug), {"method": "random", "shortfall": ""})
    assert page.status_code == 400 and "choose byes" in text(page)
    assert event.rounds.count() == 0
    client.post(url("round-new", event.slug), {"method": "random", "shortfall": "bye"})
    byes1 = set(SitOut.objects.filter(round__number=1).values_list("player__name", flat=True))
    assert len(byes1) == 2 and Game.objects.filter(round__number=1).count() == 2
    sheet = text(client.get(url("round-sheet", event.slug, 1)))
    assert all(name in sheet for name in byes1)
    finish_round(event, 1)
    client.post(url("round-new", event.slug), {"method": "random", "shortfall": "bye"})
    byes2 = set(SitOut.objects.filter(round__number=2).values_list("player__name", flat=True))
    assert len(byes2) == 2 and not byes1 & byes2  # byes go round
    # Round 2 still in play: seating round 3 asks first, naming its tables.
    asked = client.post(url("round-new", event.slug), {"method": "random", "shortfall": "bye"})
    assert asked.status_code == 400 and event.rounds.count() == 2
    assert "Not finished yet: table 1 of round 2, table 2 of round 2" in text(asked)
    assert 'name="while_unfinished"' in text(asked)
    anyway = {"method": "random", "shortfall": "substitute", "while_unfinished": "on"}
    client.post(url("round-new", event.slug), anyway)
    assert Game.objects.filter(round__number=3).count() == 3
    subs = Entry.objects.filter(event=event, substitute=True)
    assert subs.count() == 2
    finish_round(event, 3)
    names = {str(r.player) for r in event_standings(event).rows}
    assert len(names) == 10 and not names & {e.player.name for e in subs}


def test_baba_final_seats_the_four_finalists_after_the_cut():
    event = make_event(slug="baba", format="baba", players=PLAYERS[:16])
    organizer = organizer_for(event)
    client = logged_in(organizer)
    rng = random.Random(3)
    for number in range(1, 7):
        round_seat(event=event, rng=rng)
        finish_round(event, number)
    page = client.post(url("round-new", event.slug), {"method": "random"})
    assert page.status_code == 400 and "close the Qualifier" in text(page)
    manage = text(client.get(url("event-manage", event.slug)))
    table = event_standings(event)
    result = table.stages[0]
    if result.tied_at_cut:  # settle it as the organizer would, by lot
        assert "tie across the cut" in manage
        tied = [str(p) for p in result.tied_at_cut]
        page = client.post(url("stage-action", event.slug, 0, "close"))
        assert "settle the tie" in text(client.get(url("event-manage", event.slug)))
        client.post(
            url("stage-action", event.slug, 0, "decide"),
            {f"place_{i}": str(i + 1) for i in range(len(tied))},
        )
    client.post(url("stage-action", event.slug, 0, "close"))
    stage = event.stages.get(position=0)
    assert stage.closed
    finalists = {str(p) for p in event_standings(event).stages[0].advancing}
    assert len(finalists) == 4
    client.post(url("round-new", event.slug), {"method": "random"})
    games = Game.objects.filter(round__event=event, round__number=7)
    assert games.count() == 1
    assert {s.player.name for s in games[0].seats.all()} == finalists
    cut = SitOut.objects.filter(round__number=7, reason="cut", round__event=event)
    assert cut.count() == 12


def test_a_tie_at_the_cut_is_shown_and_settled_by_the_organizer():
    # Eight players, three go through: the two 2nd places tie for 3rd on points and top rate.
    event = make_event(slug="tie", format="baba", players=PLAYERS[:8])
    stage = event.stages.get(position=0)
    stage.first_round, stage.last_round, stage.advance = 1, 1, 3
    stage.save()
    final = event.stages.get(position=1)
    final.first_round, final.last_round = 1, 2
    final.save()
    organizer = organizer_for(event)
    round_seat(event=event, rng=random.Random(5))
    finish_round(event, 1)  # both tables end 40000/30000/20000/10000
    result = event_standings(event).stages[0]
    assert len(result.tied_at_cut) == 2
    client = logged_in(organizer)
    page = client.post(url("stage-action", event.slug, 0, "close"))
    assert not event.stages.get(position=0).closed
    tied = [str(p) for p in result.tied_at_cut]
    page = client.post(
        url("stage-action", event.slug, 0, "decide"), {"place_0": "1", "place_1": "1"}
    )
    assert page.status_code == 400 and "different place" in text(page)
    client.post(url("stage-action", event.slug, 0, "decide"), {"place_0": "2", "place_1": "1"})
    stage = event.stages.get(position=0)
    assert stage.decision == [tied[1], tied[0]]
    advancing = [str(p) for p in event_standings(event).stages[0].advancing]
    assert tied[1] in advancing and tied[0] not in advancing
    client.post(url("stage-action", event.slug, 0, "close"))
    assert event.stages.get(position=0).closed
    assert AuditEntry.objects.filter(event=event, action="stage.decide").exists()


def test_unseat_a_round_without_results(seated):
    event, organizer = seated
    client = logged_in(organizer)
    client.post(url("round-unseat", event.slug, 1), {"confirmed": "1"})  # asked first
    assert event.rounds.count() == 0
    round_seat(event=event, rng=random.Random(2))
    finish_round(event, 1)
    page = client.post(url("round-unseat", event.slug, 1), {"confirmed": "1"}, follow=True)
    assert "has results" in text(page) and event.rounds.count() == 1


def test_pairs_helper_counts_each_pair_once():
    tables = [["a", "b", "c", "d"]]
    assert sum(meetings(tables).values()) == len(list(combinations("abcd", 2)))


def test_scores_post_helper_matches_the_form(seated):
    event, organizer = seated
    game = Game.objects.filter(round__event=event).first()
    page = logged_in(organizer).post(
        url("game-scores", event.slug, game.pk), scores_post(game, [40000, 30000, 20000, 10000])
    )
    assert page.status_code == 302


def test_organizer_screens_speak_japanese(seated):
    event, organizer = seated
    client = logged_in(organizer)
    html = text(client.get(url("event-manage", event.slug), headers={"accept-language": "ja"}))
    assert 'lang="ja"' in html and "次の回戦の組み合わせを作る" in html and "参加者を追加" in html
    game = Game.objects.filter(round__event=event).first()
    sheet = client.get(url("game-hands", event.slug, game.pk), headers={"accept-language": "ja"})
    assert "ロン" in text(sheet) and "流局" in text(sheet) and "東1局 0本場" in text(sheet)


def test_a_referee_enters_results_but_changes_no_setting(seated):
    from django.urls import resolve

    from tournament.services.events import event_referees_set

    event, _organizer = seated
    referee = make_user("referee")
    event_referees_set(event=event, users=[referee])
    client = logged_in(referee)
    for method, address, data in organizer_urls(event):
        name = resolve(address).url_name
        status = getattr(client, method)(address, data).status_code
        if name in REFEREE_NAMES:
            assert status != 403, address
        else:
            assert status == 403, address
    dashboard = text(client.get(url("event-manage", event.slug)))
    assert "Seat the next round" not in dashboard and 'name="table_entry"' not in dashboard
    assert event.table_entry == "organizers" and event.rounds.count() == 1


def test_a_league_ending_on_a_tie_is_settled_by_the_organizer_and_closed():
    # Eight players, one round: both tables end 40000/30000/20000/10000, so the two winners
    # share first place on points and top rate — nothing in the rules breaks it.
    event = make_event(slug="lg", players=PLAYERS[:8])
    client = logged_in(organizer_for(event))
    round_seat(event=event, rng=random.Random(5))
    finish_round(event, 1)
    result = event_standings(event).stages[0]
    first = [str(p) for p in result.tied_at_top]
    assert len(first) == 2
    assert {r.status for r in event_standings(event).rows[:2]} == {"tie"}
    manage = text(client.get(url("event-manage", event.slug)))
    assert "share a place the rules do not break" in manage and 'name="place_1"' in manage
    # Closing waits for first place.
    client.post(url("stage-action", event.slug, 0, "close"))
    assert not event.stages.get().closed
    said = text(client.get(url("event-manage", event.slug)))
    assert "settle the tie for first place first" in said
    client.post(url("stage-action", event.slug, 0, "decide"), {"place_0": "2", "place_1": "1"})
    rows = event_standings(event).rows
    assert [str(rows[0].player), str(rows[1].player)] == [first[1], first[0]]
    assert (rows[0].rank, rows[1].rank) == (1, 2) and rows[0].status == ""
    # The next shared place is offered next; first place stays settled.
    assert event_standings(event).stages[0].to_settle != []
    client.post(url("stage-action", event.slug, 0, "close"))
    assert event.stages.get().closed
    # Frozen like a closed stage: no new round, no correction of round 1.
    page = client.post(url("round-new", event.slug), {"method": "random"})
    assert page.status_code == 400 and event.rounds.count() == 1
    game = Game.objects.filter(round__event=event).first()
    page = client.post(url("game-delete", event.slug, game.pk), follow=True)
    assert "closed" in text(page) and Game.objects.filter(pk=game.pk).exists()


def test_a_league_with_a_table_still_open_does_not_close():
    event = make_event(slug="lg2", players=PLAYERS[:8])
    client = logged_in(organizer_for(event))
    round_seat(event=event, rng=random.Random(5))
    client.post(url("stage-action", event.slug, 0, "close"))
    assert not event.stages.get().closed
    assert "round 1 table 1 is not finished" in text(client.get(url("event-manage", event.slug)))


def test_a_league_offers_no_tie_to_settle_while_its_tables_are_open():
    # Seen on the dashboard: before a game everyone shares every place; nothing to settle yet.
    event = make_event(slug="lg3", players=PLAYERS[:8])
    client = logged_in(organizer_for(event))
    round_seat(event=event, rng=random.Random(5))
    manage = text(client.get(url("event-manage", event.slug)))
    assert 'name="place_0"' not in manage and "share a place" not in manage
    finish_round(event, 1)
    assert 'name="place_0"' in text(client.get(url("event-manage", event.slug)))


@pytest.mark.django_db
def test_a_signed_in_user_sent_back_to_the_log_in_page_lands_on_the_site_not_a_500():
    # Found by the page diff of issue 45 (in both trees): Django's LoginView raises a ValueError
    # ("Redirection loop") for a signed-in user at /accounts/login/?next=/accounts/login/.
    client = logged_in(make_user("organizer"))
    for target in ("/accounts/login/", "/accounts/login/?next=/accounts/login/"):
        page = client.get("/accounts/login/", {"next": target})
        assert page.status_code == 302
        assert not page["Location"].startswith("/accounts/login/"), target
    # Any other `next` is still followed.
    assert client.get("/accounts/login/", {"next": "/events/"})["Location"] == "/events/"
