"""Writes for games: record, correct, remove. Each validates with the scoring engine first and
writes inside one transaction, so a game is never half-saved."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction

from scoring.evaluate import evaluate
from scoring.flow import GameFlow
from scoring.messages import fail
from scoring.parse import Doc, check_table_names
from scoring.rules import Ruleset
from scoring.settlement import Settlement
from tournament.models import Entry, Event, Game, Hand, Round, Seat
from tournament.services.changes import results_changed
from tournament.services.errors import ConflictError, ServiceError, engine_errors
from tournament.services.locks import event_lock
from tournament.services.stages import stage_require_open

MAX_TABLE = 9999
GAME_KEYS = ("round", "table", "seats", "scores", "deposits", "busts", "yakuman", "hands")


@dataclass
class Evaluated:
    """A game checked by the engine, ready to write."""

    round: int
    table: int
    seats: list[str]
    mode: str
    scores: list[int]
    deposits: int
    busts: list[dict[str, Any]]
    yakuman: list[dict[str, Any]]
    finished: bool
    settlement: Settlement
    hands: list[dict[str, Any]] = field(default_factory=list)  # input, with what the flow derived


@dataclass(frozen=True)
class AtTable:
    """Who made a change through a table link: the table, the seat the phone proved with that
    seat's code, and the phone (a random id its session holds; "" when unknown)."""

    table: int
    seat: int | None = None
    phone: str = ""


def hold_for_confirmation(locked: Game, ev: Evaluated, at: AtTable | None) -> Evaluated:
    """A result a table entered waits for another seat: the game stays open, out of the
    standings, the entering seat marked. What an organizer enters counts at once."""
    if at is not None and ev.finished and locked.round.event.table_entry == "tables":
        locked.confirmation, locked.submitted_seat = "waiting", at.seat
        locked.submitted_phone = at.phone
        return replace(ev, finished=False)
    locked.confirmation, locked.submitted_seat, locked.dispute = "", None, ""
    locked.submitted_phone = ""
    return ev


def game_evaluate(rules: Ruleset, data: Any, played: GameFlow | None = None) -> Evaluated:
    """Check a game document (the event-file shape) with the engine. Raises ServiceError.
    `played`: the flow of its first hands, already played (scoring.evaluate)."""
    with engine_errors():
        return _evaluate(rules, data, played)


def _evaluate(rules: Ruleset, data: Any, played: GameFlow | None = None) -> Evaluated:
    doc = Doc(data).only(*GAME_KEYS)
    rnd = doc.int("round", low=1, high=999)
    # Up to 9,999 tables: a 10,000-player online qualifier seats 2,500 a round (issue 16).
    table = doc.int("table", low=1, high=MAX_TABLE)
    seats = doc.list("seats")
    if len(seats) not in rules.player_counts:
        counts = " or ".join(str(n) for n in rules.player_counts)
        raise fail("players.count", "seats", venue=rules.slug, counts=counts, players=len(seats))
    seats = check_table_names(seats, "seats")
    n = len(seats)
    result = evaluate(rules, n, data, played)
    derived = [
        {
            "data": raw,
            "label": r.label,
            "dealer": r.dealer,
            "honba": r.honba,
            "deltas": r.deltas,
            "scores": r.scores,
            "deposits": r.deposits,
        }
        for raw, r in zip(data.get("hands") or [], result.records, strict=False)
    ]
    return Evaluated(
        rnd,
        table,
        list(seats),
        result.mode,
        result.scores,
        result.deposits,
        [b.to_json() for b in result.busts],
        [y.to_json() for y in result.yakuman],
        result.over,
        result.settlement,
        derived,
    )


def game_to_data(
    game: Game, seats: list[Seat] | None = None, hands: list[Hand] | None = None
) -> dict[str, Any]:
    """The game as an event file holds it (the input, never the derived numbers)."""
    seats = seats if seats is not None else list(game.seats.select_related("player"))
    out: dict[str, Any] = {
        "round": game.round.number,
        "table": game.table,
        "seats": [s.player.name for s in sorted(seats, key=lambda s: s.position)],
    }
    if game.mode == "hands":
        hands = hands if hands is not None else list(game.hands.all())
        out["hands"] = [h.data for h in sorted(hands, key=lambda h: h.number)]
    else:
        out["scores"] = [s.score for s in sorted(seats, key=lambda s: s.position)]
        out["deposits"] = game.deposits
        out["busts"] = game.busts
        out["yakuman"] = game.yakuman
    return out


