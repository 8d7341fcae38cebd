"""Template helpers for the table: seat winds."""

from __future__ import annotations

from django import template

from scoring.rules import ABORT_NAMES
from tournament import i18n
from tournament.i18n import seat_label

register = template.Library()


@register.filter
def stage_label(name: str) -> str:
    return i18n.stage_label(name)


@register.filter
def wind(position: int) -> str:
    """Seat 0 is East, the starting dealer (起家)."""
    return seat_label(position)


def _who(seat: object, names: list[str]) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def _value(win: dict) -> str:
    if win.get("yakuman"):
        return f"役満×{win['yakuman']}" if win["yakuman"] > 1 else "役満"
    if "yaku" in win:
        return f"{win.get('yaku', 0)}役"
    han, fu = win.get("han"), win.get("fu")
    return f"{han}翻{fu}符" if fu else f"{han}翻"


@register.filter
def hand_summary(data: dict, names: list[str]) -> str:
    """One line for the hand log: who won what from whom (the input, as recorded)."""
    result = data.get("result", {})
    kind = result.get("type")
    riichi = data.get("riichi") or []
    prefix = f"[立直 {', '.join(_who(s, names) for s in riichi)}] " if riichi else ""
    if kind == "ron":
        wins = result.get("wins") or [result]
        text = " / ".join(
            f"{_who(w.get('seat', w.get('winner')), names)} {_value(w)}" for w in wins
        )
        return f"{prefix}ロン {text} ← {_who(result.get('discarder'), names)}"
    if kind == "tsumo":
        return f"{prefix}ツモ {_who(result.get('winner'), names)} {_value(result)}"
    if kind == "draw":
        tenpai = ", ".join(_who(s, names) for s in result.get("tenpai", [])) or "—"
        return f"{prefix}流局 (聴牌 {tenpai})"
    if kind == "nagashi":
        return f"{prefix}流し満貫 {', '.join(_who(s, names) for s in result.get('winners', []))}"
    if kind == "abort":
        return f"{prefix}{ABORT_NAMES.get(result.get('reason'), '途中流局')}"
    if kind == "chombo":
        return f"{prefix}チョンボ {_who(result.get('offender'), names)}"
    return prefix + str(kind)
