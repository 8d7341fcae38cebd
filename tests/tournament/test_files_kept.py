"""Every download's bytes are kept by its one stamp (exports/files.py, selectors/downloads.py):
asked again with nothing changed, a file is not made again; after each write that changes what
it shows, the bytes are the new ones (each write below is one a too-narrow stamp would miss);
a hand, which recounts nobody, leaves the standings file kept."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation

from tests.tournament.factories import league_data, make_event, signed_up
from tests.tournament.test_statistics import HANDS, SEATS, small_event
from tournament.exports import files
from tournament.exports.ema import export_ema
from tournament.exports.entrants import export_entrants
from tournament.exports.plans import export_plan
from tournament.exports.ratings import export_ratings
from tournament.exports.series import export_series
from tournament.exports.standings import export_standings
from tournament.exports.statistics import export_statistics
from tournament.exports.teams import export_teams
from tournament.models import Entry, Event, Game, Player, Series, Venue
from tournament.selectors.plans import plan_of
from tournament.selectors.ratings import pool_of
from tournament.selectors.series import series_standings
from tournament.services.events import event_create, event_rename
from tournament.services.games import game_correct, game_record
from tournament.services.hands import game_hand_add
from tournament.services.imports import event_import
from tournament.services.penalties import penalty_give
from tournament.services.plans import plan_make, plan_remove
from tournament.services.players import player_rename
from tournament.services.profiles import entry_profile_set
from tournament.services.ratings import ratings_catch_up_all
from tournament.services.registration import (
    registration_set,
    signup_approve,
    signup_refuse,
    signup_withdraw,
)
from tournament.services.registration_list import signup_move
from tournament.services.rounds import round_seat
from tournament.services.series import (
    series_add_event,
    series_create,
    series_remove_event,
    series_set_rule,
)
from tournament.services.teams import teams_set

pytestmark = pytest.mark.django_db

NAMES = [f"P{i:02d}" for i in range(8)]
DRAW = {"result": {"type": "draw", "tenpai": [0]}}


def _now(event: Event) -> Event:
    """The event as a request reads it (organizer views take its venue along)."""
    return Event.objects.select_related("venue").get(pk=event.pk)


def _counted(monkeypatch: pytest.MonkeyPatch, name: str) -> list[tuple]:
    """Each call of files.py's `name` (an export function) from now on."""
    made: list[tuple] = []
    real = getattr(files, name)

    def counting(*args: Any) -> Any:
        made.append(args)
        return real(*args)

    monkeypatch.setattr(files, name, counting)
    return made


def _seated(slug: str = "kept", venue: Venue | None = None) -> tuple[Event, Game, Game]:
    event = event_create(
        name=f"Event {slug}", slug=slug, ruleset=None if venue else "baba", venue=venue,
        players=NAMES,
    )  # fmt: skip
    round_seat(event=event, rng=random.Random(4))
    first, second = Game.objects.filter(round__event=event).order_by("table")
    return _now(event), first, second


def _finish(game: Game, scores: list[int]) -> None:
    game.refresh_from_db()
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    data = {"round": game.round.number, "table": game.table, "seats": names, "scores": scores}
    game_correct(game=game, data=data, expected_version=game.version, replace_hands=True)


def _hand(game: Game) -> None:
    game.refresh_from_db()
    game_hand_add(game=game, hand=DRAW, expected_version=game.version)


class Moves:
    """One file of an event followed through writes: `kept()` asks for it as a download does,
    `moved(write)` says whether the write changed the bytes — and checks that what is served
    then is what the export makes now (never an older file)."""

    def __init__(self, event: Event, ask: Callable[[Event], bytes], make: Callable[[Event], bytes]):
        self.event, self.ask, self.make = event, ask, make
        self.last = self.kept()

    def kept(self) -> bytes:
        self.event = _now(self.event)
        return self.ask(self.event)

    def moved(self, write: Callable[[], Any]) -> bool:
        write()
        now = self.kept()
        assert now == self.make(self.event)
        moved, self.last = now != self.last, now
        return moved


def test_each_event_file_is_made_once_while_nothing_changes(monkeypatch):
    venue = Venue.objects.create(name="Hall", slug="hall", preset="baba")
    event, first, _second = _seated(venue=venue)
    _finish(first, [40000, 30000, 20000, 10000])
    teams_set(event=event, teams={"Red": NAMES[:4], "Blue": NAMES[4:]})
    plan_make(event=event, rounds=2)
    event = _now(event)
    asks = {
        "export_standings": lambda: files.standings_file(event, "csv"),
        "export_statistics": lambda: files.statistics_file(event, "csv"),
        "export_teams": lambda: files.teams_file(event, "csv"),
        "export_ema": lambda: files.ema_file(event, "csv"),
        "export_entrants": lambda: files.entrants_file(event, "csv"),
        "export_plan": lambda: files.plan_file(event, "csv"),
    }
    for name, ask in asks.items():
        made = _counted(monkeypatch, name)
        assert ask() == ask()
        assert len(made) == 1, name


