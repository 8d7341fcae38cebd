"""A past hand corrected in place (issue 47): hand N of a hand-by-hand game replaced, every
later hand replayed by the engine from it and kept while it still fits. A later hand that no
longer fits — the correction ends the game before it, or makes it impossible (a riichi the
player can no longer pay, a dealer who is not one any more) — goes, with every hand after it;
the writer is asked first (`HandsWouldGo` names them) and removes them by sending the same
correction again with their numbers (`dropping`). One `game_change`: locked, the version the
form saw checked, the game written over, the change logged as a sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from scoring.rules import Ruleset
from tournament.models import Game
from tournament.services.confirmation import AtTable
from tournament.services.errors import ConflictError, ServiceError, fields_within
from tournament.services.game_change import game_change
from tournament.services.game_data import Evaluated, game_evaluate
from tournament.services.hands import (
    HandGame,
    hand_logged,
    hand_rows,
    hands_data,
    hands_replaced,
)

_HAND_FIELD = re.compile(r"hands\[(\d+)\]")


@dataclass(frozen=True)
class GoingHand:
    """A later hand the correction would remove: its number and label as stored."""

    number: int
    label: str


class HandsWouldGo(Exception):
    """The correction removes later hands: nothing was written; ask, naming them."""

    def __init__(self, hands: list[GoingHand]) -> None:
        self.hands = hands
        super().__init__(", ".join(f"hand {h.number}" for h in hands))


@dataclass(frozen=True)
class HandFixed:
    """What a correction did: the hand replaced, the later hands replayed and removed."""

    number: int
    label: str
    replayed: list[int]
    removed: list[int]


def hands_replayed(rules: Ruleset, data: HandGame, number: int, hand: Any) -> tuple[Evaluated, int]:
    """The game with hand `number` replaced by `hand` and the later hands played on from it,
    as far as they still fit: the game evaluated and how many hands it keeps. An error in the
    new hand itself names its field as the one-hand form does (`result.wins[0].han`)."""
    hands = [*data["hands"][: number - 1], hand, *data["hands"][number:]]
    while True:
        try:
            with fields_within(f"hands[{number - 1}]"):
                return game_evaluate(rules, {**data, "hands": hands}), len(hands)
        except ServiceError as exc:
            # The engine names the first hand it could not play: a later one is cut from
            # there (it and every hand after it), and the rest played again.
            found = _HAND_FIELD.match(exc.field)
            if found is None or int(found.group(1)) < number:
                raise
            hands = hands[: int(found.group(1))]


def game_hand_fix(
    *,
    game: Game,
    number: int,
    hand: Any,
    expected_version: int,
    dropping: list[int] | None = None,
    user: Any = None,
    at: AtTable | None = None,
) -> HandFixed:
    """Replace hand `number` of `game` with `hand`; later hands are replayed and kept where
    they still fit. Hands that would go raise `HandsWouldGo` unless `dropping` names exactly
    those (the writer saw and confirmed the list). Refused (ConflictError) unless the game is
    still at `expected_version`; the version moves on. Each kept hand keeps its entry id (the
    replaced one too: a late copy of the phone's original is answered as saved, not written),
    and a removed hand's entry id is logged so a late copy of it is not written again."""

    def done(locked: Game) -> bool:  # this very correction, sent twice
        if locked.version != expected_version + 1 or locked.mode != "hands":
            return False
        stored = locked.hands.filter(number=number).values_list("data", flat=True).first()
        return stored == hand

    with game_change(game, expected_version, user=user, at=at, done=done) as change:
        locked = change.game
        if change.replay:
            return HandFixed(number, "", [], [])
        stored = hand_rows(locked)
        data, entries = hands_data(locked, stored)
        total = len(data["hands"])
        if locked.mode != "hands" or not 1 <= number <= total:
            raise ConflictError("game.conflict", "version")
        rows = {row.number: row for row in stored}
        ev, kept = hands_replayed(locked.round.event.rules, data, number, hand)
        removed = list(range(kept + 1, total + 1))
        if removed and sorted(dropping or []) != removed:
            raise HandsWouldGo([GoingHand(n, rows[n].label) for n in removed])
        old = hand_logged(data, number, _stored(rows[number]))
        gone = {str(entries[n]): n for n in removed if n in entries}
        data["hands"] = ev_hands = [h["data"] for h in ev.hands]
        assert len(ev_hands) == kept
        new = hand_logged(data, number, ev.hands[number - 1])
        replayed = list(range(number + 1, kept + 1))
        fixed = HandFixed(number, rows[number].label, replayed, removed)
        kept_entries = {n: e for n, e in entries.items() if n <= kept}
        hands_replaced(
            change,
            ev,
            data,
            kept_entries,
            action="game.hand_fix",
            detail=fix_sentence(fixed),
            logged=({**old, "gone": gone}, {**new, "replayed": replayed, "removed": removed}),
        )
        return fixed


def _stored(row: Any) -> Any:
    return {"label": row.label, "data": row.data, "deltas": row.deltas}


def span(numbers: list[int]) -> str:
    """Hand numbers in a row (a correction replays or removes every hand after one) said as
    one span: "4–9", or "4"."""
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


def _hands(numbers: list[int]) -> str:
    return f"{'hand' if len(numbers) == 1 else 'hands'} {span(numbers)}"


def fix_sentence(fixed: HandFixed) -> str:
    """The change log's English: Hand 3 (E3-0) replaced; hands 4–9 replayed; hand 10 removed."""
    said = [f"hand {fixed.number} ({fixed.label}) replaced"]
    if fixed.replayed:
        said.append(f"{_hands(fixed.replayed)} replayed")
    if fixed.removed:
        said.append(f"{_hands(fixed.removed)} removed")
    return "; ".join(said)
