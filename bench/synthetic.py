"""A synthetic national tournament as an event file: N players, R rounds, every table played
hand by hand through the engine (seeded, so every run sees the same games); every other table
keeps only its final scores, the rest keep their hands."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from scoring import PRESETS, GameFlow, ScoringError, parse_hand
from tournament.demo import game_entry, random_hand

# Baba passes the deal on a draw, so random hands end a hanchan in ~9 hands; real ones run ~12,
# mostly through cheap dealer wins. Add those.
DEALER_KEEPS = 0.25


def play(rng: random.Random, flow: GameFlow) -> list[dict[str, Any]]:
    """One game to its end, with some cheap dealer wins to lengthen it."""
    hands: list[dict[str, Any]] = []
    while not flow.over:
        if rng.random() < DEALER_KEEPS:
            discarder = (flow.dealer + rng.randrange(1, flow.n)) % flow.n
            win = {"seat": flow.dealer, "han": 1, "fu": 30}
            hand = {"riichi": [], "result": {"type": "ron", "discarder": discarder, "wins": [win]}}
        else:
            hand = random_hand(rng, flow)
        try:
            flow.play(parse_hand(hand, flow.rules, flow.n))
        except ScoringError:
            continue  # an unaffordable riichi, say: draw another hand
        hands.append(hand)
    return hands


def synthetic_event(
    players: int = 1024, rounds: int = 8, *, seed: int = 2026, slug: str = "bench"
) -> dict[str, Any]:
    if players % 4:
        raise ValueError("players must fill tables of four")
    rng = random.Random(seed)
    rules = PRESETS["baba"]
    names = [f"P{i:04d}" for i in range(1, players + 1)]
    games = []
    for rnd in range(1, rounds + 1):
        order = names[:]
        rng.shuffle(order)
        for t in range(players // 4):
            seats = order[4 * t : 4 * t + 4]
            flow = GameFlow(rules, 4)
            hands = play(rng, flow)
            games.append(game_entry(flow, hands, rnd, t + 1, seats, by_hands=t % 2 == 1))
    return {
        "name": f"Synthetic {players} players",
        "slug": slug,
        "ruleset": "baba",
        "format": "league",
        "players": names,
        "games": games,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args(argv)
    event = synthetic_event(args.players, args.rounds, seed=args.seed)
    text = json.dumps(event, ensure_ascii=False)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
