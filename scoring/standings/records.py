"""What standings are made of: the games, the stages and formats (FORMATS), each player's
row and each stage's result."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property
from typing import Any, NamedTuple

Player = Hashable


@dataclass(frozen=True)
class GameResult:
    """One finished game as standings need it: who sat where, their rank and points."""

    round: int
    players: tuple[Player, ...]  # in seat order
    ranks: tuple[int, ...]
    points: tuple[float | Decimal, ...]
    chips: tuple[int, ...] = ()


@dataclass(frozen=True)
class Stage:
    name: str
    first_round: int | None = None  # None: every round
    last_round: int | None = None
    advance: int | None = None  # how many go on to the next stage; None: the last stage

    def counts(self, round_number: int) -> bool:
        return (self.first_round is None or round_number >= self.first_round) and (
            self.last_round is None or round_number <= self.last_round
        )


@dataclass(frozen=True)
class Format:
    slug: str
    stages: tuple[Stage, ...]
    tiebreaks: tuple[str, ...] = ("top_rate",)

    def closed_after(self, name: str, last: int) -> Format:
        """The format with stage `name` ended early, after round `last` (a Baba qualifier cut
        after round 5 when time runs out): each later stage keeps its number of rounds and
        plays them straight after (the final 7–8 becomes 6–7). A later stage that ranks from
        an earlier round (the Baba final, on 1–8) keeps that start; one that starts after the
        stage moves with it."""
        at = next(i for i, s in enumerate(self.stages) if s.name == name)
        ended = self.stages[at]
        if ended.last_round is None or last >= ended.last_round:
            raise ValueError(f"{name} ends at {ended.last_round}, not after {last}")
        shift = ended.last_round - last
        stages = [*self.stages[:at], replace(ended, last_round=last)]
        for stage in self.stages[at + 1 :]:
            first = stage.first_round
            if first is not None and first > ended.last_round:
                first -= shift
            end = None if stage.last_round is None else stage.last_round - shift
            stages.append(replace(stage, first_round=first, last_round=end))
        return replace(self, stages=tuple(stages))


FORMATS: dict[str, Format] = {
    "league": Format("league", (Stage("league"),)),
    # Baba 1.2(2)(3): top 4 on rounds 1–6 go to the final; the final ranks them on rounds 1–8.
    "baba": Format(
        "baba",
        (Stage("qualifier", 1, 6, advance=4), Stage("final", 1, 8)),
    ),
}


# One game of a row, as the app keeps it: (round, points, rank at the table, chips).
Played = tuple[int, Decimal, int, int]


@dataclass(slots=True)
class Detail:
    """A row's game-by-game figures: what the pages' round columns and rank counts show."""

    rounds: dict[int, Decimal] = field(default_factory=dict)  # round → points
    round_ranks: dict[int, int] = field(default_factory=dict)  # round → rank at the table
    rank_counts: dict[int, int] = field(default_factory=dict)
    rank_sum: int = 0
    chips: int = 0

    def add(self, number: int, rank: int, points: Decimal, chips: int) -> None:
        self.rounds[number] = points
        self.round_ranks[number] = rank
        self.rank_counts[rank] = self.rank_counts.get(rank, 0) + 1
        self.rank_sum += rank
        self.chips += chips


@dataclass(slots=True)
class Row:
    """A player's line. `total`, `games` and `firsts` rank them; the game-by-game detail is
    counted by `add`, or — for a row the app kept (`played`) — read when first asked: ranking
    10,000 players needs three numbers each, a page shows the rounds of a hundred."""

    player: Player
    rank: int = 0
    total: Decimal = Decimal(0)
    games: int = 0
    firsts: int = 0
    status: str = ""
    penalties: Decimal = Decimal(0)  # point adjustments, already in `total`
    penalty_rounds: dict[int | None, Decimal] = field(default_factory=dict)  # round (None: any)
    stage: str = ""  # the last stage this player reached
    stage_total: Decimal = Decimal(0)  # the total the rank is based on
    played: Callable[[], Iterable[Played]] | None = field(default=None, repr=False, compare=False)
    _detail: Detail | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def detail(self) -> Detail:
        if self._detail is None:
            self._detail = Detail()
            for number, points, rank, chips in self.played() if self.played else ():
                self._detail.add(number, rank, points, chips)
        return self._detail

    @property
    def rounds(self) -> dict[int, Decimal]:
        return self.detail.rounds

    @property
    def round_ranks(self) -> dict[int, int]:
        return self.detail.round_ranks

    @property
    def rank_counts(self) -> dict[int, int]:
        return self.detail.rank_counts

    @property
    def rank_sum(self) -> int:
        return self.detail.rank_sum

    @property
    def chips(self) -> int:
        return self.detail.chips

    def add(self, number: int, rank: int, points: Decimal, chips: int = 0) -> None:
        """Count one game: `points` in round `number`, placed `rank`."""
        self.detail.add(number, rank, points, chips)
        self.total += points
        self.games += 1
        if rank == 1:
            self.firsts += 1

    @property
    def top_rate(self) -> float:
        return self.firsts / self.games if self.games else 0.0

    @property
    def average_rank(self) -> float:
        return self.rank_sum / self.games if self.games else 0.0

    def penalties_in(self, stage: Stage | None) -> Decimal:
        """The penalties a stage's ranking counts (None: the event's total): those of its
        rounds, and those given for no round."""
        if stage is None:
            return self.penalties
        counted = (p for r, p in self.penalty_rounds.items() if r is None or stage.counts(r))
        return sum(counted, Decimal(0))

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "total": float(self.total),
            "games": self.games,
            "top_rate": round(self.top_rate, 3),
            "average_rank": round(self.average_rank, 2),
            "rank_counts": [
                self.rank_counts.get(r, 0) for r in range(1, 1 + max(self.rank_counts, default=0))
            ],
            "chips": self.chips,
            "rounds": {str(k): float(v) for k, v in sorted(self.rounds.items())},
            "stage": self.stage,
            "stage_total": float(self.stage_total),
            "status": self.status,
            "penalties": float(self.penalties),
        }


@dataclass(frozen=True)
class Penalty:
    """Points an organizer adds to (or takes from) a player's total: `round` puts it in that
    round's stage; without one it counts in every ranking of the event."""

    player: Player
    points: Decimal
    round: int | None = None


