"""The command line: one JSON document (or an array of them) on stdin, one on stdout.

Errors: exit status 2 and one line on stderr naming the field; nothing on stdout.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from scoring.busts import busts_after
from scoring.conditions import conditions_command
from scoring.errors import ScoringError
from scoring.evaluate import evaluate
from scoring.game_types import game_type
from scoring.hand_parse import parse_hand
from scoring.messages import fail
from scoring.names import normalize_name
from scoring.parse import Doc, check_int, check_table_names, load_json
from scoring.payments import price_hand
from scoring.plans import MAX_ROUNDS, SIZES, plan
from scoring.presets import PRESETS, ruleset_from_json

USAGE = (
    "usage: python -m scoring presets | hand | game | settle | seat | conditions   (JSON on stdin)"
)


def presets() -> list[dict[str, Any]]:
    return [
        {
            "slug": r.slug,
            "name": r.name,
            "names": dict(r.names),  # added (issue 32): the name in each language
            "players": r.players,
            "player_counts": list(r.player_counts),
            "game": r.game,
        }
        for r in PRESETS.values()
    ]


def hand(data: Any) -> dict[str, Any]:
    doc = Doc(data)
    rules = ruleset_from_json(doc.raw("ruleset"))
    scores = None
    if doc.has("scores"):
        raw = doc.list("scores")
        scores = [check_int(v, f"scores[{i}]") for i, v in enumerate(raw)]
    players = doc.int("players", default=len(scores) if scores else rules.players, low=3, high=5)
    if players not in rules.player_counts:
        raise fail("players.unplayed", "players", venue=rules.slug, players=players)
    if scores is not None and len(scores) != players:
        raise fail("scores.per_seat", "scores", players=players)
    emperor = None
    if not game_type(rules).rotating_deal:  # the emperor deals
        emperor = doc.seat("emperor", players, default=None)
    dealer = emperor if emperor is not None else doc.seat("dealer", players, default=0)
    honba = doc.int("honba", default=0, low=0)
    deposits = doc.int("deposits", default=0, low=0)
    parsed = parse_hand(
        data,
        rules,
        players,
        extra=("ruleset", "players", "dealer", "honba", "deposits", "scores", "emperor"),
    )
    outcome = price_hand(
        rules,
        parsed,
        players=players,
        dealer=dealer,
        honba=honba,
        deposits=deposits,
        scores=scores,
        emperor=emperor,
    )
    out: dict[str, Any] = outcome.to_json()
    if scores is not None:
        out["scores"] = [a + b for a, b in zip(scores, outcome.deltas, strict=True)]
        out["busts"] = [b.to_json() for b in busts_after(rules, outcome, scores)]
    return out


def game(data: Any) -> dict[str, Any]:
    doc = Doc(data).only("ruleset", "players", "hands", "penalties")
    rules = ruleset_from_json(doc.raw("ruleset"))
    names = doc.raw("players", default=rules.players)
    # Player names in seat order, or just how many there are.
    if isinstance(names, list):
        players = len(check_table_names(names, "players"))
    else:
        players = check_int(names, "players", 3, 5)
    played = evaluate(
        rules,
        players,
        {"hands": doc.raw("hands", default=[]), "penalties": doc.raw("penalties", default=[])},
    )
    flow = played.flow
    assert flow is not None  # a game of hands
    result = played.settlement.to_json()
    result["final"] = flow.over
    return {
        "hands": [r.to_json() for r in flow.records],
        "over": flow.over,
        "next": flow.next(),
        "busts": [b.to_json() for b in flow.busts],
        "yakuman": [y.to_json() for y in flow.yakuman],
        "deposits": flow.deposits,
        "penalties": [p.to_json() for p in played.penalties],
        "result": result,
    }


def settle_command(data: Any) -> dict[str, Any]:
    doc = Doc(data).only("ruleset", "scores", "deposits", "busts", "yakuman", "penalties")
    rules = ruleset_from_json(doc.raw("ruleset"))
    scores = doc.list("scores")
    return evaluate(rules, len(scores), data).settlement.to_json()


def seat_command(data: Any) -> dict[str, Any]:
    """CONTRACT §5: every round of the day planned at once."""
    doc = Doc(data).only("players", "rounds", "seed", "size")
    names = doc.list("players")
    players = [normalize_name(name, f"players[{i}]") for i, name in enumerate(names)]
    rounds = doc.int("rounds", low=1, high=MAX_ROUNDS)
    size = doc.int("size", default=4, low=min(SIZES), high=max(SIZES))
    seed = doc.int("seed", default=0)
    return plan(players, rounds, size, seed).to_json()


COMMANDS: dict[str, Callable[[Any], Any]] = {
    "hand": hand,
    "game": game,
    "settle": settle_command,
    "seat": seat_command,
    "conditions": conditions_command,
}


def run(command: str, data: Any) -> Any:
    """One document, or a batch (a JSON array) answered element by element."""
    handler = COMMANDS[command]
    if isinstance(data, list):
        answers = []
        for i, item in enumerate(data):
            if not isinstance(item, dict):
                raise fail("value.object", f"[{i}]")
            try:
                answers.append(handler(item))
            except ScoringError as exc:
                raise exc.within(f"[{i}]") from None
        return answers
    return handler(data)


def main(
    argv: Sequence[str],
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if len(argv) != 1 or argv[0] not in ("presets", *COMMANDS):
        print(USAGE, file=stderr)
        return 2
    try:
        if argv[0] == "presets":
            answer: Any = presets()
        else:
            answer = run(argv[0], load_json(stdin.read()))
    except ScoringError as exc:
        print(str(exc).replace("\n", " "), file=stderr)
        return 2
    json.dump(answer, stdout, ensure_ascii=False)
    stdout.write("\n")
    return 0
