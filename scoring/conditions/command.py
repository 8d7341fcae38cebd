"""`python -m scoring conditions` (CONTRACT §6): a table's last hand from JSON, each seat's
needs as JSON."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from scoring.conditions.last_hand import conditions
from scoring.flow import GameFlow
from scoring.game_types import game_type
from scoring.messages import fail
from scoring.names import normalize_name
from scoring.parse import Doc, check_int, check_table_names
from scoring.presets import ruleset_from_json
from scoring.settlement import parse_penalties


def conditions_command(data: Any) -> dict[str, Any]:
    doc = Doc(data).only(
        "ruleset",
        "target",
        "standings",
        "table",
        "scores",
        "dealer",
        "honba",
        "deposits",
        "extended",
        "emperor",
        "penalties",
    )
    rules = ruleset_from_json(doc.raw("ruleset"))
    standings = read_standings(doc.raw("standings"))
    table = check_table_names(doc.list("table"), "table")
    if len(table) not in rules.player_counts:
        counts = " or ".join(str(c) for c in rules.player_counts)
        raise fail("players.count", "table", venue=rules.slug, counts=counts, players=len(table))
    for i, player in enumerate(table):
        if player not in standings:
            raise fail("conditions.unranked", f"table[{i}]", player=player)
    target = doc.int("target", default=1, low=1)
    if target > len(standings):
        raise fail("conditions.target", "target", target=target, ranked=len(standings))
    n = len(table)
    raw_scores = doc.list("scores")
    if len(raw_scores) != n:
        raise fail("scores.per_seat", "scores", players=n)
    scores = [check_int(v, f"scores[{i}]") for i, v in enumerate(raw_scores)]
    emperor = None
    if not game_type(rules).rotating_deal:
        emperor = doc.seat("emperor", n, default=None)
    flow = GameFlow.at_last_hand(
        rules,
        scores,
        dealer=doc.seat("dealer", n, default=n - 1),
        honba=doc.int("honba", default=0, low=0),
        deposits=doc.int("deposits", default=0, low=0),
        extended=doc.bool("extended"),
        emperor=emperor,
    )
    penalties = parse_penalties(doc, n)
    seats = conditions(rules, flow, table, standings, target, penalties)
    return {"target": target, "seats": [s.to_json() for s in seats]}


def read_standings(raw: Any) -> dict[str, Decimal]:
    """`{"name": total, …}`: names in their one spelling, totals as exact decimals."""
    doc = Doc(raw, "standings")
    out: dict[str, Decimal] = {}
    for key in doc.data:
        name = normalize_name(key, f"standings.{key}")
        total = doc.number(key)
        if name in out:
            raise fail("conditions.twice", f"standings.{key}", name=name)
        out[name] = Decimal(str(total))
    if not out:
        raise fail("conditions.no_standings", "standings")
    return out
