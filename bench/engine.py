"""`make bench`'s engine figures (`python -m bench.run --engine`): hands replayed a second on
one core, parsed and replayed as an import does, real Tenhou logs read and checked, and the
same wins priced by `scoring.price_hand` beside the `mahjong` package's ScoresCalculator; then
the conditions at the last hand (CONTRACT §6) and whole-day plans (CONTRACT §5). Pure Python:
no database, no Django."""

from __future__ import annotations

import functools
import time
from typing import Any

from bench.measure import line, median_ms, verdict


def replay_rate(games: list[list[Any]] | None = None, runs: int = 5) -> float:
    """Hands the engine replays a second, already parsed, on one core (the `make bench`
    figure; `make load` prints it too, as the machine's speed its figures go with). `games`:
    each game's hands as event files give them (default: a 256-player round of
    bench/synthetic.py)."""
    from bench.synthetic import synthetic_event
    from scoring import PRESETS, parse_hand, replay

    rules = PRESETS["baba"]
    if games is None:
        games = [g["hands"] for g in synthetic_event(256, 4)["games"] if "hands" in g]
    parsed = [[parse_hand(h, rules, 4) for h in game] for game in games]

    def replay_all() -> None:
        for hands in parsed:
            replay(rules, 4, hands)

    return sum(len(h) for h in parsed) / median_ms(replay_all, runs) * 1000


def bench_engine(runs: int) -> None:
    from mahjong.constants import EAST, SOUTH
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.hand_calculating.scores import ScoresCalculator

    from bench.synthetic import synthetic_event
    from scoring import PRESETS, parse_hand, replay
    from scoring.hands import Ron, Tsumo, price_hand

    rules = PRESETS["baba"]
    games = [g["hands"] for g in synthetic_event(1024, 8)["games"] if "hands" in g]
    count = sum(len(h) for h in games)
    print(f"\n== scoring engine, one core: {len(games)} games, {count} hands ==")

    def parse_and_replay() -> None:
        for game in games:
            replay(rules, 4, [parse_hand(h, rules, 4) for h in game])

    rate = replay_rate(games, runs)
    full_ms = median_ms(parse_and_replay, runs)
    parsed = [[parse_hand(h, rules, 4) for h in game] for game in games]
    line(
        "replay (hands already parsed)",
        f"{rate:,.0f} hands/s",
        f"target ≥ 20,000/s · {verdict(rate >= 20000)}",
    )
    line("parse and replay (what an import does)", f"{count / full_ms * 1000:,.0f} hands/s")

    # Real Tenhou games (tests/scoring/tenhou_logs): read the log, replay it through `tenhou`
    # and compare every hand with the log — what `import_tenhou` asks of the engine.
    from pathlib import Path

    from scoring.tenhou import check_log, read_log

    logs = [p.read_bytes() for p in sorted(Path("tests/scoring/tenhou_logs").glob("*.mjlog"))]
    logs = [raw for raw in logs if b"owari" in raw]
    log_hands = sum(len(read_log(raw).hands) for raw in logs)

    def tenhou_logs() -> None:
        for raw in logs:
            check_log(PRESETS["tenhou"], read_log(raw))

    logs_ms = median_ms(tenhou_logs, runs)
    line(
        f"Tenhou logs read and checked ({len(logs)} real games, {log_hands} hands)",
        f"{log_hands / logs_ms * 1000:,.0f} hands/s",
    )

    # The same wins priced alone: ours and the mahjong package's ScoresCalculator.
    wins: list[tuple[Any, int, int]] = []  # (hand, dealer, honba)
    for hands in parsed:
        flow = replay(rules, 4, hands)
        for hand, record in zip(hands, flow.records, strict=True):
            result = hand.result
            if isinstance(result, Tsumo) or (isinstance(result, Ron) and len(result.wins) == 1):
                bare = parse_hand({"riichi": [], "result": _result_json(result)}, rules, 4)
                wins.append((bare, record.dealer, record.honba))

    def ours() -> list[int]:
        out = []
        for hand, dealer, honba in wins:
            outcome = price_hand(rules, hand, players=4, dealer=dealer, honba=honba)
            out.append(max(outcome.deltas))
        return out

    def theirs() -> list[int]:
        out = []
        for hand, dealer, honba in wins:
            result = hand.result
            win = result.win if isinstance(result, Tsumo) else result.wins[0]
            config = HandConfig(
                is_tsumo=isinstance(result, Tsumo),
                player_wind=EAST if win.seat == dealer else SOUTH,
                tsumi_number=honba,
            )
            han = 13 * int(win.yakuman) if win.yakuman else win.han
            fu = win.fu or 30
            out.append(
                ScoresCalculator.calculate_scores(han, fu, config, bool(win.yakuman))["total"]
            )
        return out

    ours_ms, theirs_ms = median_ms(ours, runs), median_ms(theirs, runs)
    agree = sum(a == b for a, b in zip(ours(), theirs(), strict=True))
    line(f"price {len(wins)} wins: scoring.price_hand", f"{len(wins) / ours_ms * 1000:,.0f} /s")
    line("price the same wins: mahjong ScoresCalculator", f"{len(wins) / theirs_ms * 1000:,.0f} /s")
    line("winner's takings equal in both", f"{agree} / {len(wins)}")


