"""Standings over many games: totals, top rate, average rank, stages with a cut.

A format is data: a list of stages. Each stage ranks its players on the total of some rounds,
breaks ties by top rate over the same rounds, and sends the top `advance` to the next stage.
The final order is the last stage's players, then those cut at each earlier stage. A tie that
the tiebreaks do not break is reported (status `tie`, shared rank), never broken silently —
unless the organizer has settled it (`decisions`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from itertools import groupby
from typing import Any, NamedTuple

from scoring.messages import fail

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
    stages: list[StageResult]

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


def _points(value: float | Decimal) -> Decimal:
    # A database hands Decimals already; floats go through str so 0.1 stays 0.1.
    return value if isinstance(value, Decimal) else Decimal(str(value))


def standings(
    games: Sequence[GameResult],
    fmt: Format | str = "league",
    players: Sequence[Player] = (),
    decisions: Mapping[str, Sequence[Player]] | None = None,
    substitutes: Collection[Player] = (),
    penalties: Sequence[Penalty] = (),
) -> Standings:
    """Rank everyone. `decisions[stage]` orders players the organizer has settled a tie for.
    `substitutes` stood in to fill tables: their games count for the others, not for them.
    `penalties` count in the totals, and so in the cut and any seating by standings."""
    rows = tally(games, players, substitutes)
    return rank_rows(rows.values(), fmt, decisions, substitutes, penalties)


def tally(
    games: Sequence[GameResult],
    players: Sequence[Player] = (),
    substitutes: Collection[Player] = (),
) -> dict[Player, Row]:
    """Each player's row over these games (penalties not yet counted): what `rank_rows` ranks.
    The app keeps these figures per entry, so a reader ranks without reading every game."""
    rows: dict[Player, Row] = {p: Row(p) for p in players if p not in substitutes}
    for i, game in enumerate(games):
        number, seated, ranks, points = game.round, game.players, game.ranks, game.points
        chips_won = game.chips or (0,) * len(seated)
        if not (len(seated) == len(ranks) == len(points) == len(chips_won)):
            raise fail("standings.shape", f"games[{i}]")
        # The hottest loop of a standings page: 8,192 seats for a 1,024-player event.
        for player, rank, value, chips in zip(seated, ranks, points, chips_won, strict=True):
            if player in substitutes:
                continue
            row = rows.get(player)
            if row is None:
                row = rows[player] = Row(player)
            if number in row.rounds:
                raise fail("standings.twice", f"games[{i}]", player=player, round=number)
            row.add(number, rank, _points(value), chips)
    return rows


def rank_rows(
    tallied: Iterable[Row],
    fmt: Format | str = "league",
    decisions: Mapping[str, Sequence[Player]] | None = None,
    substitutes: Collection[Player] = (),
    penalties: Sequence[Penalty] = (),
) -> Standings:
    """Rank rows already tallied (by `tally`, or kept by the app game by game). The rows are
    the caller's to give: penalties are added to them and each gets its rank and status."""
    if isinstance(fmt, str):
        if fmt not in FORMATS:
            raise fail("standings.format", "format", value=fmt, known=", ".join(FORMATS))
        fmt = FORMATS[fmt]
    decisions = decisions or {}
    rows: dict[Player, Row] = {r.player: r for r in tallied if r.player not in substitutes}

    for penalty in penalties:
        if penalty.player in substitutes:
            continue
        row = rows.get(penalty.player)
        if row is None:
            row = rows[penalty.player] = Row(penalty.player)
        points = _points(penalty.points)
        row.total += points
        row.penalties += points
        row.penalty_rounds[penalty.round] = row.penalty_rounds.get(penalty.round, 0) + points

    entrants = list(rows)
    results: list[StageResult] = []
    final_order: list[list[Player]] = []
    cut_groups: list[list[list[Player]]] = []  # per stage: the groups that stopped there
    for index, stage in enumerate(fmt.stages):
        if stage.first_round is None and stage.last_round is None:  # the rows' own figures
            figures = {p: (r.total, r.games, r.firsts) for p in entrants for r in (rows[p],)}
        else:
            figures = {p: _stage_figures(stage, rows[p]) for p in entrants}
        ranked = _rank_stage(figures, fmt.tiebreaks, decisions.get(stage.name, ()))
        is_last = index == len(fmt.stages) - 1
        complete = _stage_complete(stage, rows, entrants)
        if is_last or stage.advance is None:
            everyone = [p for g in ranked for p in g]
            results.append(StageResult(stage, ranked, everyone, [], complete, None, figures))
            final_order = ranked
            for group in ranked:
                for p in group:
                    rows[p].stage = stage.name
                    rows[p].stage_total = figures[p][0]
            break
        advancing: list[Player] = []
        tied: list[Player] = []
        stopped: list[list[Player]] = []
        for group in ranked:
            # Places taken include a tie across the line: nobody below it can go through.
            room = stage.advance - len(advancing) - len(tied)
            if room <= 0:
                stopped.append(group)
            elif len(group) <= room:
                advancing.extend(group)
            else:
                tied.extend(group)  # the cut line falls inside an unresolved tie
        for group in ranked:
            for p in group:
                rows[p].stage = stage.name
                rows[p].stage_total = figures[p][0]
        results.append(
            StageResult(
                stage,
                ranked,
                advancing,
                tied,
                complete,
                _cut_tie(figures, advancing, stopped),
                figures,
            )
        )
        if tied:
            # Nobody can be seated for the next stage until the organizer settles the tie.
            final_order = [[p] for p in advancing] + [tied] + stopped
            cut_groups = []
            break
        cut_groups.append(stopped)
        entrants = advancing

    tied_at_cut = any(r.tied_at_cut for r in results)
    if not tied_at_cut:
        ordered = list(final_order)
        for stopped in reversed(cut_groups):
            ordered.extend(stopped)
        final_order = ordered
    staged = len(fmt.stages) > 1
    # One pass gives every row its rank and its status.
    out: list[Row] = []
    position = 1
    for group in final_order:
        for p in group:
            row = rows[p]
            row.status = (
                _status(p, results, len(group) > 1, position)
                if staged
                else ("tie" if len(group) > 1 else "")
            )
            row.rank = position
            out.append(row)
        position += len(group)
    return Standings(out, results)