def check_seats(ev: Evaluated, entries: dict[str, Any], taken: dict[tuple[int, str], int]) -> None:
    """Every seat a registered player, none already at another table of the round (`taken`
    maps (round, name) to that table). Shared by single saves and whole-file imports."""
    for i, name in enumerate(ev.seats):
        if name not in entries:
            raise ServiceError("game.unregistered", f"seats[{i}]", name=name)
    for i, name in enumerate(ev.seats):
        table = taken.get((ev.round, name))
        if table is not None:
            raise ServiceError(
                "game.plays_elsewhere", f"seats[{i}]", name=name, round=ev.round, table=table
            )


def _check_players(event: Event, ev: Evaluated, exclude_game: Game | None) -> dict[str, Any]:
    entries = {
        e.player.name: e.player
        for e in Entry.objects.filter(event=event, player__name__in=ev.seats).select_related(
            "player"
        )
    }
    others = Seat.objects.filter(
        round__event=event, round__number=ev.round, player__name__in=ev.seats
    ).order_by()  # the default order joins four tables for nothing
    if exclude_game is not None:
        others = others.exclude(game=exclude_game)
    taken = {
        (ev.round, name): table for name, table in others.values_list("player__name", "game__table")
    }
    check_seats(ev, entries, taken)
    return entries


def game_rows(game: Game, ev: Evaluated, players: dict[str, Any]) -> tuple[list[Seat], list[Hand]]:
    """The seats and hands to store for an evaluated game (not saved yet)."""
    results = {p.seat: p for p in ev.settlement.players}
    seats = [
        Seat(
            game=game,
            round=game.round,
            position=i,
            player=players[name],
            # A game still played hand by hand keeps its running scores in its last hand
            # (one row a hand: game_hand_add); its seats get their scores when it ends.
            score=ev.scores[i] if ev.mode == "scores" or ev.finished else None,
            result_score=results[i].score if ev.finished else None,
            rank=results[i].rank if ev.finished else None,
            points=Decimal(str(results[i].points)) if ev.finished else None,
            chips=results[i].chips if ev.finished else 0,
            breakdown=results[i].breakdown if ev.finished else {},
        )
        for i, name in enumerate(ev.seats)
    ]
    hands = [_hand_row(game, i + 1, h) for i, h in enumerate(ev.hands)]
    return seats, hands


def _hand_row(game: Game, number: int, h: dict[str, Any]) -> Hand:
    return Hand(
        game=game,
        number=number,
        data=h["data"],
        label=h["label"],
        dealer=h["dealer"],
        honba=h["honba"],
        deltas=h["deltas"],
        scores=h["scores"],
        deposits=h["deposits"],
    )


def game_fill(game: Game, ev: Evaluated) -> Game:
    """Copy an evaluated game's own fields onto the row (not saved)."""
    game.mode = ev.mode
    game.deposits = ev.deposits if ev.mode == "scores" else 0
    game.busts = ev.busts if ev.mode == "scores" else []
    game.yakuman = ev.yakuman if ev.mode == "scores" else []
    game.finished = ev.finished
    return game


def _write(game: Game, ev: Evaluated, players: dict[str, Any]) -> None:
    game_fill(game, ev).save()
    seats, hands = game_rows(game, ev, players)
    Seat.objects.bulk_create(seats)
    Hand.objects.bulk_create(hands)


def _same(game: Game, ev: Evaluated) -> bool:
    """Whether the stored game is exactly what `ev` would store (a replayed save)."""
    seats = list(game.seats.select_related("player").order_by("position"))
    stored = game_to_data(game, seats)
    wanted: dict[str, Any] = {"round": ev.round, "table": ev.table, "seats": ev.seats}
    if ev.mode == "hands":
        wanted["hands"] = [h["data"] for h in ev.hands]
    else:
        wanted.update(scores=ev.scores, deposits=ev.deposits, busts=ev.busts, yakuman=ev.yakuman)
    return game.mode == ev.mode and stored == wanted


