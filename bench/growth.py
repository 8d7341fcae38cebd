"""`make bench`'s growth table (docs/performance.md): how each figure grows with the field.

One event per size (64 → 10,000 players, 8 rounds each, so only the field grows) is imported
into a fresh PostgreSQL database by `bench.run --figures` in a process of its own, and its
figures are printed side by side with their exponent: a figure that grows as n**k between two
sizes has k = log(ratio of figures) / log(ratio of sizes) — 1 grows with the field, 0 does not.
The floor (the bare SQL reading every seat) grows with the field by its nature; a figure whose
exponent stays well under the floor's does not read the whole field.

    python -m bench.growth                   # 64, 256, 1,024, 4,096, 10,000 players
    python -m bench.growth --sizes 64 1024   # any sizes
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

SIZES = (64, 256, 1024, 4096, 10000)
ROUNDS = 8

# What the table shows, in its order: the figure's name in bench.run's FIGURES, its label.
ROWS = (
    ("floor", "floor: bare SQL reading every seat"),
    ("standings", "standings page, cached"),
    ("first_after_write", "standings page, first after a write"),
    ("write", "record a game + the standings the next reader pays"),
    ("screen_window", "venue screen, one screenful after a write"),
    ("api_standings", "API standings, first after a write"),
    ("organizer_form", "organizer's score form"),
)


def exponent(small: tuple[int, float], large: tuple[int, float]) -> float | None:
    """k such that the figure grows as n**k from one size to the other (None: not measured)."""
    (n1, v1), (n2, v2) = small, large
    if v1 <= 0 or v2 <= 0 or n1 == n2:
        return None
    return math.log(v2 / v1) / math.log(n2 / n1)


def measure(players: int, runs: int) -> dict[str, float]:
    """One size's figures, from `bench.run` in a process of its own (fresh settings and
    database)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
        path = Path(out.name)
    command = [sys.executable, "-m", "bench.run", "--database", "postgres"]
    command += ["--players", str(players), "--rounds", str(ROUNDS), "--runs", str(runs)]
    subprocess.run([*command, "--figures", str(path)], check=True, stdout=subprocess.DEVNULL)
    figures = json.loads(path.read_text())
    path.unlink()
    return figures


def table(sizes: list[int], figures: dict[int, dict[str, float]]) -> list[str]:
    """The growth table as text lines: a row per figure, a column per size, then the exponent
    over the whole range and over its last step."""
    head = "".join(f"{n:>9,}" for n in sizes)
    lines = [f"  {'ms, by players':<52}{head}   k (all)  k (last)"]
    for name, label in ROWS:
        values = [figures[n].get(name) for n in sizes]
        cells = "".join(f"{v:>9.1f}" if v is not None else f"{'—':>9}" for v in values)
        measured = [(n, v) for n, v in zip(sizes, values, strict=True) if v is not None]
        if not measured:
            continue
        ks = []
        for small, large in ((measured[0], measured[-1]), (measured[-2], measured[-1])):
            k = exponent(small, large) if len(measured) > 1 else None
            ks.append(f"{k:>9.2f}" if k is not None else f"{'—':>9}")
        lines.append(f"  {label:<52}{cells}{ks[0]}{ks[1]}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    sizes = sorted(set(args.sizes))
    print(f"\n== growth: PostgreSQL, {ROUNDS} rounds, players {', '.join(map(str, sizes))} ==")
    figures = {n: measure(n, args.runs) for n in sizes}
    for text in table(sizes, figures):
        print(text)


if __name__ == "__main__":
    main()
