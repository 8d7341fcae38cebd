"""League standings: totals, games, top rate, average rank, rank counts, ties."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.standings import GameResult, standings


def game(rnd, players, ranks, points, chips=()):
    return GameResult(rnd, tuple(players), tuple(ranks), tuple(points), tuple(chips))


def test_league_totals_top_rate_average_rank_and_rank_counts():
    games = [
        game(1, "ABCD", (1, 2, 3, 4), (40.5, 10.0, -15.2, -35.3)),
        game(2, "ABCE", (2, 1, 4, 3), (5.0, 30.0, -20.0, -15.0)),
        game(3, "ABDE", (4, 1, 2, 3), (-30.0, 45.1, 0.2, -15.3)),
    ]
    result = standings(games, "league", players="ABCDEF")
    rows = {r.player: r for r in result.rows}
    # F has played nothing yet: 0 is above everyone below 0.
    assert [r.player for r in result.rows] == ["B", "A", "F", "E", "D", "C"]
    assert (str(rows["A"].total), str(rows["B"].total)) == ("15.5", "85.1")
    assert rows["A"].games == 3 and rows["F"].games == 0
    assert rows["B"].top_rate == pytest.approx(2 / 3)
    assert rows["A"].average_rank == pytest.approx(7 / 3)
    assert rows["A"].to_json()["rank_counts"] == [1, 1, 0, 1]
    assert {k: float(v) for k, v in rows["A"].rounds.items()} == {1: 40.5, 2: 5.0, 3: -30.0}
    assert all(r.status == "" for r in result.rows)


def test_totals_are_exact_decimals():
    games = [game(r, "ABCD", (1, 2, 3, 4), (0.1, 0.2, -0.1, -0.2)) for r in range(1, 4)]
    row = {r.player: r for r in standings(games).rows}["A"]
    assert str(row.total) == "0.3"


def test_equal_totals_broken_by_top_rate():
    games = [
        game(1, "ABCD", (1, 2, 3, 4), (20, 10, -10, -20)),
        game(2, "ABCD", (3, 2, 1, 4), (0, 10, 20, -30)),
    ]
    rows = standings(games).rows
    # A and B both have 20; A has a first.
    assert [(r.player, r.rank, r.status) for r in rows] == [
        ("A", 1, ""),
        ("B", 2, ""),
        ("C", 3, ""),
        ("D", 4, ""),
    ]


def test_a_tie_nothing_breaks_shares_the_rank_and_says_tie():
    games = [
        game(1, "ABCD", (1, 2, 3, 4), (20, 10, -10, -20)),
        game(2, "ABCD", (2, 1, 3, 4), (10, 20, -10, -20)),
    ]
    rows = standings(games).rows
    assert [(r.rank, r.status) for r in rows] == [(1, "tie"), (1, "tie"), (3, ""), (4, "")]


def test_a_player_cannot_play_a_round_twice():
    with pytest.raises(ScoringError, match="twice"):
        standings(
            [
                game(1, "ABCD", (1, 2, 3, 4), (1, 0, 0, -1)),
                game(1, "AEFG", (1, 2, 3, 4), (1, 0, 0, -1)),
            ]
        )


def test_unknown_format_is_refused():
    with pytest.raises(ScoringError, match="format"):
        standings([], "swiss")


def _cut_format():
    from scoring.standings import Format, Stage

    return Format("cut", (Stage("qualifier", 1, 2, advance=2), Stage("final", 1, 3)))


def test_equal_totals_at_the_cut_say_what_broke_the_tie():
    # After two rounds B and C both have 20: B has a first (1 of 2), C none.
    games = [
        game(1, "ABCD", (1, 3, 2, 4), (40, -10, 10, -40)),
        game(2, "ABCD", (2, 1, 3, 4), (10, 30, 10, -50)),
    ]
    stage = standings(games, _cut_format(), players="ABCD").stages[0]
    tie = stage.cut_tie
    assert stage.advancing == ["A", "B"] and tie is not None
    assert (tie.above, tie.below, tie.by, str(tie.total)) == ("B", "C", "top_rate", "20")
    assert (tie.above_firsts, tie.above_games, tie.below_firsts, tie.below_games) == (1, 2, 0, 2)


def test_a_cut_settled_by_the_organizer_says_so_and_a_clear_cut_says_nothing():
    games = [
        game(1, "ABCD", (1, 2, 3, 4), (40, 10, -10, -40)),
        game(2, "ABCD", (1, 3, 2, 4), (10, -10, 10, -10)),
    ]
    # B and C: 0 each, no firsts: a tie nothing breaks, until the organizer orders it.
    open_tie = standings(games, _cut_format(), players="ABCD").stages[0]
    assert open_tie.tied_at_cut == ["B", "C"] and open_tie.cut_tie is None
    decided = standings(
        games, _cut_format(), players="ABCD", decisions={"qualifier": ["C", "B"]}
    ).stages[0]
    assert decided.advancing == ["A", "C"] and decided.cut_tie.by == "decision"
    clear = [game(1, "ABCD", (1, 2, 3, 4), (40, 10, -10, -40))]
    assert standings(clear, _cut_format(), players="ABCD").stages[0].cut_tie is None


def test_a_penalty_counts_in_the_total_and_moves_the_cut():
    from decimal import Decimal

    from scoring.standings import Penalty

    # Baba: top 4 of rounds 1–6 go through. E is 5th by 1 point until D's penalty.
    games = [
        game(1, "ABCD", (1, 2, 3, 4), (30, 20, 10, 5)),
        game(1, "EFGH", (1, 2, 3, 4), (4, -20, -30, -40)),
    ]
    before = standings(games, "baba", players="ABCDEFGH")
    assert before.stages[0].advancing == ["A", "B", "C", "D"]
    after = standings(games, "baba", players="ABCDEFGH", penalties=[Penalty("D", Decimal(-2), 1)])
    rows = {r.player: r for r in after.rows}
    assert after.stages[0].advancing == ["A", "B", "C", "E"]
    assert str(rows["D"].total) == "3" and str(rows["D"].penalties) == "-2"
    assert rows["D"].to_json()["penalties"] == -2.0
    # A penalty in a round outside a stage does not count in it; one without a round does.
    late = standings(games, "baba", players="ABCDEFGH", penalties=[Penalty("A", Decimal(-50), 7)])
    assert late.stages[0].advancing[0] == "A"
    anywhere = standings(games, "baba", players="ABCDEFGH", penalties=[Penalty("A", Decimal(-50))])
    assert "A" not in anywhere.stages[0].advancing


def test_totals_a_float_cannot_tell_apart_are_still_ranked_apart():
    from decimal import Decimal

    from scoring.standings import Row, rank_rows

    close = Decimal("0.1000000000000000000001")  # the same float as 0.1
    assert float(close) == float(Decimal("0.1"))
    rows = [Row("b", total=Decimal("0.1"), games=1), Row("a", total=close, games=1)]
    ranked = rank_rows(rows)
    assert [(r.player, r.rank, r.status) for r in ranked.rows] == [("a", 1, ""), ("b", 2, "")]
    even = rank_rows(
        [Row("b", total=Decimal("0.1"), games=1), Row("a", total=Decimal("0.10"), games=1)]
    )
    assert [(r.player, r.rank, r.status) for r in even.rows] == [("a", 1, "tie"), ("b", 1, "tie")]


def test_each_stage_gives_the_figures_and_statuses_it_ranked_on():
    from decimal import Decimal

    from scoring.standings import Penalty

    # Baba: the qualifier counts rounds 1–6 (top 4 through), the final rounds 1–8.
    games = [
        game(1, "ABCD", (1, 2, 3, 4), (30, 20, 10, 5)),
        game(1, "EFGH", (1, 2, 3, 4), (4, -20, -30, -40)),
        game(7, "ABCD", (4, 3, 2, 1), (-30, -10, 15, 25)),
    ]
    penalties = [Penalty("A", Decimal(-3), 1), Penalty("A", Decimal(-1), 7)]
    result = standings(games, "baba", players="ABCDEFGH", penalties=penalties)
    rows = {r.player: r for r in result.rows}
    qualifier, final = result.stages
    a = qualifier.figures_of(rows["A"])
    assert (a.total, a.games, a.firsts, a.penalties) == (Decimal(27), 1, 1, Decimal(-3))
    d = final.figures_of(rows["D"])
    assert (d.total, d.games, d.firsts, d.penalties) == (Decimal(30), 2, 1, Decimal(0))
    assert final.figures_of(rows["A"]).total == rows["A"].total == Decimal(-4)
    # Every player's figures in each stage are those its ranking ordered them by.
    for stage in result.stages:
        totals = [stage.figures_of(rows[p]).total for group in stage.order for p in group]
        assert totals == sorted(totals, reverse=True)
    # Rounds 2–6 are still to play: nobody is through or out yet (CONTRACT §2), only in or
    # out of the cut as it falls now.
    assert [qualifier.status_of(rows[p]) for p in "ADEH"] == ["", "", "", ""]
    assert [qualifier.now_of(p) for p in "ADEH"] == ["in", "in", "out", "out"]
    assert final.status_of(rows["D"]) == rows["D"].status


def test_a_later_stage_says_which_stage_still_decides_its_players():
    # The cut format: top 2 of rounds 1–2 play the final (rounds 1–3).
    one = [game(1, "ABCD", (1, 2, 3, 4), (40, 10, -10, -40))]
    playing = standings(one, _cut_format(), players="ABCD")
    assert playing.named == ("qualifier", "final") and len(playing.stages) == 2
    assert playing.deciding("final") is playing.stages[0]  # round 2 to play
    assert playing.deciding("qualifier") is None and playing.deciding("semi") is None
    assert not playing.complete
    # Both rounds played, B and C tied across the cut: the ranking stops at the qualifier,
    # which decides the final still, played as it is; nothing is complete.
    tied = [*one, game(2, "ABCD", (1, 3, 2, 4), (10, -10, 10, -10))]
    open_tie = standings(tied, _cut_format(), players="ABCD")
    assert [s.stage.name for s in open_tie.stages] == ["qualifier"]
    qualifier = open_tie.stages[0]
    # A stage by its name: the ranked one, none where the ranking stopped before it.
    assert open_tie.stage("qualifier") is qualifier and open_tie.stage("final") is None
    assert playing.stage("final") is playing.stages[1] and playing.stage("") is None
    assert qualifier.complete and open_tie.deciding("final") is qualifier
    assert not open_tie.complete
    # The organizer settles it: the final's players are decided; played, it is complete.
    settled = standings(tied, _cut_format(), players="ABCD", decisions={"qualifier": "CB"})
    assert settled.deciding("final") is None and not settled.complete
    done = [*tied, game(3, "ABCD", (1, 2, 3, 4), (20, 5, -5, -20))]
    finished = standings(done, _cut_format(), players="ABCD", decisions={"qualifier": "CB"})
    assert finished.deciding("final") is None and finished.complete
