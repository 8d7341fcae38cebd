"""Small builders so tests read like the rules: `hand("baba", ron(1, win(2, 1, 30)))`."""

from __future__ import annotations

from typing import Any

from scoring.flow import GameFlow
from scoring.hands import HandOutcome, parse_hand, price_hand
from scoring.presets import ruleset_from_json
from scoring.rules import Ruleset


def rules(spec: Any) -> Ruleset:
    return spec if isinstance(spec, Ruleset) else ruleset_from_json(spec)


def win(seat: int, han: int | None = None, fu: int | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, **extra}
    if han is not None:
        out["han"] = han
    if fu is not None:
        out["fu"] = fu
    return out


def ron(discarder: int, *wins: dict[str, Any]) -> dict[str, Any]:
    return {"type": "ron", "discarder": discarder, "wins": list(wins)}


def tsumo(
    winner: int, han: int | None = None, fu: int | None = None, **extra: Any
) -> dict[str, Any]:
    out = {"type": "tsumo", **win(winner, han, fu, **extra)}
    out["winner"] = out.pop("seat")
    return out


def draw(*tenpai: int) -> dict[str, Any]:
    return {"type": "draw", "tenpai": list(tenpai)}


def abort(reason: str) -> dict[str, Any]:
    return {"type": "abort", "reason": reason}


def nagashi(*winners: int) -> dict[str, Any]:
    return {"type": "nagashi", "winners": list(winners)}


def chombo(offender: int) -> dict[str, Any]:
    return {"type": "chombo", "offender": offender}


def hand(
    spec: Any,
    result: dict[str, Any],
    *,
    dealer: int = 0,
    honba: int = 0,
    deposits: int = 0,
    riichi: tuple[int, ...] = (),
    penalties: tuple[int, ...] = (),
    scores: list[int] | None = None,
    players: int | None = None,
    emperor: int | None = None,
) -> HandOutcome:
    r = rules(spec)
    n = players or (len(scores) if scores else r.players)
    data = {"riichi": list(riichi), "penalties": list(penalties), "result": result}
    parsed = parse_hand(data, r, n)
    return price_hand(
        r,
        parsed,
        players=n,
        dealer=dealer,
        honba=honba,
        deposits=deposits,
        scores=scores,
        emperor=emperor,
    )


class Table:
    """A game being played hand by hand, with shortcuts for the hands a test does not care about."""

    def __init__(self, spec: Any, players: int | None = None) -> None:
        self.rules = rules(spec)
        self.flow = GameFlow(self.rules, players or self.rules.players)

    @property
    def n(self) -> int:
        return self.flow.n

    def play(
        self,
        result: dict[str, Any],
        riichi: tuple[int, ...] = (),
        stop: bool = False,
        penalties: tuple[int, ...] = (),
    ):
        data = {
            "riichi": list(riichi),
            "penalties": list(penalties),
            "result": result,
            "stop": stop,
        }
        return self.flow.play(parse_hand(data, self.rules, self.n))

    def cheap_win(self, seat: int | None = None):
        """A 1-han ron by `seat` (default: the dealer's 下家, so the deal passes)."""
        dealer = self.flow.dealer
        seat = (dealer + 1) % self.n if seat is None else seat
        discarder = (seat + 1) % self.n
        fu = 30 if self.rules.fu else None
        return self.play(ron(discarder, win(seat, 1, fu)))

    def pass_deal(self, times: int = 1) -> None:
        for _ in range(times):
            self.cheap_win()

    @property
    def label(self) -> str:
        return self.flow.label