@dataclass(frozen=True)
class CutTie:
    """Equal totals either side of the cut, broken: how (`top_rate`, or the organizer's
    `decision`), with the figures that decided, so a page can say it."""

    above: Player  # the last one through
    below: Player  # the first one out
    total: Decimal
    by: str  # "top_rate" | "decision"
    above_firsts: int
    above_games: int
    below_firsts: int
    below_games: int


class StageFigures(NamedTuple):
    """A player's figures in one stage: over the rounds it counts, with the penalties it
    counts (already in `total`)."""

    total: Decimal
    games: int
    firsts: int
    penalties: Decimal


@dataclass
class StageResult:
    stage: Stage
    order: list[list[Player]]  # groups of tied players, best first
    advancing: list[Player]
    tied_at_cut: list[Player]  # an unresolved tie across the cut line
    complete: bool
    cut_tie: CutTie | None = None  # equal totals at the cut, and what broke the tie
    # What the stage was ranked on: each player's (total, games, firsts) — read through
    # `figures_of`. Plain tuples: 10,000 players are ranked after every result.
    ranked_on: Mapping[Player, tuple[Decimal, int, int]] = field(default_factory=dict)

    def figures_of(self, row: Row) -> StageFigures:
        """`row`'s player's figures in this stage, as its ranking counted them."""
        total, games, firsts = self.ranked_on[row.player]
        return StageFigures(total, games, firsts, row.penalties_in(self.stage))

    def status_of(self, row: Row) -> str:
        """`row`'s status as this stage's own ranking shows it: a tie across its cut, through
        or out at its cut — once its games are all played (a status is a decision, CONTRACT
        §2); a stage that sends nobody on shows the row's overall status."""
        if self.stage.advance is None:
            return row.status
        if not self.complete:
            return ""
        through, tied = self._sets
        if row.player in tied:
            return "tie"
        return "finalist" if row.player in through else "qualifier"

    def now_of(self, player: Player) -> str:
        """Where the cut of a stage still being played falls now for `player`: `in`, `tie`
        (a tie across it) or `out`; empty once the stage is decided or where it cuts nobody.
        Words for the pages ("in the cut now"), never a status."""
        if self.stage.advance is None or self.complete or not self.played:
            return ""
        through, tied = self._sets
        if player in tied:
            # Sharing the line with players who have not played yet says nothing: the twelve
            # at 0.0 while one table has finished are no "tie at the cut".
            return "tie" if self.ranked_on[player][1] else ""
        return "in" if player in through else "out"

    @property
    def through(self) -> frozenset[Player]:
        return self._sets[0]

    @cached_property
    def played(self) -> bool:
        """Whether anyone has played a game this stage counts."""
        return any(games for _total, games, _firsts in self.ranked_on.values())

    @cached_property
    def _sets(self) -> tuple[frozenset[Player], frozenset[Player]]:
        """Who goes through and who is tied at the cut, to look up once per row (a cut may
        send a thousand players on)."""
        return frozenset(self.advancing), frozenset(self.tied_at_cut)

    @property
    def to_settle(self) -> list[Player]:
        """The tie the organizer settles here (by lot, a play-off…): the players tied across
        the cut; in a stage that sends nobody on (a league, a final), the best place still
        shared. Empty when there is none."""
        if self.stage.last_round is not None and not self.complete:
            return []  # its games may yet part them
        if not self.played:
            return []  # nobody has played: equal at nothing is no tie
        if self.tied_at_cut:
            return list(self.tied_at_cut)
        if self.stage.advance is None:
            return next((list(group) for group in self.order if len(group) > 1), [])
        return []

    @property
    def tied_at_top(self) -> list[Player]:
        """Players sharing first place in a stage that sends nobody on: its winner undecided."""
        if self.stage.advance is None and self.order and len(self.order[0]) > 1:
            return list(self.order[0])
        return []