def _recorded_already(ev: Evaluated) -> ServiceError:
    return ServiceError("game.recorded", "table", round=ev.round, table=ev.table)


@transaction.atomic
def game_record(*, event: Event, data: Any, user: Any = None) -> Game:
    """Record a new game (final scores or hands) and its derived results. The same save twice
    (a double tap, a retry) records it once: the second finds it and changes nothing."""
    ev = game_evaluate(event.rules, data)
    event_lock(event.pk)
    stage_require_open(event, rounds=[ev.round])
    existing = Game.objects.filter(round__event=event, round__number=ev.round, table=ev.table)
    game = existing.select_related("round").first()
    if game is not None:
        if game_has_result(game) and _same(game, ev):
            return game
        raise _recorded_already(ev)
    players = _check_players(event, ev, None)
    rnd, _created = Round.objects.get_or_create(event=event, number=ev.round)
    game = Game(round=rnd, table=ev.table)
    try:
        with transaction.atomic():  # a savepoint: the unique indexes decide between racers
            _write(game, ev, players)
    except IntegrityError:
        raise _recorded_already(ev) from None
    results_changed(
        event=event,
        players=[p.pk for p in players.values()] if game.finished else [],
        user=user,
        action="game.record",
        summary=f"round {ev.round} table {ev.table}",
        after=data,
    )
    return game


def _lock(game: Game) -> Game:
    """The game's event locked first (services/locks.py), then the game itself."""
    event_id = Game.objects.filter(pk=game.pk).values_list("round__event_id", flat=True).first()
    if event_id is None:
        raise ServiceError("game.deleted", "version")
    event_lock(event_id)
    return Game.objects.select_for_update().select_related("round__event").get(pk=game.pk)


def _check_version(locked: Game, expected_version: int) -> None:
    if locked.version != expected_version:
        raise ConflictError("game.conflict", "version")


def _replace(
    locked: Game,
    ev: Evaluated,
    data: Any,
    *,
    user: Any,
    action: str,
    summary: str = "",
    logged: tuple[Any, Any] | None = None,
    at: AtTable | None = None,
    hold: bool = True,
) -> Game:
    """Write `ev` over a locked game. Refused if the game's round, or the round it moves to,
    belongs to a closed stage. The log keeps the game before and after, or `logged` (one hand
    added or taken back: just that hand, not the whole game twice). A result entered `at` a
    table waits for confirmation unless `hold` is off (the confirmation itself)."""
    event = locked.round.event
    stage_require_open(event, rounds=[locked.round.number, ev.round])
    if logged is not None:
        before, after = logged
    else:
        before, after = (game_to_data(locked) if game_has_result(locked) else None), data
    players = _check_players(event, ev, locked)
    if ev.round != locked.round.number or ev.table != locked.table:
        rnd, _ = Round.objects.get_or_create(event=event, number=ev.round)
        if Game.objects.filter(round=rnd, table=ev.table).exclude(pk=locked.pk).exists():
            raise _recorded_already(ev)
        locked.round, locked.table = rnd, ev.table
    counted = list(locked.seats.values_list("player_id", flat=True)) if locked.finished else []
    locked.seats.all().delete()
    locked.hands.all().delete()
    locked.version += 1
    _write(locked, hold_for_confirmation(locked, ev, at if hold else None), players)
    if locked.finished:
        counted += [p.pk for p in players.values()]
    results_changed(
        event=event,
        players=counted,  # the players whose figures this write may change
        user=user,
        at=at,
        action=action,
        summary=f"round {ev.round} table {ev.table}" + (f": {summary}" if summary else ""),
        before=before,
        after=after,
    )
    return locked


def _hand_logged(data: dict[str, Any], number: int, row: dict[str, Any]) -> dict[str, Any]:
    """One hand as the change log keeps it: where, who sat where, the hand and what it paid.
    `row`: the hand as derived (label, data, deltas), evaluated or stored."""
    return {
        "round": data["round"],
        "table": data["table"],
        "seats": data["seats"],
        "number": number,
        "label": row["label"],
        "hand": row["data"],
        "deltas": row["deltas"],
    }


