"""The kinds of game a ruleset can be (`Ruleset.game`): riichi mahjong and the emperor card
game. Code that behaves differently for one asks its game type what it has — a rotating deal,
honba, yakuman — instead of testing the game's name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring import emperor, riichi
from scoring.hand_types import Result
from scoring.parse import Doc
from scoring.rules import Ruleset


@dataclass(frozen=True)
class GameType:
    name: str
    parse_result: Callable[[Doc, Ruleset, int], Result]  # a hand's `result` from JSON
    rotating_deal: bool  # the deal passes round the table (winds, アガリ止め at the last hand);
    # otherwise whoever holds the emperor's title deals and hands are counted (dynasties)
    honba: bool  # repeat counters (本場) in labels and payments
    yakuman: bool  # yakuman exist (chips 祝儀, pao)
    scored_by: str  # how a win is entered: "han_fu" (han, fu, yakuman) or "yaku" (yaku, bonus
    # yaku, virtue, calls)


RIICHI = GameType(
    "riichi",
    riichi.parse_result,
    rotating_deal=True,
    honba=True,
    yakuman=True,
    scored_by="han_fu",
)
EMPEROR = GameType(
    "emperor",
    emperor.parse_emperor_result,
    rotating_deal=False,
    honba=False,
    yakuman=False,
    scored_by="yaku",
)
GAME_TYPES: dict[str, GameType] = {g.name: g for g in (RIICHI, EMPEROR)}


def game_type(rules: Ruleset) -> GameType:
    return GAME_TYPES[rules.game]
