"""What the organizer's dashboard says of each stage: its result, the rounds it is played in,
whether it is done or begun, the tie it must settle; and the cut the next round seats from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring import Standings
from scoring.standings import StageResult
from tournament.models import Stage


@dataclass
class StageRow:
    stage: Stage
    result: StageResult | None  # None for a stage after an open tie
    played: tuple[int | None, int | None]  # the rounds it is played in (its heading)
    done: bool  # the engine calls it complete (a league: its tables are done)
    tied: list[str]  # the players whose shared place must be settled before closing
    begun: bool  # its own rounds have begun
    tie_form: Any = None  # the view's: the form that settles `tied`


def stage_rows(
    standings: Standings, stages: list[Stage], latest: int, played_out: bool
) -> list[StageRow]:
    """A row per stage, from the standings (no query). `latest`: the last round seated;
    `played_out`: the tables of the round in play are all done."""
    results = {r.stage.name: r for r in standings.stages}  # a stage after an open tie has none
    rows = []
    for stage, played in zip(stages, played_rounds(stages), strict=True):
        result = results.get(stage.name)
        # A tie is asked about only once the engine says the stage is complete and names one
        # to settle: a new event's players all share 0 across the cut, and each result
        # moves them (issue 43: a 16-way tie panel before any game). A league has no last
        # round, so the engine never calls it complete: its shared places are settled once
        # its tables are done (before a game, everyone shares every place).
        done = result is not None and (
            result.complete if stage.last_round is not None else played_out
        )
        tied = [str(p) for p in result.to_settle] if done and result is not None else []
        # Its own rounds have begun (a Baba final ranks on 1–8 but begins at 7).
        begun = latest >= (played[0] or 1)
        rows.append(StageRow(stage, result, played, done, tied, begun))
    return rows


def cut_before(rows: list[StageRow], next_round: int) -> StageRow | None:
    """The last stage that advanced players and ended before `next_round`: after a cut the
    next round seats those through it, not everyone registered."""
    return next(
        (
            row
            for row in reversed(rows)
            if row.stage.advance
            and row.stage.last_round is not None
            and row.stage.last_round < next_round
            and row.result is not None
        ),
        None,
    )


def played_rounds(stages: list[Stage]) -> list[tuple[int | None, int | None]]:
    """The rounds each stage is played in, as its heading shows them: from the round after the
    stage before it ends (a Baba final ranks on rounds 1–8 but is played in 7–8); None for
    a league's open ends."""
    out = []
    before: int | None = None
    for stage in stages:
        first = stage.first_round
        if before is not None and (first is None or first <= before):
            first = before + 1
        out.append((first, stage.last_round))
        before = stage.last_round
    return out