@dataclass
class Standings:
    rows: list[Row]
    stages: list[StageResult]  # the stages ranked: a tie across a cut stops the ranking there
    named: tuple[str, ...] = ()  # every stage of the format, ranked or not, in order

    def stage(self, name: str) -> StageResult | None:
        """The ranked stage so named; None where none is (not ranked yet, or no such name)."""
        return next((s for s in self.stages if s.stage.name == name), None)

    def before(self, stage: StageResult) -> StageResult | None:
        """The stage whose cut sends players on to `stage` (None for the first)."""
        at = next(i for i, s in enumerate(self.stages) if s is stage)
        return self.stages[at - 1] if at else None

    def deciding(self, name: str) -> StageResult | None:
        """The stage still deciding who plays stage `name`: the one before it while its games
        remain, or — where the ranking stopped at a tie across an earlier cut — the stage
        with that tie, played or not. None once `name`'s players are decided (the first
        stage's are everyone) or where no stage is so named. Until then the players a later
        stage would list are where the cut falls now: a page says the stage is not decided,
        never shows them as its table (CONTRACT §2: a status is a decision)."""
        if name not in self.named[1:] or not self.stages:
            return None
        ranked = self.stage(name)
        if ranked is None:
            return self.stages[-1]  # the ranking stopped before it
        previous = self.before(ranked)
        return previous if previous is not None and not previous.complete else None

    @property
    def complete(self) -> bool:
        """Every stage ranked and the last one's games all played: nothing left to change
        but by hand. A played stage with a tie across its cut is not: the stages after it
        wait for the organizer to settle it."""
        last = self.stages[-1] if self.stages else None
        return last is not None and len(self.stages) == len(self.named) and last.complete

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": [r.to_json() for r in self.rows],
            "stages": [
                {
                    "name": s.stage.name,
                    "advancing": s.advancing,
                    "tied_at_cut": s.tied_at_cut,
                    "complete": s.complete,
                }
                for s in self.stages
            ],
        }
