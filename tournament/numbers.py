"""Numbers as people read them — a result's points, a rate rounded halves up — the one way
every page, download, message and template writes them (exports, selectors, i18n and template
tags import it; it imports nothing of ours, so none of them circle through another)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def half_up(value: float, places: int) -> float:
    """`value` to `places` decimals, halves up as people round (2.125 → 2.13) — what the player
    page's floatformat does; round() and "%.2f" give 2.12 (the float is exactly 2.125, and
    they round halves to even)."""
    step = Decimal(1).scaleb(-places)
    return float(Decimal(repr(value)).quantize(step, rounding=ROUND_HALF_UP))


def format_points(value: float | Decimal | None, whole: bool) -> str:
    if value is None:
        return ""
    if whole and float(value).is_integer():
        return str(int(value))
    # Hundredths only where a score moved in 50s (a 3-player honba of 300: 1.15 points).
    exact = Decimal(str(value))
    if exact != exact.quantize(Decimal("0.1")):
        return f"{exact:.2f}"
    return f"{value:.1f}"
