"""Server-rendered SVG charts (no JavaScript, no CDN): a score line per seat over the hands."""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass

# Distinguishable on white and for the common colour-vision deficiencies (Okabe–Ito).
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00")


@dataclass
class Line:
    name: str
    colour: str
    points: str  # "x,y x,y …" for <polyline>
    last_x: float
    last_y: float


@dataclass
class Chart:
    width: int
    height: int
    lines: list[Line]
    ticks: list[tuple[float, str]]  # (y, value)
    zero: float | None  # y of the zero line when scores go below it
    labels: list[tuple[float, str]]  # (x, hand label)


def _nice_step(span: float) -> float:
    """A round step (1, 2 or 5 × 10ⁿ) giving at most six grid lines."""
    step = 1.0
    while span / step > 6:
        for factor in (2, 2.5, 2):
            step *= factor
            if span / step <= 6:
                break
    return step


def score_chart(
    names: list[str], start: float, series: list[list[float]], labels: list[str]
) -> Chart:
    """`series[h]` is every line's value after step h (a hand, a round); all start at `start`."""
    # Drawn at phone width (a 375-px screen shows it 1:1); it scales up on wider screens.
    width, height, left, right, top, bottom = 360, 220, 44, 18, 10, 24
    rows = [[start] * len(names), *series]
    low = min(min(r) for r in rows)
    high = max(max(r) for r in rows)
    step = _nice_step(max(high - low, 1))
    low = (low // step) * step
    high = -((-high) // step) * step
    if high == low:
        high = low + step
    span_x = max(1, len(rows) - 1)

    def x(i: int) -> float:
        return round(left + (width - left - right) * i / span_x, 1)

    def y(v: float) -> float:
        return round(top + (height - top - bottom) * (high - v) / (high - low), 1)

    lines = []
    for seat, name in enumerate(names):
        pts = [(x(i), y(r[seat])) for i, r in enumerate(rows)]
        lines.append(
            Line(name, COLOURS[seat % len(COLOURS)], " ".join(f"{a},{b}" for a, b in pts), *pts[-1])
        )
    count = round((high - low) / step)
    ticks = [(y(low + k * step), _label(low + k * step)) for k in range(count + 1)]
    # As many hand labels under the axis as fit side by side (東1局 0本場 is twice as wide as
    # E1-0), none running past the right edge.
    room = TICK_GAP + max((text_width(label) for label in labels), default=0.0)
    every = max(1, math.ceil(room / ((width - left - right) / span_x)))
    marks = [
        (x(i + 1), label)
        for i, label in enumerate(labels)
        if i % every == 0 and x(i + 1) + text_width(label) / 2 <= width
    ]
    return Chart(width, height, lines, ticks, y(0) if low < 0 < high else None, marks)


TICK_SIZE = 11  # px, as site.css draws `.tick` in the chart's own units
TICK_GAP = 6  # px between two labels


def text_width(text: str) -> float:
    """About how wide `text` is drawn at TICK_SIZE: a full-width character (漢字, かな) an em,
    anything else about half of one."""
    return sum(
        TICK_SIZE if unicodedata.east_asian_width(c) in "WF" else TICK_SIZE * 0.6 for c in text
    )


def _label(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
