"""Standings ranked again after a result, when only a few players' figures moved (issue 46).

`rank_rows` ranks every row: about 25 ms for 10,000 players, paid by the first reader after
every result. A result changes the figures of the four players at its table and nothing else —
the same players, stages, decisions and penalties (what the app's `Ranked.follows` holds). In
a format of one stage over every round, nothing settled by hand, the new standings then differ
from the old only between the places those players left and the places they take, widened to
whole groups of tied players: `rank_again` ranks that span and keeps every row outside it, the
same objects. Anything else — a cut, a stage of some rounds, a decision, many players changed
at once — is left to `rank_rows` (None). tests/scoring/test_rank_again.py holds it equal to
`rank_rows` on any standings and any change.
"""

from __future__ import annotations

import copy
from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from scoring.standings.ranking import add_penalties
from scoring.standings.records import Format, Penalty, Player, Row, StageResult, Standings

# Past one changed player in this many, ranking everyone is as quick (each is found by a scan).
FEW = 8

Figures = Mapping[Player, tuple[Decimal, int, int]]


def _place(figures: Figures, top_rate: bool) -> Callable[[Player], tuple]:
    """What a place is decided on, exactly (rank_rows' floats agree with these: see
    `_rank_stage`): the total, then the top rate where it breaks ties."""

    def place(player: Player) -> tuple:
        total, games, firsts = figures[player]
        return (total, Fraction(firsts, games) if games else Fraction(0)) if top_rate else (total,)

    return place


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
    groups: list[list[Player]] = []
    for player in new[lo : hi + 1]:
        if groups and place(groups[-1][0]) == place(player):
            groups[-1].append(player)
        else:
            groups.append([player])
    kept = {row.player: row for row in previous.rows[lo : hi + 1]}
    span: list[Row] = []
    position = lo + 1
    for group in groups:
        status = "tie" if len(group) > 1 else ""
        for player in group:
            row = rows[player] if player in rows else copy.copy(kept[player])
            row.rank, row.status = position, status
            row.stage, row.stage_total = stage.name, figures[player][0]
            span.append(row)
        position += len(group)
    out = [*previous.rows[:lo], *span, *previous.rows[hi + 1 :]]
    ranked = StageResult(stage, before + groups + after, new, [], result.complete, None, figures)
    return Standings(out, [ranked])


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
