"""One way to change a game (issue 45): `services.game_change` locks, checks the version and
the open stage, and says the change — so no service can forget one of them. The first tests
read the code: a service that locks a game, moves its version or calls `results_changed` by
itself fails them. The others hold what `GameChange` refuses at run time."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.tournament.factories import PLAYERS, make_event, scores_game
from tournament.models import AuditEntry, Entry, Event, Game, Stage
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.game_change import game_change
from tournament.services.games import game_correct

ROOT = Path(__file__).resolve().parents[2]
GAME_CHANGE = "tournament/services/game_change.py"
# The whole-file import rewrites every game and recounts every entry (players=None): a change
# of the event, not of a game.
IMPORT = "tournament/services/imports.py"


def _modules() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted((ROOT / "tournament").rglob("*.py"))
        if "migrations" not in path.parts
    ]


def _called(node: ast.AST) -> str:
    """The name a call calls: `f(...)` → f, `x.f(...)` → f."""
    assert isinstance(node, ast.Call)
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _calls(tree: ast.Module, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _called(n) == name]


def test_only_game_change_says_a_results_change():
    callers = {name for name, tree in _modules() if _calls(tree, "results_changed")}
    assert callers == {GAME_CHANGE, IMPORT}


def test_only_game_change_locks_a_game():
    for name, tree in _modules():
        if name == GAME_CHANGE:
            continue
        assert not _calls(tree, "game_event_lock"), name
        for call in _calls(tree, "event_lock"):
            # An event found through a game (`game.round.event_id`) is a game's change.
            assert "game" not in ast.unparse(call.args[0]), (name, call.lineno)
        for call in _calls(tree, "select_for_update"):
            assert name == "tournament/services/locks.py", (name, call.lineno)


def test_only_game_change_moves_a_games_version():
    for name, tree in _modules():
        if name == GAME_CHANGE:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Attribute):
                assert node.target.attr != "version", (name, node.lineno)
            if isinstance(node, ast.keyword) and node.arg == "update_fields":
                assert "'version'" not in ast.unparse(node.value), (name, node.lineno)


@pytest.fixture
def game(db) -> Game:
    return scores_game(make_event(), 1, 1, PLAYERS[:4])


@pytest.mark.django_db
def test_a_version_moved_but_not_said_is_refused(game):
    moved = pytest.raises(RuntimeError, match="not said")
    with moved, game_change(game, game.version) as change:
        change.save()
    game.refresh_from_db()
    assert game.version == 1  # rolled back with the change


@pytest.mark.django_db
def test_a_change_said_without_its_version_moved_is_refused(game):
    unmoved = pytest.raises(RuntimeError, match="version moved")
    with unmoved, game_change(game, game.version) as change:
        change.log("game.test")
    assert not AuditEntry.objects.filter(action="game.test").exists()


@pytest.mark.django_db
def test_a_replay_writes_nothing(game):
    with pytest.raises(RuntimeError), game_change(game, 7, done=lambda locked: True) as change:
        assert change.replay
        change.save()
        change.log("game.test")


@pytest.mark.django_db
def test_the_version_is_checked_on_the_way_in(game):
    with pytest.raises(ConflictError) as refused, game_change(game, game.version + 1):
        pytest.fail("entered a change of a game not at the form's version")
    assert (refused.value.code, refused.value.field) == ("game.conflict", "version")


@pytest.mark.django_db
def test_a_closed_stage_is_refused_even_unasked(game):
    Stage.objects.create(event=game.round.event, position=1, name="S", last_round=2, closed=True)
    with pytest.raises(ServiceError) as refused, game_change(game, game.version) as change:
        change.save()  # a service that forgot change.require_open()
        change.log("game.test")
    assert refused.value.code == "stage.closed_round"


@pytest.mark.django_db
def test_the_players_are_worked_out_from_the_locked_rows(game):
    event = game.round.event
    after = PLAYERS[4:8]
    data = {"round": 1, "table": 1, "seats": after, "scores": [40000, 30000, 20000, 10000]}
    version = Event.objects.get(pk=event.pk).version
    game_correct(game=game, data=data, expected_version=game.version)
    # The players who left the game are recounted to nothing, the ones who came to a game.
    games = dict(Entry.objects.filter(event=event).values_list("player__name", "games"))
    assert [games[p] for p in PLAYERS[:4]] == [0, 0, 0, 0]
    assert [games[p] for p in after] == [1, 1, 1, 1]
    assert Event.objects.get(pk=event.pk).version == version + 1


@pytest.mark.django_db
def test_entering_a_change_of_an_open_game_costs_two_queries(game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game.finished = False  # an open game: nobody counts before the change
    game.save(update_fields=["finished"])
    with CaptureQueriesContext(connection) as captured, game_change(game, game.version):
        # Expect 2 queries (and the transaction's savepoint):
        # * the event's row locked, found through the game
        # * the game's row locked, with its round and event
        pass
    sql = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(sql) == 2, sql
