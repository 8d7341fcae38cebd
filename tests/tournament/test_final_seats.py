"""A Baba final's seats are drawn once, before hanchan 7; each hanchan only chooses its starting
dealer (RULES §baba). A tester found round 8, seated by standings as the form offered, change
the final's turn order: now the form offers the last round's seats with a drawn dealer, the
service keeps them or says why it cannot, and the seating report stops judging the final's
meetings, which no seating can avoid."""

from __future__ import annotations

import random
import re

import pytest

from tests.tournament.factories import PLAYERS, baba_day, make_event
from tests.tournament.organize_support import logged_in, organizer_for, text, url
from tests.tournament.test_organizer_day import checked, dashboard
from tests.tournament.test_tournament_day import finish
from tournament.models import Entry, Seat
from tournament.selectors.plans import seat_method_default
from tournament.selectors.tables import seating_report
from tournament.services.errors import ServiceError
from tournament.services.events import entry_withdraw
from tournament.services.rounds import round_keep_refusal, round_seat, round_unseat

pytestmark = pytest.mark.django_db
JA = {"accept-language": "ja"}


def order(event, number: int) -> list[str]:
    """Round `number`'s one table in seat order, East (the starting dealer) first."""
    seats = Seat.objects.filter(round__event=event, round__number=number)
    return list(seats.order_by("game__table", "position").values_list("player__name", flat=True))


def turn_order(table: list[str]) -> set[tuple[str, str]]:
    """Each seat with the seat on its right (下家): the same whoever deals first."""
    return {(p, table[(k + 1) % len(table)]) for k, p in enumerate(table)}


def test_round_8_seated_with_the_default_keeps_round_7s_turn_order_and_draws_the_dealer():
    event = baba_day(slug="final-8", played=7, close_qualifier=True)
    stages = list(event.stages.order_by("position"))
    keeps = round_keep_refusal(event, 8) is None
    method = seat_method_default(8, 6, stages, keeps=keeps)
    assert keeps and method == "same"
    seventh = order(event, 7)
    seen = {}
    for seed in range(6):
        rnd = round_seat(event=event, method=method, number=8, rng=random.Random(seed))
        eighth = order(event, 8)
        assert sorted(eighth) == sorted(seventh) and turn_order(eighth) == turn_order(seventh)
        assert rnd.games.count() == 1
        # The twelve out at the cut sit it out, as with any other method.
        assert rnd.sit_outs.filter(reason="cut").count() == 12
        seen[seed] = eighth
        round_unseat(rnd=rnd)
    assert len({tuple(t) for t in seen.values()}) > 1  # the dealer is drawn, not fixed
    round_seat(event=event, method=method, number=8, rng=random.Random(3))
    assert order(event, 8) == seen[3]  # the round's rng decides it


def test_the_dashboard_offers_the_kept_seats_for_round_8_and_seats_them_in_one_tap():
    event = baba_day(slug="final-tap", played=7, close_qualifier=True)
    organizer = logged_in(organizer_for(event))
    page = dashboard(organizer, event, **JA)
    assert checked(page, "method") == "same"
    assert "前回戦と同じ席（起家のみ抽選）" in page
    reply = organizer.post(
        url("round-new", event.slug), {"round": "8", "method": "same", "shortfall": ""}
    )
    assert reply.status_code == 302, text(reply)
    assert turn_order(order(event, 8)) == turn_order(order(event, 7))


def test_the_finals_first_round_is_still_drawn_by_standings():
    event = baba_day(slug="final-7", played=6, close_qualifier=True)
    organizer = logged_in(organizer_for(event))
    assert round_keep_refusal(event, 7).code == "round.keep_none"
    assert checked(dashboard(organizer, event), "method") == "standings"
    # Sent anyway: refused next to the method, saying what to do, nothing seated.
    reply = organizer.post(
        url("round-new", event.slug), {"round": "7", "method": "same", "shortfall": ""},
        headers=JA,
    )  # fmt: skip
    assert reply.status_code == 400
    assert "第7回戦はこのステージの最初の回戦で、引き継ぐ前回戦の席がありません" in text(reply)
    assert "成績順かランダム" in text(reply)
    assert not event.rounds.filter(number=7).exists()


def test_the_first_round_has_no_seats_to_keep_and_is_not_offered_them():
    event = make_event(slug="first", players=PLAYERS[:8])
    page = dashboard(logged_in(organizer_for(event)), event)
    assert 'value="same"' not in page
    with pytest.raises(ServiceError) as refused:
        round_seat(event=event, method="same", number=1)
    assert refused.value.code == "round.keep_none" and refused.value.field == "method"


def test_keeping_the_seats_is_refused_when_a_player_withdrew():
    event = make_event(slug="withdrew", players=PLAYERS[:8])
    round_seat(event=event, rng=random.Random(1))
    finish(event, 1, {t: [45000, 30000, 15000, 10000] for t in (1, 2)})
    entry_withdraw(entry=Entry.objects.get(event=event, player__name="P03"))
    with pytest.raises(ServiceError) as refused:
        round_seat(event=event, method="same", number=2, shortfall="substitute")
    assert refused.value.code == "round.keep_changed"
    assert "P03" in refused.value.message and "round 2 another way" in refused.value.message
    assert not event.rounds.filter(number=2).exists()


def test_keeping_the_seats_is_refused_after_a_round_with_a_stand_in():
    event = make_event(slug="stand-in", players=PLAYERS[:7])
    round_seat(event=event, shortfall="substitute", rng=random.Random(1))
    finish(event, 1, {t: [45000, 30000, 15000, 10000] for t in (1, 2)})
    organizer = logged_in(organizer_for(event))
    # A league keeps no final: seating at random stays what the form offers.
    assert checked(dashboard(organizer, event), "method") == "random"
    reply = organizer.post(
        url("round-new", event.slug), {"round": "2", "method": "same", "shortfall": ""},
        headers=JA,
    )  # fmt: skip
    assert reply.status_code == 400
    assert re.search(r"第1回戦の卓と今の参加者が一致しません（代走 1）", text(reply))


def test_the_seating_report_leaves_out_the_finals_forced_meetings():
    event = baba_day(slug="final-report", played=8, close_qualifier=True)
    qualifier = seating_report(event, up_to=6)
    final = seating_report(event)
    assert qualifier["one_table"] == [] and final["one_table"] == [7, 8]
    # The final's four meet in both games whatever the seating: judged without them, the
    # meetings are the qualifier's own.
    for key in ("repeated_pairs", "repeat_meetings", "best_repeat_meetings"):
        assert final[key] == qualifier[key]
    assert sum(sum(c) for c in final["winds"].values()) == 16 * 6 + 4 * 2  # every seat counted
    sheet = text(logged_in(organizer_for(event)).get(url("round-sheet", event.slug, 8), headers=JA))
    assert "第7、8回戦は1卓だけのため同卓が避けられず、上の回数には数えていません。" in sheet