# Whole-day plans (CONTRACT §5, issue 33): the sizes the issue names, and 128 × 10 against its
# 10 s target; 16 × 6, a Baba qualifier's day, against 1 s (issue 43). Each plan once (a plan is
# seeded: the same every run).
PLANS = [(16, 5, 4), (16, 6, 4), (32, 8, 4), (36, 7, 4), (64, 8, 4), (128, 8, 4), (30, 6, 4),
         (27, 8, 3), (128, 10, 4), (20, 6, 4), (161, 40, 4)]  # fmt: skip


def bench_plans() -> None:
    from scoring.plans import plan

    print("\n== whole-day plans (python -m scoring seat), one core, seed 7 ==")
    print(
        f"  {'players × rounds, table':<26} {'time':>8}  max met  >1  repeats (floor)  winds±  byes"
    )
    for n, rounds, size in PLANS:
        names = [f"P{i:03d}" for i in range(n)]
        start = time.perf_counter()
        report = plan(names, rounds, size, seed=7).report()
        seconds = time.perf_counter() - start
        spread = max(max(c) - min(c) for c in report["winds"].values())
        byes = sorted(set(report["byes"].values()))
        target = {(128, 10): 10, (16, 6): 1}.get((n, rounds))
        shape = f"{n} × {rounds}, tables of {size}"
        repeated = report["pairs_met_more_than_once"]
        repeats, floor = report["repeat_meetings"], report["best_repeat_meetings"]
        print(
            f"  {shape:<26} {seconds:>7.2f}s  {report['max_meetings']:>7}  {repeated:>3}  "
            f"{repeats:>7} ({floor:>4})  {spread:>6}  {byes}  "
            f"{verdict(seconds < target) if target else ''}"
        )


# Conditions at the last hand (CONTRACT §6, issue 35): computed again on every hand a table
# enters at its オーラス, so one table's answer must fit well inside a hand's save (100 ms).
CONDITIONS_TARGET_MS = 100


def bench_conditions(runs: int) -> None:
    import random
    from decimal import Decimal

    from scoring.conditions import conditions
    from scoring.flow import GameFlow
    from scoring.presets import PRESETS

    print("\n== conditions at the last hand, one core: a 4-player table, 1,024 ranked ==")
    rng = random.Random(7)
    names = [f"P{i:04d}" for i in range(1024)]
    standings = {p: Decimal(rng.randint(-1500, 1500)) / 10 for p in names}
    leaders = sorted(names, key=standings.__getitem__, reverse=True)
    for slug in ("baba", "tenhou", "mleague"):
        rules = PRESETS[slug]
        for target, table in ((1, leaders[:4]), (64, leaders[60:64])):
            flow = GameFlow.at_last_hand(
                rules, [32000, 27000, 23000, 18000], dealer=3, honba=1, deposits=0
            )
            ms = median_ms(
                functools.partial(conditions, rules, flow, table, standings, target), runs
            )
            line(
                f"{slug}, target {target} (16 ways)",
                f"{ms:,.1f} ms",
                f"≤ {CONDITIONS_TARGET_MS} ms {verdict(ms <= CONDITIONS_TARGET_MS)}",
            )


def _result_json(result: Any) -> dict[str, Any]:
    from scoring.hands import Tsumo

    def win(w: Any) -> dict[str, Any]:
        data = {"seat": w.seat}
        data.update({k: getattr(w, k) for k in ("han", "fu", "yakuman") if getattr(w, k)})
        return data

    if isinstance(result, Tsumo):
        out = win(result.win)
        return {"type": "tsumo", "winner": out.pop("seat"), **out}
    return {"type": "ron", "discarder": result.discarder, "wins": [win(result.wins[0])]}