def test_the_standings_file_is_kept_through_a_hand_and_remade_by_what_moves_its_rows(
    monkeypatch,
):
    event, first, second = _seated()
    _finish(first, [40000, 30000, 20000, 10000])
    csv = Moves(
        event, lambda e: files.standings_file(e, "csv"), lambda e: export_standings(e, "csv")
    )
    made = _counted(monkeypatch, "export_standings")
    # A hand moves the event's version, recounts nobody: the same file, not made again.
    assert not csv.moved(lambda: _hand(second))
    assert made == []
    assert csv.moved(lambda: _finish(second, [90000, 10000, 0, 0]))  # a result
    assert csv.moved(lambda: _finish(first, [10000, 20000, 30000, 40000]))  # a correction
    assert csv.moved(lambda: player_rename(player=Player.objects.get(name="P00"), name="P00b"))
    assert csv.moved(lambda: penalty_give(event=csv.event, player="P01", points=-20, reason="x"))
    json = Moves(
        csv.event, lambda e: files.standings_file(e, "json"), lambda e: export_standings(e, "json")
    )
    assert json.moved(lambda: event_rename(event=json.event, name="Renamed"))  # the JSON names it


def test_the_statistics_file_moves_with_the_hands_and_a_rename():
    event = small_event("stats")
    stats = Moves(
        event, lambda e: files.statistics_file(e, "csv"), lambda e: export_statistics(e, "csv")
    )
    hands = [*HANDS, *[{"result": {"type": "draw", "tenpai": []}}] * 5]
    data = {"round": 2, "table": 1, "seats": SEATS, "hands": hands}
    assert stats.moved(lambda: game_record(event=stats.event, data=data))
    assert stats.moved(lambda: player_rename(player=Player.objects.get(name="Aoki"), name="Ao"))


def test_the_team_file_moves_with_a_result_the_teams_and_a_rename():
    event, first, second = _seated()
    teams_set(event=event, teams={"Red": NAMES[:4], "Blue": NAMES[4:]})
    teams = Moves(event, lambda e: files.teams_file(e, "csv"), lambda e: export_teams(e, "csv"))
    assert teams.moved(lambda: _finish(first, [40000, 30000, 20000, 10000]))
    assert not teams.moved(lambda: _hand(second))
    assert teams.moved(
        lambda: teams_set(event=teams.event, teams={"Red": NAMES[:2], "Blue": NAMES[2:]})
    )
    assert teams.moved(lambda: player_rename(player=Player.objects.get(name="P00"), name="P00b"))


def test_the_ema_file_moves_with_a_result_a_profile_and_the_venue_s_name():
    venue = Venue.objects.create(name="Hall", slug="hall", preset="baba")
    event, first, second = _seated(venue=venue)
    _finish(first, [40000, 30000, 20000, 10000])
    ema = Moves(event, lambda e: files.ema_file(e, "csv"), lambda e: export_ema(e, "csv"))
    assert ema.moved(lambda: _finish(second, [40000, 30000, 20000, 10000]))
    entry = Entry.objects.get(event=event, player__name="P00")
    for profile in ({"ema": "04090012"}, {"country": "DE"}, {"family_name": "P"}):
        assert ema.moved(lambda p=profile: entry_profile_set(entry=entry, profile=p)), profile
    # The admin renames a venue without moving any event.
    assert ema.moved(lambda: Venue.objects.filter(pk=venue.pk).update(name="Great Hall"))


def test_the_entrants_file_moves_with_every_sign_up_it_lists(monkeypatch):
    event = make_event(slug="signups", players=[])
    registration_set(event=event, open=True, capacity=2, approval=False)
    entrants = Moves(
        event, lambda e: files.entrants_file(e, "csv"), lambda e: export_entrants(e, "csv")
    )
    made = _counted(monkeypatch, "export_entrants")
    assert entrants.kept() == entrants.last and made == []
    signups = {}
    for name in ("Aoki", "Baba", "Chiba", "Doi"):  # two registered, two waiting
        assert entrants.moved(lambda n=name: signups.setdefault(n, signed_up(entrants.event, n)))
    assert entrants.moved(lambda: signup_move(signup=signups["Doi"], to="top"))
    assert entrants.moved(lambda: signup_refuse(signup=signups["Chiba"]))
    assert entrants.moved(lambda: signup_withdraw(signup=signups["Aoki"]))  # Doi moves up
    # Approval turned on: no sign-up moves, nor the file.
    assert not entrants.moved(lambda: registration_set(event=entrants.event, approval=True))
    pending = {}
    assert entrants.moved(lambda: pending.setdefault("Endo", signed_up(entrants.event, "Endo")))
    assert entrants.moved(lambda: signup_approve(event=entrants.event))  # full: Endo waits
    assert entrants.moved(lambda: registration_set(event=entrants.event, capacity=3))  # moves up


