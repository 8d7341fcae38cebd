"""The scoring engine: rules in, numbers out. Pure Python; it never imports Django.

- `rules`, `presets`: a ruleset is a frozen dataclass of knobs; the seed venues are instances.
- `hands`: one hand's result → each seat's change and the deposits (`emperor` for the card game).
- `flow`: a game hand by hand → dealer, honba, labels, busts, the end.
- `settlement`: final scores → ranks and points.
- `standings`: many games → a ranking, with stages and a cut.
- `cli`: `python -m scoring presets|hand|game|settle`.
"""

from scoring.errors import ScoringError
from scoring.evaluate import Evaluation, evaluate
from scoring.flow import GameFlow, HandRecord, replay
from scoring.hand_parse import parse_hand
from scoring.hand_types import Hand, HandOutcome
from scoring.payments import price_hand
from scoring.presets import PRESETS, ruleset_from_json
from scoring.rules import Ruleset
from scoring.settlement import Bust, Settlement, settle
from scoring.standings import FORMATS, GameResult, Standings, standings

__all__ = [
    "FORMATS",
    "PRESETS",
    "Bust",
    "Evaluation",
    "GameFlow",
    "GameResult",
    "Hand",
    "HandOutcome",
    "HandRecord",
    "Ruleset",
    "ScoringError",
    "Settlement",
    "Standings",
    "evaluate",
    "parse_hand",
    "price_hand",
    "replay",
    "ruleset_from_json",
    "settle",
    "standings",
]
