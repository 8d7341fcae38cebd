"""What the organizer's dashboard says of each stage: its result, the rounds it is played in,
whether it is done or begun, the tie it must settle; and the cut the next round seats from."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    # What closing waits for, by the rule stage_close keeps (services/stages.py `_missing`):
    # its last round while one of its rounds is not seated; else its tables not finished,
    # (round, table) in play order. Closing is offered only when it waits for nothing.
    unseated: int | None = None
    open_tables: list[tuple[int, int]] = field(default_factory=list)
    tie_form: Any = None  # the view's: the form that settles `tied`

    @property
    def closable(self) -> bool:
        """stage_close accepts it as far as its games go (a tie it names is asked apart)."""
        return self.begun and self.unseated is None and not self.open_tables


def stage_rows(
    standings: Standings,
    stages: list[Stage],
    latest: int,
    played_out: bool,
    seated: set[int] | None = None,
    unfinished: list[tuple[int, int]] | None = None,
) -> list[StageRow]:
    """A row per stage, from the standings (no query). `latest`: the last round seated;
    `played_out`: the tables of the round in play are all done; `seated`: the numbers of the
    rounds seated (1–`latest` when not given); `unfinished`: (round, table) of every game
    not finished, in play order (the dashboard's table states hold them all)."""
    seated = set(range(1, latest + 1)) if seated is None else seated
    unfinished = sorted(unfinished or [])
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
        first, last = stage.first_round or 1, stage.last_round
        unseated = None
        if last is not None and not set(range(first, last + 1)) <= seated:
            unseated = last
        open_tables = [
            (n, table) for n, table in unfinished if n >= first and (last is None or n <= last)
        ]
        rows.append(StageRow(stage, result, played, done, tied, begun, unseated, open_tables))
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
