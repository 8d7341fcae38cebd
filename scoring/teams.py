"""Team standings (issue 34, CONTRACT §2): a team's total from its members' totals. Pure data.

The CONTRACT rule is the sum of every member's total; a knob takes the best N members' totals
(a team league where members take turns: the N who played best count) or their average (teams
of different sizes compared fairly). Equal totals share a rank, as players' do. A team is
listed before any game is played (every total 0, one shared rank)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from scoring.messages import fail

RULES = ("sum", "best", "average")


@dataclass(frozen=True)
class TeamRow:
    rank: int
    team: str
    total: Decimal
    games: int  # the members' games together
    members: tuple[str, ...]  # as the event lists them
    counted: tuple[str, ...]  # the members whose totals make the team's (best N: those N)


def check_teams(teams: Mapping[str, Sequence[str]], players: Sequence[str]) -> None:
    """Every team named, with members, each a player of the event and in one team at most; the
    first fault is named by its team (`teams.<name>`)."""
    known = set(players)
    seen: dict[str, str] = {}
    for name, members in teams.items():
        field = f"teams.{name}"
        if not isinstance(name, str) or not name.strip():
            raise fail("team.name", "teams")
        if not isinstance(members, list | tuple) or not members:
            raise fail("team.empty", field, team=name)
        for member in members:
            if member not in known:
                raise fail("team.unknown", field, team=name, player=member)
            if member in seen:
                raise fail("team.twice", field, player=member, first=seen[member], team=name)
            seen[member] = name


def check_rule(rule: str, best: int | None) -> None:
    """A rule the engine knows; "best" says how many members count (1 or more)."""
    if rule not in RULES:
        raise fail("team.rule", "rule", rule=rule, known=", ".join(RULES))
    if rule == "best" and (best is None or best < 1):
        raise fail("team.best", "best")


def team_standings(
    teams: Mapping[str, Sequence[str]],
    totals: Mapping[str, Decimal],
    games: Mapping[str, int],
    rule: str = "sum",
    best: int | None = None,
) -> list[TeamRow]:
    """Each team's total by `rule` (sum, best `best` members, average), best first; equal
    totals share a rank (then listed by name)."""
    check_rule(rule, best)
    rows = []
    for name, members in teams.items():
        scored = sorted(members, key=lambda m: -totals.get(m, Decimal(0)))
        counted = scored[:best] if rule == "best" else list(members)
        total = sum((totals.get(m, Decimal(0)) for m in counted), Decimal(0))
        if rule == "average" and counted:
            total = (total / len(counted)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
        played = sum(games.get(m, 0) for m in members)
        rows.append((total, name, played, tuple(members), tuple(counted)))
    rows.sort(key=lambda r: (-r[0], r[1]))
    out: list[TeamRow] = []
    for i, (total, name, played, members, counted) in enumerate(rows):
        rank = out[-1].rank if out and out[-1].total == total else i + 1
        out.append(TeamRow(rank, name, total, played, members, counted))
    return out
