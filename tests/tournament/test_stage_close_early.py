"""Closing a stage early (issue 66: the Baba qualifier after round 5 when time runs out): the
stage ends after the last round played and closes, the later stages' rounds follow on, and
the standings rank each stage over its new rounds; refused, by a coded error naming the stage
field, where closing would hide something."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from scoring.standings import Format
from scoring.standings import Stage as StageRule
from tests.tournament.factories import baba_day
from tests.tournament.organize_support import logged_in, organizer_for
from tournament.auditlog import entry_sentence
from tournament.models import AuditEntry, Round
from tournament.selectors.standings import event_format, event_standings
from tournament.services.errors import ServiceError
from tournament.services.events import event_create
from tournament.services.imports import event_import
from tournament.services.rounds import round_seat
from tournament.services.stages import stage_close_early

pytestmark = pytest.mark.django_db


def _stages(event) -> list[tuple[str, int | None, int | None, bool]]:
    return [(s.name, s.first_round, s.last_round, s.closed) for s in event.stages.all()]


def test_the_engine_moves_later_stages_to_follow_on() -> None:
    baba = Format("baba", (StageRule("qualifier", 1, 6, 4), StageRule("final", 1, 8)))
    assert baba.closed_after("qualifier", 5).stages == (
        StageRule("qualifier", 1, 5, 4),
        StageRule("final", 1, 7),  # ranked from round 1 still, played in 6–7
    )
    apart = Format("x", (StageRule("a", 1, 4, 8), StageRule("b", 5, 6, 4), StageRule("c", 7, 7)))
    assert apart.closed_after("a", 2).stages == (
        StageRule("a", 1, 2, 8),
        StageRule("b", 3, 4, 4),
        StageRule("c", 5, 5),
    )


def test_the_qualifier_closes_after_round_5_and_the_final_becomes_rounds_6_and_7() -> None:
    event = baba_day(slug="early", played=5)
    qualifier = event.stages.get(name="qualifier")
    stage_close_early(event=event, stage=qualifier)
    assert _stages(event) == [("qualifier", 1, 5, True), ("final", 1, 7, False)]
    # The standings rank the qualifier over rounds 1–5: its top 4 by their totals there.
    standings = event_standings(event)
    result = standings.stage("qualifier")
    assert result is not None and result.complete
    assert [s.last_round for s in event_format(event).stages] == [5, 7]
    # The next round is the final's first: its four players seated, and the format ends at 7.
    rnd = round_seat(event=event, rng=random.Random(1))
    assert rnd.number == 6
    seated = {s.player.name for s in rnd.seats.select_related("player")}
    assert seated == {str(p) for p in result.advancing}
    entry = AuditEntry.objects.get(action="stage.close_early")
    with translation.override("ja"):
        said = entry_sentence(entry)
        assert "予選" in said and "第5回戦" in said and "通過" in said
    with translation.override("en"):
        assert "after round 5" in entry_sentence(entry)


def _refused(event, name: str = "qualifier") -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        stage_close_early(event=event, stage=event.stages.get(name=name))
    assert caught.value.field == "stage"
    return caught.value


def test_refused_while_a_table_of_the_stage_is_open() -> None:
    event = baba_day(slug="early-open", played=4, seat_next=True)
    assert _refused(event).code == "stage.table_open"
    assert _stages(event) == [("qualifier", 1, 6, False), ("final", 1, 8, False)]


def test_refused_when_a_later_stage_has_a_round_seated() -> None:
    event = baba_day(slug="early-later", played=7)
    assert _refused(event).code == "stage.early_later"


def test_refused_when_nothing_was_played_and_at_the_last_round() -> None:
    event = event_create(name="Nothing yet", format="baba", players=[f"P{i}" for i in range(8)])
    assert _refused(event).code == "stage.early_nothing"
    event = baba_day(slug="early-last", played=6)
    assert _refused(event).code == "stage.early_last"


def test_refused_with_a_tie_at_the_cut_and_nothing_is_moved() -> None:
    players = [f"P{i:02d}" for i in range(12)]
    games = [
        {"round": 1, "table": t + 1, "seats": players[4 * t : 4 * t + 4]}
        | {"scores": [43200, 31000, 18100, 7700]}
        for t in range(3)
    ]
    event = event_import(
        {"name": "Tied", "slug": "tied", "ruleset": "baba", "format": "baba"}
        | {"players": players, "games": games}
    )
    error = _refused(event)  # three seconds share 4th–6th: the cut at 4 splits them
    assert error.code == "stage.tie_first"
    assert _stages(event) == [("qualifier", 1, 6, False), ("final", 1, 8, False)]
    assert not AuditEntry.objects.filter(action="stage.close_early").exists()


def test_the_dashboard_asks_first_and_says_what_follows() -> None:
    event = baba_day(slug="early-page", played=5)
    client = logged_in(organizer_for(event))
    url = f"/events/{event.slug}/manage/"
    page = client.get(url).content.decode()
    assert "Close the Qualifier after round 5?" in page
    assert "The Final becomes rounds 6–7." in page
    # Beneath "The Qualifier closes once round 6 is played.", the offer says why it is there.
    assert "Out of time? Close the Qualifier now, after round 5" in page
    ja = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "予選を第5回戦で締め切りますか？" in ja and "決勝は第6–7回戦になります。" in ja
    assert "時間が足りないとき：予選を第5回戦で締め切る" in ja
    qualifier = event.stages.get(name="qualifier")
    answer = client.post(f"{url}stages/{qualifier.position}/close_early/")
    assert answer.status_code == 302
    assert _stages(event)[0] == ("qualifier", 1, 5, True)
    page = client.get(url).content.decode()
    assert "closed after round 5" in page
    assert "Close the Qualifier after round" not in page


def test_the_dashboard_does_not_offer_it_while_a_table_is_open() -> None:
    event = baba_day(slug="early-page-open", played=4, seat_next=True)
    assert Round.objects.filter(event=event, number=5).exists()
    page = logged_in(organizer_for(event)).get(f"/events/{event.slug}/manage/").content.decode()
    assert "data-close-early" not in page


def test_an_event_closed_early_keeps_its_rounds_through_its_event_file() -> None:
    """The event file says which stage was closed early and after which round
    (`closed_after`): exported and imported again — a backup restored — the final is still
    rounds 6–7 and the standings are the same."""
    from tournament.services.imports import event_export

    event = baba_day(slug="early-file", played=5)
    stage_close_early(event=event, stage=event.stages.get(name="qualifier"))
    round_seat(event=event, rng=random.Random(1))
    data = event_export(event)
    assert data["stages"][0] == {
        "name": "qualifier",
        "closed": True,
        "decision": [],
        "closed_after": 5,
    }
    assert all("closed_after" not in s for s in data["stages"][1:])
    before = [r.to_json() for r in event_standings(event).rows]
    again = event_import(data, replace=True)
    assert _stages(again) == [("qualifier", 1, 5, True), ("final", 1, 7, False)]
    assert [r.to_json() for r in event_standings(again).rows] == before


@pytest.mark.parametrize("after", [0, 6, "5"])
def test_a_file_closing_a_stage_early_at_no_earlier_round_is_refused(after) -> None:
    from tournament.services.imports import event_export

    event = baba_day(slug="early-bad", played=5)
    data = event_export(event)
    data["stages"] = [{"name": "qualifier", "closed": True, "closed_after": after}]
    with pytest.raises(ServiceError) as refused:
        event_import(data, replace=True)
    assert refused.value.field == "stages[0].closed_after"


def test_the_pages_say_the_format_as_it_is_played_after_closing_early(client) -> None:
    """The walk of issue 66: after closing early the headline still said "qualifier rounds
    1–6, top 4 to the final rounds 7–8" beside a final of rounds 6–7."""
    event = baba_day(slug="early-words", played=5)
    stage_close_early(event=event, stage=event.stages.get(name="qualifier"))
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert "qualifier rounds 1–5, top 4 to the final rounds 6–7" in page
    assert "rounds 7–8" not in page
    ja = client.get(f"/events/{event.slug}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "予選1〜5回戦、上位4名が決勝6〜7回戦" in ja
    dashboard = logged_in(organizer_for(event)).get(f"/events/{event.slug}/manage/")
    assert "qualifier rounds 1–5, top 4 to the final rounds 6–7" in dashboard.content.decode()
