"""`rank_again` (scoring/standings/again.py) equals `rank_rows` on any standings and any change
of a few players' figures, and leaves the standings it started from as they were."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.standings import FORMATS, Penalty, Row, rank_rows
from scoring.standings.again import rank_again
from scoring.standings.records import Format, Stage

# Few distinct totals and rates, so that ties (and ties broken by the top rate) are common.
FIGURES = st.tuples(
    st.sampled_from([Decimal(v) / 2 for v in range(-6, 7)]),  # total
    st.integers(0, 3),  # games
    st.integers(0, 3),  # firsts (kept ≤ games below)
)


def row(name: str, figures: tuple[Decimal, int, int]) -> Row:
    total, games, firsts = figures
    return Row(name, total=total, games=games, firsts=min(firsts, games))


def seen(standings) -> tuple:
    """Everything a reader sees of standings."""
    rows = [
        (r.player, r.rank, r.status, r.total, r.games, r.firsts, r.penalties, r.stage)
        for r in standings.rows
    ]
    rows += [(r.stage_total, dict(r.penalty_rounds)) for r in standings.rows]
    stages = [
        (s.stage, s.order, list(s.advancing), s.tied_at_cut, s.complete, s.cut_tie)
        for s in standings.stages
    ]
    return rows, stages, [dict(s.ranked_on) for s in standings.stages]


@st.composite
def cases(draw):
    n = draw(st.integers(16, 60))
    names = [f"P{i:02d}" for i in draw(st.permutations(range(n)))]  # rows in any order
    before = {name: draw(FIGURES) for name in names}
    changed = draw(st.lists(st.sampled_from(names), min_size=0, max_size=n // 8, unique=True))
    after = dict(before)
    for name in changed:
        after[name] = draw(FIGURES)
    fined = draw(st.lists(st.sampled_from(names), max_size=3))
    penalties = [Penalty(name, Decimal(-2), draw(st.none() | st.integers(1, 3))) for name in fined]
    tiebreaks = draw(st.sampled_from([("top_rate",), ()]))
    return names, before, after, changed, penalties, tiebreaks


@settings(max_examples=300, deadline=None)
@given(cases())
def test_rank_again_equals_ranking_everyone(case):
    names, before, after, changed, penalties, tiebreaks = case
    fmt = Format("league", (Stage("league"),), tiebreaks)
    previous = rank_rows([row(n, before[n]) for n in names], fmt, penalties=penalties)
    shown_before = seen(previous)
    again = rank_again(previous, [row(n, after[n]) for n in changed], fmt, penalties=penalties)
    full = rank_rows([row(n, after[n]) for n in names], fmt, penalties=penalties)
    assert again is not None
    assert seen(again) == seen(full)
    assert seen(previous) == shown_before  # readers holding the old standings see them still


def test_only_the_span_between_the_old_and_new_places_is_ranked_again():
    names = [f"P{i:03d}" for i in range(100)]
    previous = rank_rows([row(n, (Decimal(100 - i), 1, 0)) for i, n in enumerate(names)])
    # P050 (51st, 50 points) climbs to 48th with 53.5 points: rows 48–51 move, no other.
    again = rank_again(previous, [row("P050", (Decimal("53.5"), 2, 1))], FORMATS["league"])
    assert [r.player for r in again.rows[45:52]] == [
        "P045", "P046", "P050", "P047", "P048", "P049", "P051"
    ]  # fmt: skip
    kept = [i for i, r in enumerate(again.rows) if r is previous.rows[i]]
    assert kept == [*range(47), *range(51, 100)]


def test_what_it_leaves_to_ranking_everyone():
    rows = [row(f"P{i:02d}", (Decimal(i), 1, 0)) for i in range(40)]
    league = FORMATS["league"]
    previous = rank_rows(rows, league)
    one = [row("P01", (Decimal(50), 2, 1))]
    assert rank_again(previous, [], league) is previous
    assert rank_again(rank_rows(rows, "baba"), one, FORMATS["baba"]) is None  # a cut
    assert rank_again(previous, one, Format("x", (Stage("x", 1, 4),))) is None  # some rounds
    assert rank_again(previous, one, league, decisions={"league": ["P01", "P02"]}) is None
    assert rank_again(previous, [row("New", (Decimal(1), 1, 0))], league) is None  # not there
    many = [row(f"P{i:02d}", (Decimal(-i), 2, 0)) for i in range(6)]
    assert rank_again(previous, many, league) is None  # as quick to rank everyone