def game_has_result(game: Game) -> bool:
    """Seated games wait for a result; one with final scores or any hand has one."""
    return game.finished or game.mode == "hands"


@transaction.atomic
def game_correct(
    *, game: Game, data: Any, expected_version: int, user: Any = None, at: AtTable | None = None
) -> Game:
    """Replace a game's record (or give a seated game its first). Refused if someone saved
    it since `expected_version` — unless what is stored is exactly this save (a double tap,
    a retry after a lost answer): then nothing is written twice."""
    locked = _lock(game)
    rules = locked.round.event.rules
    if locked.version != expected_version and game_has_result(locked):
        try:
            if _same(locked, game_evaluate(rules, data)):
                return locked
        except ServiceError:
            pass  # not the same save: the conflict below says what happened
    _check_version(locked, expected_version)
    ev = game_evaluate(rules, data)
    action = "game.correct" if game_has_result(locked) else "game.record"
    return _replace(locked, ev, data, user=user, action=action, at=at)


def _hands_data(game: Game) -> dict[str, Any]:
    """The game as an event file holds it, kept hand by hand (none yet if it was not)."""
    data = game_to_data(game)
    if game.mode != "hands":
        data = {"round": data["round"], "table": data["table"], "seats": data["seats"]}
        data["hands"] = []
    return data


def _plays_on(locked: Game, ev: Evaluated) -> bool:
    """A hand added to (or taken back from) a game that was and stays in play: nothing but
    that hand changes — no seat, no result, no standings."""
    return (
        locked.mode == "hands"
        and not locked.finished
        and not locked.confirmation
        and ev.mode == "hands"
        and not ev.finished
    )


def _hands_changed(
    locked: Game, user: Any, at: AtTable | None, action: str, number: int, logged: tuple
) -> Game:
    """The game's version moves on (a phone holding the old one is refused) and the change
    log keeps the hand."""
    locked.version += 1
    locked.save(update_fields=["version", "updated_at"])
    results_changed(
        event=locked.round.event,
        players=[],  # no seat, no result: no entry either
        user=user,
        at=at,
        action=action,
        summary=f"round {locked.round.number} table {locked.table}: hand {number}",
        before=logged[0],
        after=logged[1],
    )
    return locked


@transaction.atomic
def game_hand_add(
    *,
    game: Game,
    hand: Any,
    expected_version: int,
    user: Any = None,
    at: AtTable | None = None,
    played: GameFlow | None = None,
) -> Game:
    """Play one more hand at a table recorded hand by hand; the game closes itself when the
    flow says it is over. An error names the field of the hand (`result.wins[1].seat`).
    Refused (ConflictError) unless the game is still at `expected_version`: a form loaded
    before another phone's save is never written as a hand of its own.

    `played`: the flow of `game`'s hands as the caller replayed them (the entry page showed
    them): when nothing has changed since `game` was read, the new hand is played on it and
    the engine does not replay the game again. The caller gives it up."""
    locked = _lock(game)
    # The caller's flow holds these very hands if the game has not moved since it was read
    # (every change moves its version on) — checked here, under the lock.
    same = played is not None and game.version == locked.version
    return _hand_add(locked, hand, expected_version, user, at, played if same else None)