def _status(player: Player, results: Sequence[StageResult], shared: bool, position: int) -> str:
    """A staged format's status for `player` (CONTRACT §2: a decision, never a forecast): each
    cut they meet decides only once its stage's games are all played — out at it
    (`qualifier`), tied across it (`tie`) or through; through every cut, a `finalist`, and once
    the last stage is played, its winner the `champion`. A place shared once decided: `tie`.
    While a stage's games remain, the players still in it have no status."""
    for result in results:
        if result.stage.advance is None:  # the last stage: they made every cut to be here
            if not result.complete:
                return "finalist"
            if shared:
                return "tie"
            return "champion" if position == 1 else "finalist"
        if not result.complete:
            return ""
        if player in result.tied_at_cut:
            return "tie"
        if player not in result.through:
            return "tie" if shared else "qualifier"
    return "finalist"  # through every cut ranked so far


def _stage_figures(stage: Stage, row: Row) -> tuple[Decimal, int, int]:
    """Total, games and first places over the rounds a stage of some rounds counts, in one
    pass (a stage over every round has them already: the row's own, see `rank_rows`)."""
    total, games, firsts = Decimal(0), 0, 0
    for number, points in row.rounds.items():
        if stage.counts(number):
            total += points
            games += 1
            firsts += row.round_ranks[number] == 1
    return total + row.penalties_in(stage), games, firsts


def _cut_tie(
    figures: Mapping[Player, tuple[Decimal, int, int]],
    advancing: Sequence[Player],
    stopped: Sequence[Sequence[Player]],
) -> CutTie | None:
    """The tie at the cut a tiebreak or a decision settled: the last through and the first
    out on the same total."""
    if not advancing or not stopped or not stopped[0]:
        return None
    above, below = advancing[-1], stopped[0][0]
    (total, games_a, firsts_a), (below_total, games_b, firsts_b) = figures[above], figures[below]
    if total != below_total:
        return None
    rate_a = Fraction(firsts_a, games_a) if games_a else Fraction(0)
    rate_b = Fraction(firsts_b, games_b) if games_b else Fraction(0)
    by = "top_rate" if rate_a != rate_b else "decision"
    return CutTie(above, below, total, by, firsts_a, games_a, firsts_b, games_b)


def _stage_complete(stage: Stage, rows: Mapping[Player, Row], entrants: Sequence[Player]) -> bool:
    if stage.first_round is None or stage.last_round is None:
        return False
    needed = set(range(stage.first_round, stage.last_round + 1))
    return bool(entrants) and all(needed <= set(rows[p].rounds) for p in entrants)


def _rank_stage(
    figures: Mapping[Player, tuple[Decimal, int, int]],
    tiebreaks: Sequence[str],
    decided: Sequence[Player],
) -> list[list[Player]]:
    """Groups of players, best first; a group of several is a tie nothing broke, its
    players in name order. `figures` are each player's (total, games, firsts) over the
    stage's rounds."""
    top_rate = "top_rate" in tiebreaks  # the one tiebreak there is
    # Names first, then the figures, best first: the sort is stable (reversed too), so tied
    # players come out in name order — two sorts in C instead of one per tie group (a
    # 10,000-player event has thousands of them).
    names = sorted(figures, key=str)
    values = list(map(figures.__getitem__, names))
    # Floats sort three times faster than Decimals. A rate is exact enough as one: two rates
    # with denominators below 2**26 are equal exactly when their correctly rounded quotients
    # are. A total is too unless it has more than 15 significant digits; should two unequal
    # totals ever meet in one float, the ranking is made again on the Decimals themselves.
    # (Comprehensions and C-level sorting and grouping over positions: 10,000 players are
    # ranked after every result.)
    for exact in (False, True):
        if top_rate:
            keys = [(t if exact else float(t), f / g if g else 0.0) for t, g, f in values]
        else:
            keys = [(t if exact else float(t),) for t, _g, _f in values]
        order = sorted(range(len(names)), key=keys.__getitem__, reverse=True)  # stable
        groups = [list(map(names.__getitem__, g)) for _, g in groupby(order, keys.__getitem__)]
        if exact or all(
            len({figures[p][0] for p in group}) == 1 for group in groups if len(group) > 1
        ):
            break
    if not decided:
        return groups
    # The organizer's decision settles a tie when it names every tied player.
    order: dict[Player, int] = {}
    for index, player in enumerate(decided):
        order.setdefault(player, index)
    settled: list[list[Player]] = []
    for group in groups:
        if len(group) > 1 and all(p in order for p in group):
            settled.extend([p] for p in sorted(group, key=order.__getitem__))
        else:
            settled.append(group)
    return settled
