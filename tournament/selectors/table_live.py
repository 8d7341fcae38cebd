"""A table as a stream shows it (CONTRACT §9): the hand about to be played, the sticks on the
table, each seat's wind, name and score, and the last hand — for the broadcasters' feeds
(`GET /api/v1/events/<slug>/tables/<round>/<table>/live`, and the table on stream's at
`…/featured/live`: tournament/api_live.py) and the overlay. Read from the hands the table's
phones entered, replayed by the engine as the table's sheet is (selectors/games.py
`game_sheet`): nothing here is typed by an operator."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from scoring.flow import GameFlow
from scoring.knobs import WINDS
from tournament.models import Event, Game
from tournament.selectors.conditions import event_panels, game_conditions
from tournament.selectors.games import game_sheet
from tournament.selectors.sheets import seats_prefetch


def _games(event: Event) -> QuerySet[Game]:
    """The event's games as a feed reads one: with its round, seats and players (one query,
    and one for the seats)."""
    return (
        Game.objects.select_related("round")
        .prefetch_related(seats_prefetch())
        .filter(round__event=event)
    )


def table_game(event: Event, round_number: int, table: int) -> Game | None:
    """The game at that table of that round; None if the round has no such table."""
    return _games(event).filter(round__number=round_number, table=table).first()


def featured_game(event: Event) -> Game | None:
    """The event's table on stream (CONTRACT §9: the organizer features it on the dashboard);
    None when no table is featured."""
    if event.featured_game_id is None:
        return None
    return _games(event).filter(pk=event.featured_game_id).first()


def table_live(event: Event, game: Game) -> dict[str, Any]:
    """CONTRACT §9's feed of one table. `label`, `honba` and `dealer` name the hand about to
    be played (None once the game is over); `riichi_sticks` counts the sticks on the table;
    `seats` in seat order, each with its wind in that hand, its score now and whether it put
    a stick in the last hand entered (a hand is entered when it ends: the one being played has
    none yet); `last`, the last hand entered as `python -m scoring game` gives it, or None;
    `finished`, the game is over at the table; `confirmed`, its result counts (a result
    waiting for a second seat, or disputed, does not: `confirmation` says which);
    `conditions`, at the last hand of a stage's deciding round, what each seat needs from it
    (CONTRACT §6, `_last_hand`); `before`, at that round's table not yet begun, what each
    place would need (`_before_game`)."""
    sheet = game_sheet(event, game)
    flow, names = sheet.flow, sheet.names
    coming = flow.next()
    over = coming is None or game.finished
    dealer = None if over else coming["dealer"]
    last_riichi: set[int] = set()
    last: dict[str, Any] | None = None
    if flow.records:
        record, stored = flow.records[-1], sheet.hands[-1]
        riichi = stored.data.get("riichi", []) if isinstance(stored.data, dict) else []
        last_riichi = {seat for seat in riichi if isinstance(seat, int)}
        last = {
            "number": len(flow.records),
            **record.to_json(),
            "riichi": sorted(last_riichi),
            "hand": stored.data,  # as the phone entered it: its result's type and seats
        }
    n = len(names)
    results = [seat.score for seat in game.seats.all()]  # stored once the game has a result
    return {
        "round": game.round.number,
        "table": game.table,
        "label": None if over else coming["label"],
        "honba": None if over else coming["honba"],
        "riichi_sticks": flow.deposits // event.rules.riichi_stick,
        "dealer": dealer,
        "seats": [
            {
                "seat": seat,
                # Its wind in that hand, the dealer East (CONTRACT §9's letters).
                "wind": None if dealer is None else WINDS[(seat - dealer) % n],
                "player": name,
                # As stored once the game has a result (deposits handed out), else after the
                # last hand entered.
                "score": results[seat] if results[seat] is not None else flow.scores[seat],
                "riichi": seat in last_riichi,
            }
            for seat, name in enumerate(names)
        ],
        "last": last,
        "finished": bool(over),
        "confirmed": bool(game.finished and not game.confirmation),
        "confirmation": game.confirmation,
        "round_wind": None if over else flow.wind,
        "conditions": None if over else _last_hand(event, game, flow, names),
        "before": None if over or flow.records else _before_game(event, game, names),
    }


def _last_hand(event: Event, game: Game, flow: GameFlow, names: list[str]) -> dict[str, Any] | None:
    """CONTRACT §6 at this table's last hand of its stage's deciding round: the stage, its
    target (the cut, or 1), and per seat (seat order) the stage rank if the game ended now and
    the cheapest tsumo and ron from each other seat that bring the player to the target."""
    answer = game_conditions(event, game, flow, names)
    if answer is None:
        return None
    return {
        "stage": answer["stage"],
        "target": answer["target"],
        "last_stage": answer["last_stage"],
        "seats": [{"seat": seat, **need} for seat, need in enumerate(answer["seats"])],
    }


def _before_game(event: Event, game: Game, names: list[str]) -> dict[str, Any] | None:
    """CONTRACT §6 "before the last game" for this table's players, in seat order, while its
    game (of a stage's deciding round) has not begun: each one's stage rank and total, the
    gaps to the lead and the cut, and for each place at the table the lowest final score that
    can still bring them to the target — the panel the standings page shows, this table's
    rows."""
    before = event_panels(event)["before"]
    if before is None:
        return None
    rows = {row["player"]: row for row in before["rows"] if row["table"] == game.table}
    if set(rows) != set(names):
        return None
    return {
        "stage": before["stage"],
        "target": before["target"],
        "last_stage": before["last_stage"],
        "places": before["places"][: len(names)],
        "rows": [
            {
                "seat": seat,
                "player": name,
                "now": rows[name]["now"],
                "total": float(rows[name]["total"]),
                "to_lead": float(rows[name]["to_lead"]),
                "to_cut": None if rows[name]["to_cut"] is None else float(rows[name]["to_cut"]),
                "places": rows[name]["places"],
            }
            for seat, name in enumerate(names)
        ],
    }
