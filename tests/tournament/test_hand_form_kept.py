"""A table's hand form: its 107 buttons are made once for every table and hand of the event
and kept by what they are made of but the seats' names, put in as each page is drawn
(HandForm.kept — selectors/sheets.HandButtons.key — and stand_in, _hand_form.html); the
version and the hand the form is for, outside the kept part, are always the game's own — no
stale form is ever written."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from scoring.presets import PRESETS
from tests.tournament.test_table_links import as_seat, live, seated
from tournament.forms.hands import HandForm
from tournament.selectors.cache import clear_all

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def _form(html: str) -> str:
    """The page's hand form, its CSRF token (new on every page) left out."""
    found = re.search(r"<form[^>]*data-hand.*?</form>", html, re.S)
    assert found, "no hand form on the page"
    return TOKEN.sub("", found.group(0))


def _hidden(form: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', form)
    assert found, name
    return found.group(1)


def _tsumo(client: Client, link, version: int):
    data = {"do": "hand", "version": version, "type": "tsumo", "winner": "1", "han": "2"}
    return client.post(f"/t/{link.token}/", {**data, "fu": "30"})


def test_a_kept_form_is_the_form_made_afresh_with_the_game_s_version_and_hand():
    _event, games = seated()
    game, client = games[0], Client()
    link = live(game)
    as_seat(client, link, 0)
    first = _form(client.get(f"/t/{link.token}/").content.decode())
    assert _tsumo(client, link, game.version).status_code == 302
    game.refresh_from_db()
    kept = _form(client.get(f"/t/{link.token}/").content.decode())
    # The kept buttons, the game's new version and the next hand's number.
    assert (_hidden(kept, "version"), _hidden(kept, "number")) == (str(game.version), "2")
    assert _hidden(first, "version") != _hidden(kept, "version")
    clear_all()
    fresh = _form(client.get(f"/t/{link.token}/").content.decode())
    assert kept == fresh
    # The buttons kept for the first hand are the second's (only version, hand and label moved).
    body = lambda form: re.sub(r'name="(version|number)" value="\d+"|Record [^<]+', "", form)  # noqa: E731
    assert body(first) == body(kept)


def test_two_tables_share_the_kept_buttons_each_with_its_own_names():
    """The buttons are kept once for every table of the event (the names are not in the
    key): each table's page shows its own seats' names, escaped, the same as made afresh."""
    _event, games = seated(players=8)
    first, second = games[0], games[1]
    seat = first.seats.order_by("position").first()
    seat.player.name = "O'Brien <b>&\""  # every character HTML escapes
    seat.player.save()
    pages = {}
    for game in (first, second):
        client, link = Client(), live(game)
        as_seat(client, link, 0)
        pages[game.pk] = _form(client.get(f"/t/{link.token}/").content.decode())
        names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
        for name in names:
            assert escape(name) in pages[game.pk]
        assert "\x00" not in pages[game.pk]
    assert "O&#x27;Brien &lt;b&gt;&amp;&quot;" in pages[first.pk]
    assert "Brien" not in pages[second.pk]
    # Made afresh (nothing kept), each page's form is the same.
    for game in (first, second):
        clear_all()
        client, link = Client(), live(game)
        as_seat(client, link, 0)
        assert _form(client.get(f"/t/{link.token}/").content.decode()) == pages[game.pk]


def test_the_key_names_everything_the_buttons_show():
    names = ["A", "B", "C", "D"]
    rules = PRESETS["ema"]

    def key(**kwargs) -> str | None:
        settings = {"rules": rules, "names": names, "initial": {"version": 3, "number": 2}}
        kept = HandForm(**{**settings, **kwargs}).kept
        return kept.key if kept is not None else None

    base = key()
    assert base is not None and key(initial={"version": 9, "number": 7}) == base
    # The names are put in as the page is drawn (with_seat_names), not kept: every table of
    # the event shares the buttons; how many seats there are is in the key.
    assert key(names=["A", "B", "C", "E"]) == base
    others = [
        key(names=["A", "B", "C"]),
        key(rules=PRESETS["tenhou"]),
        key(can_stop=True),
        key(clock_running=True),
        key(time_up=True, clock_running=True),
        key(names=["A", "B", "C", "Maximilian"]),  # the seats' buttons two to a line
    ]
    with translation.override("ja"):
        others.append(key())
    assert base not in others and len(set(others)) == len(others)
    # What someone pressed, or a stored hand being corrected, is never kept.
    assert key(data={"type": "ron"}) is None
    assert key(initial={"version": 3, "number": 2, "type": "tsumo"}) is None


def test_a_refused_form_shows_what_was_pressed_not_the_kept_buttons():
    _event, games = seated()
    game, client = games[0], Client()
    link = live(game)
    as_seat(client, link, 0)
    client.get(f"/t/{link.token}/")  # the fresh buttons kept
    refused = client.post(
        f"/t/{link.token}/",
        {"do": "hand", "version": game.version, "type": "tsumo", "winner": "2"},
    )
    assert refused.status_code == 400
    form = _form(refused.content.decode())
    assert re.search(r'name="winner" value="2"[^>]*checked', form)
    assert re.search(r'name="type" value="tsumo"[^>]*checked', form)


def test_a_name_too_wide_for_a_quarter_of_a_phone_puts_the_seats_two_to_a_line():
    """helper-51: the seats' buttons broke "Fische/r", "Maximili/an" four to a line on a phone.
    A word too wide for a button (not a short name, nor a Japanese name of short words) puts
    them two to a line there (`wide-names`, on a phone only), kept apart from the others."""
    from tournament.forms.hands import long_names

    assert not long_names(["Anna de Vries", "Li Wei", "山本 さくら", "José Ruiz"])
    assert long_names(["Anna", "Maximilian Fischer", "B", "C"])
    assert long_names(["寿限無寿限無", "A", "B", "C"])  # six Japanese letters, no space
    assert not long_names(["Jean-Luc Roux", "A", "B", "C"])  # a hyphen breaks
    _event, games = seated()
    game, client = games[0], Client()
    seat = game.seats.order_by("position").first()
    seat.player.name = "Maximilian Fischer"
    seat.player.save()
    link = live(game)
    as_seat(client, link, 0)
    form = _form(client.get(f"/t/{link.token}/").content.decode())
    assert 'class="chips cols-4 wide-names"' in form
    other, client = games[1], Client()
    as_seat(client, live(other), 0)
    assert "wide-names" not in _form(client.get(f"/t/{live(other).token}/").content.decode())
