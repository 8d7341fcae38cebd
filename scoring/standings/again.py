"""Standings ranked again after a result, when only a few players' figures moved (issue 46).

`rank_rows` ranks every row: about 35 ms for 10,000 players (their rows made too), paid by
the first reader after every result. A result changes the figures of the four players at its
table and nothing else — the same players, stages, decisions and penalties (what the app's
`Ranked.follows` holds). In a format of one stage over every round, nothing settled by hand,
the new standings then differ from the old only between the places those players left and
the places they take, widened to whole groups of tied players: `rank_again` ranks that span
and keeps every row outside it, the same objects — about 12 ms when a result moves a few
thousand rows of 10,000 (a game's ±50 points cross that many players in a field so dense).
Anything else — a cut, a stage of some rounds, a decision, many players changed at once — is
left to `rank_rows` (None). tests/scoring/test_rank_again.py holds it equal to `rank_rows` on
any standings and any change.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from itertools import groupby

from scoring.standings.ranking import add_penalties, shared_place
from scoring.standings.records import Format, Penalty, Player, Row, StageResult, Standings

# Past one changed player in this many, ranking everyone is as quick (each is found by a scan).
FEW = 8

Figures = Mapping[Player, tuple[Decimal, int, int]]


def _place(figures: Figures, top_rate: bool) -> Callable[[Player], tuple]:
    """What a place is decided on, as `_rank_stage` decides it: the total (exactly), then the
    top rate where it breaks ties (a float: exact enough to tell two rates apart, see there)."""

    def place(player: Player) -> tuple:
        total, games, firsts = figures[player]
        return (total, firsts / games if games else 0.0) if top_rate else (total,)

    return place


def _copy(row: Row) -> Row:
    """A row as it stands, to be given another place: `copy.copy` takes four times as long
    (a span of thousands of rows moves when a result lifts a player far)."""
    moved = object.__new__(Row)
    for name in ROW_SLOTS:
        setattr(moved, name, getattr(row, name))
    return moved


ROW_SLOTS = tuple(Row.__slots__)


def rank_again(
    previous: Standings,
    changed: Iterable[Row],
    fmt: Format,
    decisions: Mapping[str, Sequence[Player]] | None = None,
    penalties: Sequence[Penalty] = (),
) -> Standings | None:
    """`previous` (made by `rank_rows` with this format, decisions and penalties) with the rows
    of `changed` — the players whose figures moved, as tallied afresh — in place of theirs;
    None where `rank_rows` must rank everyone. `changed` rows get their penalties (from
    `penalties`), rank and status; `previous` and its rows are left as they were (readers may
    hold them), rows that move are copies."""
    (stage,) = fmt.stages if len(fmt.stages) == 1 else (None,)
    if stage is None or len(previous.stages) != 1:
        return None
    if (stage.first_round, stage.last_round, stage.advance) != (None, None, None):
        return None
    if (decisions or {}).get(stage.name):
        return None
    result = previous.stages[0]
    rows = {row.player: row for row in changed}
    old = result.advancing  # everyone, best first (the last stage sends all "through")
    if any(p not in result.ranked_on for p in rows) or len(rows) * FEW > len(old):
        return None
    if not rows:
        return previous
    add_penalties(rows, [p for p in penalties if p.player in rows])
    figures = dict(result.ranked_on)
    for player, row in rows.items():
        figures[player] = (row.total, row.games, row.firsts)
    top_rate = "top_rate" in fmt.tiebreaks
    was, place = _place(result.ranked_on, top_rate), _place(figures, top_rate)

    def order(player: Player) -> tuple:  # best first, tied players by name (as rank_rows)
        return (*(-v for v in place(player)), str(player))

    new = [p for p in old if p not in rows]
    for player in sorted(rows, key=order):
        insort(new, player, key=order)
    ends = [old.index(p) for p in rows] + [new.index(p) for p in rows]
    lo, hi, last = min(ends), max(ends), len(new) - 1
    # Whole groups of tied players, before and after: a player beside the span may have
    # gained or lost a tie with a moved one (the rows outside are the same in both orders).
    while lo > 0 and (place(new[lo - 1]) == place(new[lo]) or was(old[lo - 1]) == was(old[lo])):
        lo -= 1
    while hi < last and (place(new[hi]) == place(new[hi + 1]) or was(old[hi]) == was(old[hi + 1])):
        hi += 1
    before, after = _groups_outside(result.order, lo, last - hi)
    inside = new[lo : hi + 1]
    groups = [list(group) for _, group in groupby(inside, place)]
    kept = {row.player: row for row in previous.rows[lo : hi + 1]}
    for player, row in rows.items():
        row.stage, row.stage_total = stage.name, figures[player][0]
    span: list[Row] = []
    position = lo + 1
    for group in groups:
        played = sum(1 for player in group if figures[player][1])
        for player in group:
            status = "tie" if shared_place(bool(figures[player][1]), played) else ""
            if player in rows:
                row = rows[player]
            elif (row := kept[player]).rank != position or row.status != status:
                row = _copy(row)  # a row readers of the old standings may hold: not changed
            else:
                span.append(row)  # its place as it was
                continue
            row.rank, row.status = position, status
            span.append(row)
        position += len(group)
    out = [*previous.rows[:lo], *span, *previous.rows[hi + 1 :]]
    ranked = StageResult(stage, before + groups + after, new, [], result.complete, None, figures)
    return Standings(out, [ranked], (stage.name,))


def _groups_outside(
    order: list[list[Player]], first: int, last: int
) -> tuple[list[list[Player]], list[list[Player]]]:
    """The groups of `order` holding its first `first` players, and those holding its last
    `last` (both end on a group's edge: `rank_again` widened them so)."""
    before: list[list[Player]] = []
    count = 0
    for group in order:
        if count >= first:
            break
        before.append(group)
        count += len(group)
    after: list[list[Player]] = []
    count = 0
    for group in reversed(order):
        if count >= last:
            break
        after.append(group)
        count += len(group)
    after.reverse()
    return before, after
