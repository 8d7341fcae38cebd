"""Issue 32: the organizer's dashboard makes problems stand out. Each table's state reads in a
colour, an icon and a word; in each round the tables needing the organizer come first (a
dispute, a result waiting, a table past its time); a dispute's reason is on its row; the
round's clock is there, and says when every table is done. Player lists are in the order the
organizer registered them, not in code-point order."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tests.tournament.organize_support import text
from tests.tournament.test_japanese_everywhere import _japanese_day
from tournament.models import Event, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer():
    _japanese_day()  # 4 tables: one playing, one waiting, one disputed, one not started
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("運営", "o@example.com", "pw"))
    return client, Event.objects.get(name="春の天鳳杯")


def rows(page: str) -> list[str]:
    listing = page[page.index('<ul class="table-states">') :]
    return re.findall(r"<li class=\"state-[^\"]*\">.*?</li>", listing, re.S)


def test_the_tables_needing_the_organizer_come_first_with_icon_word_and_reason(organizer):
    client, event = organizer
    page = text(client.get(f"/events/{event.slug}/manage/", headers={"accept-language": "ja"}))
    states = [re.search(r'data-state="(\w+)"', r).group(1) for r in rows(page)]
    assert states == ["disputed", "waiting", "playing", "not_started"]
    disputed, waiting, playing, waiting_to_start = rows(page)
    assert "⚠" in disputed and "異議あり" in disputed
    assert '<q class="dispute">点数が違う</q>' in disputed  # the reason, on the row
    assert "◔" in waiting and "確認待ち" in waiting
    assert "▶" in playing and "東2局 0本場" in playing
    assert "○" in waiting_to_start and "未開始" in waiting_to_start


def test_a_table_past_the_round_s_time_comes_next_and_the_clock_is_shown(organizer):
    client, event = organizer
    event.round_minutes = 60
    event.save()
    Round.objects.filter(event=event).update(clock_started_at=timezone.now() - timedelta(hours=2))
    page = text(client.get(f"/events/{event.slug}/manage/", headers={"accept-language": "ja"}))
    assert "data-clock" in page and "時間切れ" in page
    listed = rows(page)
    late = [r for r in listed if "data-late" in r]
    assert len(late) == 2 and all("時間超過" in r for r in late)
    # Disputed, waiting, then the two late ones (playing before not started), nothing after.
    assert listed[2:] == late
    # The live part the page refreshes holds the clock too.
    live = text(client.get(f"/events/{event.slug}/manage/tables/"))
    assert "data-clock" in live and "data-late" in live


def test_players_are_listed_as_registered(organizer):
    client, event = organizer
    pasted = list(event.entries.order_by("pk").values_list("player__name", flat=True))
    assert pasted != sorted(pasted)  # the test means something: code-point order differs
    page = text(client.get(f"/events/{event.slug}/manage/penalties/"))
    options = re.findall(r'<option value="([^"]+)"', page)
    assert [o for o in options if o in pasted] == pasted
    dashboard = text(client.get(f"/events/{event.slug}/manage/"))
    dashboard = dashboard[dashboard.index('<ul class="players">') :]
    # A name, then its end or (issue 48) its profile: country and EMA number.
    positions = [re.search(f">{re.escape(name)}[< ]", dashboard).start() for name in pasted]
    assert positions == sorted(positions)


def test_a_refused_seating_opens_at_the_seating_form_with_its_error_and_choice():
    """A phone walk: 7 players and "Ask me" for the odd one — the refusal reloaded the page
    at its top, the error and the bye/substitute choice screens below. The form is sent to
    its own anchor, so the answer opens there (the browser keeps the action's fragment)."""
    from tests.tournament.factories import make_event
    from tests.tournament.organize_support import logged_in, organizer_for, url

    event = make_event(slug="odd", players=[f"P{i:02d}" for i in range(7)])
    client = logged_in(organizer_for(event))
    page = client.get(url("event-manage", event.slug)).content.decode()
    assert f'action="{url("round-new", event.slug)}#seat-round" id="seat-round"' in page
    for language, error in (
        ("en", "7 players leave 3 over at tables of 4: choose byes"),
        ("ja", "7 人だと 4 人卓で 3 人余ります"),
    ):
        refused = client.post(
            url("round-new", event.slug),
            {"method": "random", "round": "1", "shortfall": ""},
            headers={"accept-language": language},
        )
        assert refused.status_code == 400
        body = refused.content.decode()
        # The anchor opens the form: its error, then the choice, both after it.
        anchor = body.index('id="seat-round"')
        assert anchor < body.index(error) < body.index('name="shortfall"')
    assert not Round.objects.filter(event=event).exists()