def test_the_plan_file_moves_with_the_plan_and_is_none_without_one(monkeypatch):
    event, _first, _second = _seated()
    plan_make(event=event, rounds=2)

    def fresh(e: Event) -> bytes | None:
        plan = plan_of(e)
        return export_plan(e, plan, "csv") if plan is not None else None

    plan = Moves(event, lambda e: files.plan_file(e, "csv"), fresh)
    assert plan.moved(lambda: plan_make(event=plan.event, rounds=3))
    assert plan.moved(lambda: plan_remove(event=plan.event))
    assert plan.last is None
    made = _counted(monkeypatch, "export_plan")
    assert files.plan_file(plan.event, "csv") is None and made == []


def _imported(slug: str, date: str) -> Event:
    event = event_import({**league_data(8, 2), "slug": slug, "date": date})
    ratings_catch_up_all()
    return _now(event)


def _correct_first_game(event: Event) -> None:
    game = Game.objects.filter(round__event=event).order_by("round__number", "table").first()
    seats = [s.player.name for s in game.seats.order_by("position")]
    data = {"round": 1, "table": 1, "seats": seats, "scores": [9500, 17500, 31000, 42000]}
    game_correct(game=game, data=data, expected_version=game.version)


def test_the_series_file_moves_with_its_events_rule_and_members(monkeypatch):
    first, second = _imported("a", "2026-11-01"), _imported("b", "2026-11-08")
    season = series_create(name="Season", slug="season")
    series_add_event(series=season, slug="a")

    def ask(_e: Event) -> bytes:
        return files.series_file(Series.objects.get(pk=season.pk), "csv")

    def fresh(_e: Event) -> bytes:
        return export_series(series_standings(Series.objects.get(pk=season.pk)), "csv")

    kept = Moves(first, ask, fresh)
    made = _counted(monkeypatch, "export_series")
    assert kept.kept() == kept.last and made == []
    assert kept.moved(lambda: series_add_event(series=season, slug="b"))
    assert kept.moved(lambda: _correct_first_game(second))  # a member's result
    assert kept.moved(lambda: series_set_rule(series=season, rule="best", best_of=1, min_games=0))
    assert kept.moved(lambda: series_remove_event(series=season, event_id=first.pk))


def test_the_ratings_file_moves_with_a_replay_and_a_rename(monkeypatch):
    event = _imported("a", "2026-11-01")
    pool = pool_of(None, "Ratings")
    kept = Moves(
        event, lambda _e: files.ratings_file(pool, "csv"), lambda _e: export_ratings(pool, "csv")
    )
    made = _counted(monkeypatch, "export_ratings")
    assert kept.kept() == kept.last and made == []
    # The correction marks the pool due; the file moves when the queue replays it.
    assert not kept.moved(lambda: _correct_first_game(event))
    assert kept.moved(ratings_catch_up_all)
    assert kept.moved(lambda: _imported("b", "2026-11-08"))  # a newcomer's games
    name = "Player 0000"
    assert kept.moved(lambda: player_rename(player=Player.objects.get(name=name), name="Renamed"))
    # The minimum of games is the file's own.
    assert files.ratings_file(pool, "csv", 3) == export_ratings(pool, "csv", 3)


def test_files_without_words_are_one_file_in_every_language():
    """CSV and JSON hold keys and codes: kept once for every reader (`files._words`)."""
    venue = Venue.objects.create(name="Hall", slug="hall", preset="baba")
    event, first, _second = _seated(venue=venue)
    _finish(first, [40000, 30000, 20000, 10000])
    teams_set(event=event, teams={"Red": NAMES[:4], "Blue": NAMES[4:]})
    registration_set(event=event, open=True)
    signed_up(event, "Aoki")
    plan_make(event=event, rounds=2)
    event = _now(event)
    season = series_create(name="Season", slug="season")
    series_add_event(series=season, slug=event.slug)
    ratings_catch_up_all()
    makes = [
        lambda f: export_standings(event, f),
        lambda f: export_statistics(event, f),
        lambda f: export_teams(event, f),
        lambda f: export_ema(event, f),
        lambda f: export_entrants(event, f),
        lambda f: export_plan(event, plan_of(event), f),
        lambda f: export_series(series_standings(season), f),
        lambda f: export_ratings(pool_of(season, season.name), f),
    ]
    for make in makes:
        for fmt in ("csv", "json"):
            with translation.override("en"):
                english = make(fmt)
            with translation.override("ja"):
                assert make(fmt) == english
