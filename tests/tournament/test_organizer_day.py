"""Issue 43, the organizer's traps found running a whole Baba day in Japanese (16 players,
check-in, a 6-round qualifier, top 4 to a final in rounds 7–8): a test per trap, through the
pages the organizer uses."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import Permission

from scoring.plans import plan
from tests.tournament.factories import PLAYERS, baba_day, make_event, scores_game
from tests.tournament.organize_support import (
    logged_in,
    make_user,
    organizer_for,
    scores_post,
    text,
    url,
)
from tournament.models import Event, Game, SeatingPlan, Stage, Venue
from tournament.selectors.plans import plan_rounds_default, seat_method_default
from tournament.services.checkin import checkin_mark, checkin_require
from tournament.services.games import game_correct
from tournament.services.plans import plan_make
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db
JA = {"accept-language": "ja"}


def dashboard(client, event: Event, **headers) -> str:
    return text(client.get(url("event-manage", event.slug), headers=headers))


def checked(page: str, name: str) -> str | None:
    """The value of the radio `name` checked on the page (None when none is)."""
    for tag in re.findall(rf'<input[^>]*name="{name}"[^>]*>', page):
        if " checked" in tag:
            return re.search(r'value="([^"]*)"', tag).group(1)
    return None


# --- 1. Baba's rules chosen, the format left on league ----------------------------------------


@pytest.fixture
def creator():
    user = make_user("creator")
    user.user_permissions.add(Permission.objects.get(codename="add_event"))
    return logged_in(user)


def create(client, **data) -> Event:
    reply = client.post(url("event-new"), {"name": "Day", "players": "\n".join(PLAYERS), **data})
    assert reply.status_code == 302, text(reply)
    return Event.objects.get(name="Day")


def test_the_format_follows_the_rules_unless_chosen(creator):
    page = text(creator.get(url("event-new"), headers=JA))
    # Nothing chosen yet: the format offered first is the rules' own.
    assert re.search(r'<option value="" selected>ルールに合わせる', page)
    event = create(creator, rules="preset:baba")  # the form sent as it came: format ""
    assert event.format == "baba"
    assert list(event.stages.values_list("name", "last_round")) == [("qualifier", 6), ("final", 8)]


def test_an_explicit_format_wins_over_the_rules(creator):
    assert create(creator, rules="preset:baba", format="league").format == "league"


def test_rules_without_a_format_of_their_own_make_a_league(creator):
    assert create(creator, rules="preset:tenhou").format == "league"


def test_a_venue_on_baba_rules_makes_a_baba_day(creator):
    venue = Venue.objects.create(name="Baba hall", slug="baba-hall", preset="baba")
    assert create(creator, rules=f"venue:{venue.pk}").format == "baba"


# --- 2. The plan method stays chosen for a round the plan does not have ------------------------


def stages_of(*rows: tuple[int | None, int | None, int | None]) -> list[Stage]:
    return [Stage(name=f"s{i}", first_round=a, last_round=b, advance=c) for i, (a, b, c) in
            enumerate(rows)]  # fmt: skip


def test_seating_defaults_to_the_plan_only_for_rounds_it_has():
    baba = stages_of((1, 6, 4), (1, 8, None))
    league = stages_of((None, None, None))
    assert seat_method_default(1, 6, baba) == "plan"
    assert seat_method_default(6, 6, baba) == "plan"
    assert seat_method_default(7, 6, baba) == "standings"  # the final: those through
    assert seat_method_default(7, 8, baba) == "standings"  # an old 8-round plan: no answer
    assert seat_method_default(1, 0, baba) == "random"  # no plan
    assert seat_method_default(9, 8, league) == "random"
    assert seat_method_default(3, 8, league) == "plan"


def test_the_final_is_offered_by_standings_and_seats_in_one_tap():
    event = baba_day(slug="final-day", played=6, close_qualifier=True)
    organizer = logged_in(organizer_for(event))
    plan_make(event=event, rounds=6, seed=1)
    page = dashboard(organizer, event)
    assert checked(page, "method") == "standings"
    # The form as it came, sent: round 7 is seated (the four finalists at one table).
    data = {"round": "7", "method": checked(page, "method"), "shortfall": ""}
    reply = organizer.post(url("round-new", event.slug), data)
    assert reply.status_code == 302, text(reply)
    final = Game.objects.get(round__event=event, round__number=7)
    assert final.seats.count() == 4


def test_the_first_round_is_offered_from_the_plan():
    event = make_event(slug="planned", format="baba", players=PLAYERS)
    organizer = logged_in(organizer_for(event))
    plan_make(event=event, rounds=6, seed=1)
    assert checked(dashboard(organizer, event), "method") == "plan"


# --- 3. A plan for a six-round qualifier defaults to its rounds ------------------------------


def test_a_plan_is_made_for_the_rounds_everyone_plays_unless_told():
    assert plan_rounds_default(stages_of((1, 6, 4), (1, 8, None))) == 6  # Baba: the qualifier
    assert plan_rounds_default(stages_of((1, 5, None))) == 5
    assert plan_rounds_default(stages_of((None, None, None))) == 8  # a league keeps no count
    event = make_event(slug="six", format="baba", players=PLAYERS)
    page = dashboard(logged_in(organizer_for(event)), event)
    assert re.search(r'<input[^>]*name="rounds"[^>]*value="6"', page)


# --- 4. The plan's report judged against a true floor ----------------------------------------


def test_the_plan_of_a_baba_qualifier_reads_as_the_best_there_is():
    event = make_event(slug="report", format="baba", players=PLAYERS)
    organizer = logged_in(organizer_for(event))
    organizer.post(url("plan-make", event.slug), {"rounds": "6", "seed": "3"})
    kept = SeatingPlan.objects.get(event=event)
    assert len(kept.rounds) == 6
    page = dashboard(organizer, event, **JA)
    # 24 pairs meet twice: 16 players with 18 tablemates each among 15 others repeat 3
    # meetings each, 24 in all — no plan has fewer, and the page says so, not "at least 8".
    assert "24組が2回以上同卓しました。2回目以降の同卓は計 24 回で" in page
    assert "これより減らせない最少の回数です" in page
    assert "下限は 8 組" not in page and "少なくとも" not in page


def test_a_seating_above_the_floor_says_at_least():
    # Eight players seated the same way three times: far above what the numbers force.
    event = make_event(slug="again", players=PLAYERS[:8])
    organizer = logged_in(organizer_for(event))
    tables = [PLAYERS[:4], PLAYERS[4:8]]
    for number in (1, 2, 3):
        for t, seats in enumerate(tables, start=1):
            scores_game(event, number, t, seats)
    floor = plan(PLAYERS[:8], 3, 4).report()["best_repeat_meetings"]
    page = dashboard(organizer, event, **JA)
    assert f"どの組み合わせでも少なくとも {floor} 回は避けられません" in page
    assert "2回目以降の同卓は計 24 回です" in page  # 12 pairs, 2 more meetings each


# --- 5. No tie panel before a game ------------------------------------------------------------


def test_a_new_event_shows_no_tie_to_settle():
    event = make_event(slug="fresh", format="baba", players=PLAYERS)
    page = dashboard(logged_in(organizer_for(event)), event, **JA)
    assert "ルールで決まらない同点" not in page
    assert 'name="place_0"' not in page  # no form to settle one either


# --- 6. The final labelled by the rounds it is played in -------------------------------------


def test_the_final_is_headed_by_the_rounds_it_is_played_in():
    event = make_event(slug="labels", format="baba", players=PLAYERS)
    organizer = logged_in(organizer_for(event))
    page = dashboard(organizer, event, **JA)
    headings = re.findall(r"<h3>(.*?)</h3>", page, re.S)
    assert any("予選" in h and "1–6回戦" in h for h in headings)
    assert any("決勝" in h and "7–8回戦" in h for h in headings)
    assert not any("1–8回戦" in h for h in headings)
    assert "順位は 1–8回戦の合計で決まります。" in page  # what it ranks on, said apart
    english = dashboard(organizer, event)
    assert "rounds 7–8" in english and "Ranked on the total of rounds 1–8." in english


# --- 7. Seat slips printable while any table is open -----------------------------------------


def test_slips_print_while_any_table_of_the_round_is_open():
    event = make_event(slug="slips", players=PLAYERS)
    organizer = logged_in(organizer_for(event))
    round_seat(event=event, rng=random.Random(1))
    games = list(Game.objects.filter(round__event=event).order_by("table"))
    sheet = url("round-sheet", event.slug, 1)
    finish = [45000, 30000, 15000, 10000]
    table_1 = games[0]
    organizer.post(url("game-scores", event.slug, table_1.pk), scores_post(table_1, finish))
    assert Game.objects.get(pk=table_1.pk).finished
    assert "Print the seat slips" in text(organizer.get(sheet))
    for game in games[1:]:
        seats = [s.player.name for s in game.seats.order_by("position")]
        data = {"round": 1, "table": game.table, "seats": seats, "scores": finish}
        game_correct(game=game, data=data, expected_version=game.version)
    assert "Print the seat slips" not in text(organizer.get(sheet))  # every table done


# --- 8. Taking back a seating asks first -----------------------------------------------------


def test_taking_back_a_seating_asks_first_and_names_the_slips():
    event = make_event(slug="undo", players=PLAYERS)
    organizer = logged_in(organizer_for(event))
    round_seat(event=event, rng=random.Random(1))
    unseat = url("round-unseat", event.slug, 1)
    sheet = text(organizer.get(url("round-sheet", event.slug, 1)))
    assert f'href="{unseat}"' in sheet  # the sheet's button leads to the question
    asked = organizer.get(unseat, headers=JA)
    assert asked.status_code == 200 and event.rounds.count() == 1
    page = text(asked)
    assert "第1回戦の組み合わせを取り消しますか？" in page
    assert "席札と卓のQRコードは使えなくなります" in page
    # A POST without the answer (an old page's one-tap form) asks again, unseats nothing.
    again = organizer.post(unseat)
    assert again.status_code == 200 and event.rounds.count() == 1
    assert "stop working" in text(again)
    done = organizer.post(unseat, {"confirmed": "1"})
    assert done.status_code == 302 and event.rounds.count() == 0


def test_a_seating_with_results_is_not_asked_about_but_refused_at_once():
    event = make_event(slug="undo-late", players=PLAYERS)
    organizer = logged_in(organizer_for(event))
    round_seat(event=event, rng=random.Random(1))
    table_1 = Game.objects.get(round__event=event, table=1)
    seats = [s.player.name for s in table_1.seats.order_by("position")]
    data = {"round": 1, "table": 1, "seats": seats, "scores": [45000, 30000, 15000, 10000]}
    game_correct(game=table_1, data=data, expected_version=table_1.version)
    page = text(organizer.get(url("round-unseat", event.slug, 1), headers=JA))
    assert "この組み合わせは取り消せません：第1回戦の1卓目に結果があります" in page
    assert 'name="confirmed"' not in page  # no yes to a question whose yes is refused
    organizer.post(url("round-unseat", event.slug, 1), {"confirmed": "1"})
    assert event.rounds.count() == 1


def test_the_question_is_the_organizers_own():
    event = make_event(slug="undo-rights", players=PLAYERS)
    round_seat(event=event, rng=random.Random(1))
    other = make_event(slug="elsewhere")
    stranger = logged_in(organizer_for(other, username="stranger"))
    reply = stranger.post(url("round-unseat", event.slug, 1), {"confirmed": "1"})
    assert reply.status_code in (302, 403, 404) and event.rounds.count() == 1
    assert stranger.get(url("round-unseat", event.slug, 1)).status_code in (302, 403, 404)


# --- 9. Counts say checked in / registered ---------------------------------------------------


def test_counts_say_checked_in_of_registered_once_check_in_is_on(client):
    event = make_event(slug="door", format="baba", players=PLAYERS)
    organizer = logged_in(organizer_for(event))
    before = dashboard(organizer, event, **JA)
    assert "参加者 16 人" in before  # check-in off: everyone registered plays
    checkin_require(event=event, required=True)
    for entry in event.entries.order_by("pk")[:13]:
        checkin_mark(entry=entry, present=True)
    page = dashboard(organizer, event, **JA)
    assert "参加者 16 人" not in page
    assert page.count("受付済み 13 / 登録 16 人") == 2  # the seating form, the players
    assert "16人中13人受付済み" in page  # the check-in heading
    assert "受付済みの13人（登録 16 人）の全回戦" in page  # the plan is for who is here
    home = text(client.get("/", headers=JA))
    assert "受付済み 13 / 登録 16 人" in home


def test_a_plan_during_check_in_seats_those_checked_in():
    event = make_event(slug="door-plan", format="baba", players=PLAYERS)
    checkin_require(event=event, required=True)
    here = list(event.entries.order_by("pk")[:13])
    for entry in here:
        checkin_mark(entry=entry, present=True)
    plan_make(event=event, rounds=6, seed=2)
    kept = SeatingPlan.objects.get(event=event)
    listed = {p for t in kept.rounds[0]["tables"] for p in t} | set(kept.rounds[0]["byes"])
    assert listed == {e.player.name for e in here}
    round_seat(event=event, method="plan", shortfall="")  # the plan fits: seated as planned
    assert event.rounds.count() == 1
