"""A whole game checked and played through: its hands (CONTRACT §1 `game`), or its final
scores with the deposits, busts and yakuman (CONTRACT §1 `settle`, §2 event files). The
command line and the app's services both call `evaluate`, so a game is read one way."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.flow import GameFlow, HandRecord, replay
from scoring.hand_parse import parse_hand
from scoring.hand_types import Bust, YakumanWin
from scoring.messages import fail
from scoring.parse import Doc
from scoring.rules import Ruleset
from scoring.settlement import Penalty, Settlement, parse_penalties, parse_settle, settle

SETTLE_KEYS = ("scores", "deposits", "busts", "yakuman")


@dataclass
class Evaluation:
    """What a game came to. `mode`: "hands" or "scores"; `over`: its end was reached (a game
    given by final scores always is); `records`: each hand as played (hands only)."""

    mode: str
    scores: list[int]
    deposits: int
    busts: list[Bust]
    yakuman: list[YakumanWin]
    over: bool
    settlement: Settlement
    penalties: list[Penalty]  # given with the game, then the game's own (an EMA chombo)
    records: list[HandRecord] = field(default_factory=list)
    flow: GameFlow | None = None


def evaluate(
    rules: Ruleset, players: int, data: Mapping[str, Any], played: GameFlow | None = None
) -> Evaluation:
    """Check a game (`hands`, or `scores` with `deposits`, `busts`, `yakuman`; either with
    `penalties`) for a table of `players` and play it through. Raises ScoringError naming the
    field. `played`: the flow of this game's first hands, played already and checked (one
    more hand at a table: the app replayed the others to show the sheet) — only the hands
    after them are read and played, on it."""
    doc = Doc(data)
    given = parse_penalties(doc, players)
    if doc.has("hands"):
        for key in SETTLE_KEYS:
            if doc.has(key):
                raise fail("game.both", key)
        GameFlow(rules, players)  # the table size, before reading any hand
        raw = doc.list("hands")
        start = len(played.records) if played is not None else 0
        if start > len(raw):
            raise ValueError("the flow given has played more hands than the game holds")
        hands = [parse_hand(raw[i], rules, players, f"hands[{i}]") for i in range(start, len(raw))]
        flow = replay(rules, players, hands, played)
        return Evaluation(
            "hands",
            list(flow.scores),
            flow.deposits,
            list(flow.busts),
            list(flow.yakuman),
            flow.over,
            flow.settlement(given),
            [*given, *flow.penalties],
            list(flow.records),
            flow,
        )
    if not doc.has("scores"):
        raise fail("game.no_result", "scores")
    scores, deposits, busts, yakuman = parse_settle(
        {k: data[k] for k in SETTLE_KEYS if k in data}, rules
    )
    if len(scores) != players:
        raise fail("scores.per_seat", "scores", players=players)
    return Evaluation(
        "scores",
        list(scores),
        deposits,
        list(busts),
        list(yakuman),
        True,
        settle(rules, scores, deposits, busts, yakuman, given),
        given,
    )
