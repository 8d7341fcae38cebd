"""The one way to change a game: `with game_change(game, expected_version) as change:`.

On the way in, in one transaction: the game's event is locked (services/locks.py, before any
other row, so two writes never wait on each other in a circle), then the game's row; the
version the writer's form saw is checked (ConflictError `game.conflict`). The service then only
decides what to write, and says what it wrote:

- `change.save(...)` writes the game's row with its version moved on (a phone holding the old
  version is refused from now on);
- `change.log(action, ...)`, after the write, records a change of results: the stage is checked
  open (`stage.closed_round`) unless the service asked earlier (`change.require_open`), and
  `changes.results_changed` recounts the players whose seats counted before or count now —
  worked out here from the locked rows, never passed in — moves the event's version and logs;
- `change.note(action, ...)` records a change beside the results (a table link, a dispute, the
  clock) with `changes.change_record`.

A change that moves a game's version without saying so, or says so without moving it, is a
bug, and `GameChange` raises at once (tests/tournament/test_game_change.py holds that no
service locks a game, moves its version or calls `results_changed` but through here).
`game_create(event)` is the same for a game that does not exist yet (`game_record`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from tournament.models import AuditEntry, Event, Game, Seat
from tournament.services.changes import change_record, results_changed
from tournament.services.channels import channels_results_told
from tournament.services.confirmation import AtTable
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.locks import event_lock, game_event_lock
from tournament.services.push import push_results_told
from tournament.services.ratings import order_key
from tournament.services.stages import stage_require_open


@dataclass
class GameChange:
    """What a service changing a game holds: the locked games and how to say what it wrote."""

    event: Event
    games: list[Game]  # the locked games, the one named first first
    user: Any = None
    # Who acts through a table link: a confirmation names its seat once the code proved it.
    at: AtTable | None = None
    # Results change (`log`) or a change beside them (`note`): said on the way in, because a
    # results change reads which players counted before anything is written.
    results: bool = True
    # The same write sent again (a double tap, a retry) found done: the service writes nothing.
    replay: bool = False
    # What the change has said so far, kept by its own methods:
    # The finished games' seats as they count — (player, place) each — and where each game
    # stands in the order of play, as locked: a results change compares them after writing.
    _places: dict[int, frozenset[tuple[int, int | None]]] = field(default_factory=dict, init=False)
    _keys: dict[int, str] = field(default_factory=dict, init=False)
    _versions: dict[int, int] = field(default_factory=dict, init=False)  # each game's version
    _rounds: set[int] = field(default_factory=set, init=False)  # the games' rounds as locked
    _open: set[int] = field(default_factory=set, init=False)  # rounds checked open already
    _seated: dict[int, list[Seat]] = field(default_factory=dict, init=False)  # seats written
    _gone: set[int] = field(default_factory=set, init=False)  # games deleted
    _new: set[int] = field(default_factory=set, init=False)  # games created, not yet logged
    # Each game's (finished, confirmation) as locked: what players are told of (push.py).
    _told: dict[int, tuple[bool, str]] = field(default_factory=dict, init=False)

    @classmethod
    def begin(
        cls, games: list[Game], user: Any, at: AtTable | None, *, results: bool
    ) -> GameChange:
        """A change of these locked games, as they stand before anything is written."""
        change = cls(event=games[0].round.event, games=games, user=user, at=at, results=results)
        change._versions = {game.pk: game.version for game in games}
        change._rounds = {game.round.number for game in games}
        change._told = {game.pk: (game.finished, game.confirmation) for game in games}
        if results:  # who counts, and where, before anything is written
            change._places = change._places_now(games)
            change._keys = {game.pk: change._key(game) for game in games}
        return change

    @property
    def game(self) -> Game:
        """The game the change is about (the first one named)."""
        return self.games[0]

    def check_version(self, expected_version: int, *, game: Game | None = None) -> None:
        """Refused (ConflictError) unless the game is still as the writer's form saw it — for
        a service that refuses other things first (`game_change` checks on the way in)."""
        if (game or self.game).version != expected_version:
            raise ConflictError("game.conflict", "version")

    def require_open(self, *rounds: int) -> None:
        """Refuse the change if the games' rounds, or `rounds` (a round a game moves to),
        belong to a closed stage: one query, none for rounds checked already. `log` checks
        anyway; a service asks earlier to refuse before its other checks."""
        numbers = (self._rounds | set(rounds)) - self._open
        if numbers:
            stage_require_open(self.event, rounds=numbers)
            self._open |= numbers

    def save(self, *fields: str, game: Game | None = None, whole: bool = False) -> None:
        """Write the game's row with its version moved on: `fields` the change wrote besides
        (or the `whole` row)."""
        game = game or self.game
        game.version += 1
        game.save(update_fields=None if whole else [*fields, "version", "updated_at"])

    def delete(self) -> None:
        """Delete the game (its seats, hands and links with it)."""
        self._gone.add(self.game.pk)
        self.game.delete()

    def created(self, game: Game, seats: list[Seat]) -> None:
        """A game this change created (`game_create`), with the seats written for it."""
        self.games.append(game)
        self._versions[game.pk] = game.version
        self._rounds.add(game.round.number)
        self._new.add(game.pk)
        self.seated(game, seats)

    def seated(self, game: Game, seats: list[Seat]) -> None:
        """The seats just written for `game`: who counts now is read from them, not again
        from the database."""
        self._seated[game.pk] = seats

    def log(
        self, action: str, *, detail: str = "", before: Any = None, after: Any = None
    ) -> AuditEntry:
        """Record a change of results, after writing it: the stage checked open, then
        `results_changed` for every player whose seat counted before or counts now."""
        if not self.results or self.replay:
            raise RuntimeError("log: a results change that is not one (results=False, replay)")
        live = self._live()
        for game in live:
            if game.pk not in self._new and game.version != self._versions[game.pk] + 1:
                raise RuntimeError(f"game {game.pk}: logged without its version moved once")
        self.require_open(*(game.round.number for game in live))
        now = self._places_now(live)
        keys = {game.pk: self._key(game) for game in live}
        entry = results_changed(
            event=self.event,
            players=sorted(
                {p for places in (*self._places.values(), *now.values()) for p, _ in places}
            ),
            rated=self._rated(now, keys),
            rounds={game.round.number for game in live},
            user=self.user,
            at=self.at,
            action=action,
            summary=self._summary(detail),
            before=before,
            after=after,
        )
        self._places, self._keys = now, keys
        # A result waiting for the table's other seats, a round's last table finished: their
        # players' phones told, by the queue once this commits.
        push_results_told(live, self._told)
        channels_results_told(self.event, live, self._told)  # a round's results posted (issue 49)
        self._told = {game.pk: (game.finished, game.confirmation) for game in live}
        self._said_for(live)
        return entry

    def note(
        self, action: str, *, detail: str = "", before: Any = None, after: Any = None
    ) -> AuditEntry:
        """Record a change beside the games' results (`results=False`): logged, the event's
        version moved on, the standings untouched."""
        if self.results or self.replay:
            raise RuntimeError("note: a change of results is logged (results=True)")
        entry = change_record(
            event=self.event,
            user=self.user,
            at=self.at,
            action=action,
            summary=self._summary(detail),
            before=before,
            after=after,
        )
        self._said_for(self._live())
        return entry

    def _live(self) -> list[Game]:
        return [game for game in self.games if game.pk is not None and game.pk not in self._gone]

    def _summary(self, detail: str) -> str:
        where = f"round {self.game.round.number} table {self.game.table}"
        return f"{where}: {detail}" if detail else where

    def _places_now(self, games: list[Game]) -> dict[int, frozenset[tuple[int, int | None]]]:
        """The seats of `games` that count (the finished games'), as (player, place) by game:
        from the seats just written, else read — one query at most."""
        finished = [game for game in games if game.finished]
        now: dict[int, set[tuple[int, int | None]]] = {game.pk: set() for game in finished}
        for game in finished:
            now[game.pk].update((s.player_id, s.rank) for s in self._seated.get(game.pk, []))
        unread = [game.pk for game in finished if game.pk not in self._seated]
        if unread:
            seats = Seat.objects.filter(game__in=unread)
            for game_id, player_id, rank in seats.values_list("game_id", "player_id", "rank"):
                now[game_id].add((player_id, rank))
        return {pk: frozenset(places) for pk, places in now.items()}

    def _key(self, game: Game) -> str:
        return order_key(self.event.held_on, self.event.pk, game.round.number, game.table)

    def _rated(
        self, now: dict[int, frozenset[tuple[int, int | None]]], keys: dict[int, str]
    ) -> list[str]:
        """Where, in the order of play, the games whose rated result this change moved stand,
        before and after it: a game finished or unfinished, its places or players changed, or
        moved to another round or table (services/ratings.py replays from the first)."""
        moved = []
        for pk in self._places.keys() | now.keys():
            if self._places.get(pk) != now.get(pk) or self._keys.get(pk) != keys.get(pk):
                moved += [k for k in (self._keys.get(pk), keys.get(pk)) if k is not None]
        return moved

    def _said_for(self, live: list[Game]) -> None:
        self._versions = {game.pk: game.version for game in live}
        self._seated, self._new = {}, set()

    def _check_said(self) -> None:
        """On the way out: nothing moved that was not said."""
        if self._new:
            raise RuntimeError("a game created but its change not logged")
        for game in self._live():
            if game.version != self._versions[game.pk]:
                raise RuntimeError(f"game {game.pk}: its version moved, the change not said")


def _lock(game: Game) -> Game:
    """The game's event locked first (found through the game, in the same query), then the
    game itself, read with its round and event (only its own row locked: the event's lock is
    the lighter one services/locks.py takes)."""
    if game_event_lock(game.pk) is None:
        raise ServiceError("game.deleted", "version")
    try:
        locked = Game.objects.select_for_update(of=("self",)).select_related("round__event")
        return locked.get(pk=game.pk)
    except Game.DoesNotExist:  # deleted between the two queries, by a write that held the lock
        raise ServiceError("game.deleted", "version") from None


@contextmanager
def game_change(
    game: Game,
    expected_version: int | None,
    *,
    user: Any = None,
    at: AtTable | None = None,
    other: Game | None = None,
    done: Callable[[Game], bool] | None = None,
    results: bool = True,
) -> Iterator[GameChange]:
    """Change `game` (and `other`, a second game changed with it: a seat swapped between two
    tables) in one transaction: locked, its version checked, the change said on the way out.

    `expected_version`: the version the writer's form saw (None: the writer needs none, or
    checks it after refusals of its own with `change.check_version`). `done(locked)`: whether
    a game not at that version is already as this very write would leave it (the same tap
    sent twice): then `change.replay` is set, no conflict raised, and nothing may be written.
    `results=False`: a change beside the results, said with `change.note`."""
    with transaction.atomic():
        named = [game] if other is None or other.pk == game.pk else [game, other]
        locked = {g.pk: _lock(g) for g in sorted(named, key=lambda g: g.pk)}  # no circles
        change = GameChange.begin([locked[g.pk] for g in named], user, at, results=results)
        first = change.game
        if expected_version is not None and first.version != expected_version:
            if done is not None and done(first):
                change.replay = True
            else:
                raise ConflictError("game.conflict", "version")
        yield change
        change._check_said()


@contextmanager
def game_create(event: Event, *, user: Any = None) -> Iterator[GameChange]:
    """A change that creates a game: the event locked; the service writes the game and says
    so (`change.created`, then `change.log`). Leaving without creating one is a replay."""
    with transaction.atomic():
        event_lock(event.pk)
        change = GameChange(event=event, games=[], user=user)
        yield change
        change._check_said()
