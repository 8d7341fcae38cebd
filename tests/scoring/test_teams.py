"""Team standings (issue 34, CONTRACT §2): the sum of members' totals, equal totals sharing a
rank; a knob for the best N members or their average; bad teams named."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from scoring.errors import ScoringError
from scoring.teams import check_teams, team_standings

TEAMS = {"赤": ["A", "B", "C"], "青": ["D", "E"], "緑": ["F", "G"]}
TOTALS = {"A": D("40.5"), "B": D("-10"), "C": D("5"), "D": D("20"), "E": D("15.5"), "F": D("30")}
GAMES = {"A": 2, "B": 2, "C": 1, "D": 2, "E": 2, "F": 1}


def test_the_contract_rule_is_the_sum_and_equal_totals_share_a_rank():
    rows = team_standings(TEAMS, TOTALS, GAMES)
    assert [(r.rank, r.team, r.total, r.games) for r in rows] == [
        (1, "赤", D("35.5"), 5),  # tied: listed by name
        (1, "青", D("35.5"), 4),
        (3, "緑", D("30"), 1),
    ]
    assert rows[0].members == ("A", "B", "C")  # in the order the event lists them


def test_best_members_and_average():
    best = team_standings(TEAMS, TOTALS, GAMES, rule="best", best=2)
    assert [(r.team, r.total, r.counted) for r in best] == [
        ("赤", D("45.5"), ("A", "C")),
        ("青", D("35.5"), ("D", "E")),
        ("緑", D("30"), ("F", "G")),
    ]
    average = team_standings(TEAMS, TOTALS, GAMES, rule="average")
    assert [(r.team, r.total) for r in average] == [
        ("青", D("17.8")),
        ("緑", D("15.0")),
        ("赤", D("11.8")),
    ]


def test_before_any_game_every_team_is_listed_sharing_first():
    rows = team_standings(TEAMS, {}, {})
    assert [r.rank for r in rows] == [1, 1, 1] and all(r.total == 0 for r in rows)


@pytest.mark.parametrize(
    ("teams", "field", "code"),
    [
        ({"赤": ["A", "B"], "青": ["B"]}, "teams.青", "team.twice"),
        ({"赤": ["A", "Zed"]}, "teams.赤", "team.unknown"),
        ({"赤": []}, "teams.赤", "team.empty"),
        ({" ": ["A"]}, "teams", "team.name"),
    ],
)
def test_a_bad_team_is_refused_naming_it(teams, field, code):
    with pytest.raises(ScoringError) as refused:
        check_teams(teams, list("ABCDEFG"))
    assert refused.value.field == field and refused.value.code == code


def test_an_unknown_rule_is_named():
    with pytest.raises(ScoringError) as refused:
        team_standings(TEAMS, TOTALS, GAMES, rule="median")
    assert refused.value.field == "rule"
    with pytest.raises(ScoringError):
        team_standings(TEAMS, TOTALS, GAMES, rule="best")
