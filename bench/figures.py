"""The figures a bench run keeps by name for `--figures` (bench/growth.py reads them), in a
module of their own: bench/run.py runs as __main__, and the modules it calls would otherwise
fill a second copy of it."""

from __future__ import annotations

FIGURES: dict[str, float] = {}


def figure(name: str, ms: float) -> float:
    """Keep a figure under `name` (ms); the figure itself."""
    FIGURES[name] = round(ms, 2)
    return ms
