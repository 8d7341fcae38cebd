"""A game as data: checked by the engine (`game_evaluate`), as the event file holds it
(`game_to_data`), and as the rows that store it (`game_rows`, `game_fill`). Nothing here writes;
services/games.py and services/hands.py do, and the whole-file import (services/imports.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, TypedDict

from scoring.evaluate import evaluate
from scoring.flow import GameFlow
from scoring.messages import fail
from scoring.parse import Doc, check_table_names
from scoring.rules import Ruleset
from scoring.settlement import Settlement
from tournament.models import Game, Hand, Seat
from tournament.selectors.sheets import with_players
from tournament.services.errors import ServiceError, engine_errors

# Up to 9,999 tables: a 10,000-player online qualifier seats 2,500 a round (issue 16).
MAX_TABLE = 9999
GAME_KEYS = (
    "round", "table", "seats", "scores", "deposits", "busts", "yakuman", "hands", "rounding"
)  # fmt: skip


class DerivedHand(TypedDict):
    """A hand as entered (`data`) with what the engine's flow derived from it: what its row
    stores (`hand_row`)."""

    data: Any
    label: str
    dealer: int
    honba: int
    deltas: list[int]
    scores: list[int]
    deposits: int


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
    hands: list[DerivedHand] = field(default_factory=list)
    rounding: str = ""  # the game's own rounding (`game_rounding`); "" the event's


def game_evaluate(rules: Ruleset, data: Any, played: GameFlow | None = None) -> Evaluated:
    """Check a game document (the event-file shape) with the engine. Raises ServiceError.
    `played`: the flow of its first hands, already played (scoring.evaluate)."""
    with engine_errors():
        return _evaluate(rules, data, played)


def _evaluate(rules: Ruleset, data: Any, played: GameFlow | None = None) -> Evaluated:
    doc = Doc(data).only(*GAME_KEYS)
    rnd = doc.int("round", low=1, high=999)
    table = doc.int("table", low=1, high=MAX_TABLE)
    seats = doc.list("seats")
    if len(seats) not in rules.player_counts:
        counts = " or ".join(str(n) for n in rules.player_counts)
        raise fail("players.count", "seats", venue=rules.slug, counts=counts, players=len(seats))
    seats = check_table_names(seats, "seats")
    rounding = game_rounding(rules, doc)
    if rounding:
        rules = rules.replace(rounding=rounding)
    result = evaluate(rules, len(seats), data, played)
    derived = [
        DerivedHand(
            data=raw,
            label=r.label,
            dealer=r.dealer,
            honba=r.honba,
            deltas=r.deltas,
            scores=r.scores,
            deposits=r.deposits,
        )
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
        rounding,
    )


def game_rounding(rules: Ruleset, doc: Doc) -> str:
    """A game's own rounding (its `rounding` key): the ruleset's earlier one (`rounding_earlier`,
    a game imported from a log of those years), or "" — the event's — when it gives none or the
    event's own."""
    allowed = [r for r in (rules.rounding, rules.rounding_earlier) if r is not None]
    rounding = doc.text("rounding", choices=allowed, default="")
    return "" if rounding == rules.rounding else rounding


def game_has_result(game: Game) -> bool:
    """Seated games wait for a result; one with final scores or any hand has one."""
    return game.finished or game.mode == "hands"


def game_to_data(
    game: Game, seats: list[Seat] | None = None, hands: list[Hand] | None = None
) -> dict[str, Any]:
    """The game as an event file holds it (the input, never the derived numbers). Seats and
    hands read here are ordered by their own numbers, not the models' orderings, which start
    with the game's and join the round and the event (issue 67)."""
    seats = seats if seats is not None else list(with_players(game.seats.all()))
    out: dict[str, Any] = {
        "round": game.round.number,
        "table": game.table,
        "seats": [s.player.name for s in sorted(seats, key=lambda s: s.position)],
    }
    if game.mode == "hands":
        hands = hands if hands is not None else list(game.hands.order_by("number"))
        out["hands"] = [h.data for h in sorted(hands, key=lambda h: h.number)]
    else:
        out["scores"] = [s.score for s in sorted(seats, key=lambda s: s.position)]
        out["deposits"] = game.deposits
        out["busts"] = game.busts
        out["yakuman"] = game.yakuman
    if game.rounding:
        out["rounding"] = game.rounding
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
            # (one row a hand: services/hands.py); its seats get their scores when it ends.
            score=ev.scores[i] if ev.mode == "scores" or ev.finished else None,
            result_score=results[i].score if ev.finished else None,
            rank=results[i].rank if ev.finished else None,
            points=Decimal(str(results[i].points)) if ev.finished else None,
            chips=results[i].chips if ev.finished else 0,
            breakdown=results[i].breakdown if ev.finished else {},
        )
        for i, name in enumerate(ev.seats)
    ]
    hands = [hand_row(game, i + 1, h) for i, h in enumerate(ev.hands)]
    return seats, hands


def hand_row(game: Game, number: int, h: DerivedHand) -> Hand:
    """Hand `number` of `game` as stored, from the hand as evaluated (not saved)."""
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
    game.rounding = ev.rounding
    return game
