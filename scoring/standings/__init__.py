"""Standings over many games: totals, top rate, average rank, stages with a cut.

A format is data: a list of stages. Each stage ranks its players on the total of some rounds,
breaks ties by top rate over the same rounds, and sends the top `advance` to the next stage.
The final order is the last stage's players, then those cut at each earlier stage. A tie that
the tiebreaks do not break is reported (status `tie`, shared rank), never broken silently —
unless the organizer has settled it (`decisions`).
"""

from scoring.standings.ranking import rank_rows, standings, tally
from scoring.standings.records import (
    FORMATS,
    CutTie,
    Detail,
    Format,
    GameResult,
    Penalty,
    Played,
    Player,
    Row,
    Stage,
    StageFigures,
    StageResult,
    Standings,
)

__all__ = [
    "FORMATS",
    "CutTie",
    "Detail",
    "Format",
    "GameResult",
    "Penalty",
    "Played",
    "Player",
    "Row",
    "Stage",
    "StageFigures",
    "StageResult",
    "Standings",
    "rank_rows",
    "standings",
    "tally",
]
