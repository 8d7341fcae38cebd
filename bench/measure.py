"""What every bench measures with and on: the median of several runs (`median_ms`), a
figure's printed line and its verdict against a target, an empty database (`fresh_database`)
and a synthetic event's file (`event_file`). Imported by bench/run.py and the modules it calls,
by `make load` and `make chaos`: a module of their own, so none imports run.py (which runs as
__main__)."""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PG_ADMIN_URL = os.environ.get("PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")
# The default database name; --database-name or BENCH_DB picks another, so two benches (or a
# bench and `make load`) can run side by side on one PostgreSQL.
PG_BENCH_DB = "jansou_bench"


def median_ms(fn: Callable[[], Any], runs: int, before: Callable[[], Any] | None = None) -> float:
    """Median wall time of `fn` in ms; `before` runs untimed ahead of each run."""
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def line(label: str, value: str, target: str = "") -> None:
    print(f"  {label:<52} {value:>14}  {target}")


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def fresh_database(kind: str, workdir: Path, name: str | None = None) -> str:
    """An empty database (PostgreSQL: `name`, dropped and made again), as a DATABASE_URL."""
    # Read at call time: main() puts --database-name in BENCH_DB for itself and its children.
    name = name or os.environ.get("BENCH_DB", PG_BENCH_DB)
    if kind == "sqlite":
        path = workdir / f"{name}.sqlite3"
        path.unlink(missing_ok=True)
        return f"sqlite:///{path}"
    import psycopg

    with psycopg.connect(
        PG_ADMIN_URL.replace("postgres://", "postgresql://"), autocommit=True
    ) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {name}")
    return PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name


def event_file(workdir: Path, players: int, rounds: int, slug: str) -> Path:
    from bench.synthetic import synthetic_event

    path = workdir / f"{slug}-{players}x{rounds}.json"  # made once per shape, then reused
    if not path.exists():
        path.write_text(json.dumps(synthetic_event(players, rounds, slug=slug)), encoding="utf-8")
    return path
