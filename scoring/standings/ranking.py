"""Ranking the rows: each player's figures over the games (`tally`), then the stages one by one
with their cut, ties and the organizer's decisions (`rank_rows`); `standings` does both."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from itertools import groupby

from scoring.messages import fail
from scoring.standings.records import (
    FORMATS,
    CutTie,
    Format,
    GameResult,
    Penalty,
    Player,
    Row,
    Stage,
    StageResult,
    Standings,
)


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
    add_penalties(rows, penalties, substitutes)
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
        played = sum(1 for p in group if rows[p].games)
        for p in group:
            row = rows[p]
            shared = shared_place(bool(row.games), played)
            row.status = (
                _status(p, results, shared, position) if staged else ("tie" if shared else "")
            )
            row.rank = position
            out.append(row)
        position += len(group)
    return Standings(out, results, tuple(s.name for s in fmt.stages))


def add_penalties(
    rows: dict[Player, Row], penalties: Sequence[Penalty], substitutes: Collection[Player] = ()
) -> None:
    """Count `penalties` in `rows` (a row added for a player who has none): in the total, and
    by round for the stages that count them."""
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


def shared_place(played: bool, played_in_group: int) -> bool:
    """Whether a player's place is shared — a `tie`: they have played, and so has someone
    else in their group of equal figures. Players yet to play are equal at 0.0, which decides
    nothing (issue 66: ten players with no game read "Tied" after one table of round 1)."""
    return played and played_in_group > 1


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