def _hand_add(
    locked: Game,
    hand: Any,
    expected_version: int,
    user: Any,
    at: AtTable | None,
    played: GameFlow | None,
) -> Game:
    """`game_hand_add` on a game locked already; `played` holds its hands if given."""
    if locked.version == expected_version + 1 and locked.mode == "hands":
        last = locked.hands.order_by("-number").values_list("data", flat=True).first()
        if last == hand:  # this very hand, saved by a tap whose answer was not seen
            return locked
    _check_version(locked, expected_version)
    if locked.mode == "scores" and locked.finished:
        raise ServiceError("game.by_scores", "type")
    data = _hands_data(locked)
    index = len(data["hands"])
    data["hands"].append(hand)
    continued = played if played is not None and len(played.records) == index else None
    try:
        ev = game_evaluate(locked.round.event.rules, data, continued)
        logged = _hand_logged(data, index + 1, ev.hands[index])
        if _plays_on(locked, ev):  # one row: the hand (and the game's version)
            stage_require_open(locked.round.event, rounds=[locked.round.number])
            _hand_row(locked, index + 1, ev.hands[index]).save()
            return _hands_changed(locked, user, at, "game.hand", index + 1, (None, logged))
        return _replace(
            locked,
            ev,
            data,
            user=user,
            action="game.hand",
            summary=f"hand {index + 1}",
            logged=(None, logged),
            at=at,
        )
    except ServiceError as exc:
        prefix = f"hands[{index}]"
        if exc.field == prefix or exc.field.startswith(prefix + "."):
            field = exc.field[len(prefix) + 1 :]
            raise type(exc)(exc.code, field, **exc.params) from None
        raise


@transaction.atomic
def game_hand_undo(
    *, game: Game, expected_version: int, user: Any = None, at: AtTable | None = None
) -> dict[str, Any]:
    """Take back the last hand (the game reopens if that hand had ended it). Returns the hand
    taken back as the log keeps it (number, label, hand, deltas): the page says what went."""
    return _hand_undo(_lock(game), expected_version, user, at)


def _hand_undo(
    locked: Game, expected_version: int, user: Any, at: AtTable | None
) -> dict[str, Any]:
    """`game_hand_undo` on a game locked already."""
    _check_version(locked, expected_version)
    data = _hands_data(locked)
    if locked.mode != "hands" or not data["hands"]:
        raise ServiceError("game.no_hand", "version")
    last = locked.hands.order_by("-number").values("pk", "label", "data", "deltas").first()
    taken_back = _hand_logged(data, len(data["hands"]), last)
    data["hands"].pop()
    ev = game_evaluate(locked.round.event.rules, data)
    if _plays_on(locked, ev):  # one row: the hand goes (and the game's version moves on)
        stage_require_open(locked.round.event, rounds=[locked.round.number])
        Hand.objects.filter(pk=last["pk"]).delete()
        number = len(data["hands"]) + 1
        _hands_changed(locked, user, at, "game.undo", number, (taken_back, None))
        return taken_back
    _replace(
        locked,
        ev,
        data,
        user=user,
        action="game.undo",
        summary=f"hand {len(data['hands']) + 1}",
        logged=(taken_back, None),
        at=at,
    )
    return taken_back


@transaction.atomic
def game_hand_replace(
    *,
    game: Game,
    hand: Any,
    expected_version: int,
    number: int,
    user: Any = None,
    at: AtTable | None = None,
) -> Game:
    """The conflict screen's "replace the last hand with mine": hand `number`, which another
    phone saved at `expected_version` while this one was typing, is taken back and `hand`
    played in its place — one transaction, refused if the table has moved on since the
    screen was shown (a stale save is never written as a hand of its own)."""
    locked = _lock(game)
    last = locked.hands.order_by("-number").values_list("number", "data").first()
    if locked.version == expected_version + 2 and last == (number, hand):
        return locked  # this very replacement, sent twice
    _check_version(locked, expected_version)
    if locked.mode != "hands" or last is None or last[0] != number:
        raise ConflictError("game.conflict", "version")
    # Under the one lock taken above: the undo moves the version on, the hand goes on from it.
    _hand_undo(locked, expected_version, user, at)
    return _hand_add(locked, hand, expected_version + 1, user, at, None)


@transaction.atomic
def game_remove(*, game: Game, user: Any = None) -> None:
    locked = _lock(game)
    event = locked.round.event
    stage_require_open(event, rounds=[locked.round.number])
    before = game_to_data(locked)
    counted = list(locked.seats.values_list("player_id", flat=True)) if locked.finished else []
    locked.delete()
    results_changed(
        event=event,
        players=counted,
        user=user,
        action="game.remove",
        summary=f"round {before['round']} table {before['table']}",
        before=before,
        after={"game": game.pk},  # the id it had: a second tap on its page is told, not 404
    )
