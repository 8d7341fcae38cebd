"""A hand as JSON (CONTRACT §1) into its types, checked against the ruleset: every error names
its field (`result.wins[1].fu`)."""

from __future__ import annotations

from typing import Any

from scoring.errors import Seat
from scoring.game_types import game_type
from scoring.hand_types import Draw, Hand, Result
from scoring.messages import fail
from scoring.parse import Doc
from scoring.rules import Ruleset

# --- parsing ----------------------------------------------------------------------------------


def parse_hand(
    data: Any, rules: Ruleset, players: int, path: str = "", extra: tuple[str, ...] = ()
) -> Hand:
    """One hand of a game: `{"riichi": [...], "result": {...}}`; `extra` keys are the caller's."""
    doc = Doc(data, path).only("riichi", "penalties", "result", "stop", "time_up", *extra)
    riichi = doc.seats("riichi", players)
    if riichi and rules.riichi_stick == 0:
        raise fail("riichi.none", doc.field("riichi"), venue=rules.slug)
    penalties = doc.seats("penalties", players)
    if penalties and rules.penalty == 0:
        raise fail("penalty.none", doc.field("penalties"), venue=rules.slug)
    result = parse_result(doc.doc("result"), rules, players)
    if isinstance(result, Draw) and not rules.riichi_dead_hand:
        for seat in riichi:
            if seat not in result.tenpai:
                raise fail("riichi.noten", doc.field("result.tenpai"), seat=Seat(seat))
    return Hand(
        result=result,
        riichi=riichi,
        penalties=penalties,
        stop=doc.bool("stop"),
        time_up=doc.bool("time_up"),
    )


def parse_result(doc: Doc, rules: Ruleset, players: int) -> Result:
    """A hand's `result`, read by the venue's kind of game (riichi, or the emperor card game)."""
    return game_type(rules).parse_result(doc, rules, players)
