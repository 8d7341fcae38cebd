"""The organizer's teams form: the teams as lines of text (pasted from a spreadsheet or typed on
a phone), and how a team's total is made."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import ScoringError
from scoring.names import normalize_name
from tournament.forms.base import ServiceForm
from tournament.i18n import error_text
from tournament.models.events import TEAM_RULE_CHOICES

TEAMS_MAX = 500  # teams at once: a large 団体戦 has a few hundred
# "Team: member, member": the name ends at the first colon (half- or full-width); members are
# separated by commas (、，too), semicolons or tabs, as a spreadsheet pastes them.
NAME_END = re.compile(r"[:：]")
MEMBER_SEPARATORS = re.compile(r"[,、，;；\t]")


def parse_teams(text: str) -> dict[str, list[str]]:
    """The teams, in the order typed, each name and member in its one spelling; every line's
    problem named by its number (a line without a colon, a bad name, a team twice)."""
    teams: dict[str, list[str]] = {}
    errors: list[str] = []
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) > TEAMS_MAX:
        raise forms.ValidationError(
            _("%(n)d teams at once is too many; at most %(max)d.")
            % {"n": len(lines), "max": TEAMS_MAX}
        )
    for number, line in lines:
        colon = NAME_END.search(line)
        if colon is None:
            errors.append(
                _("Line %(line)d: write the team's name, a colon, then its members.")
                % {"line": number}
            )
            continue
        head, rest = line[: colon.start()], line[colon.end() :]
        try:
            name = normalize_name(head)
            members = [normalize_name(m) for m in MEMBER_SEPARATORS.split(rest) if m.strip()]
        except ScoringError as exc:
            errors.append(
                _("Line %(line)d: %(message)s") % {"line": number, "message": error_text(exc)}
            )
            continue
        if name in teams:
            errors.append(
                _("Line %(line)d: team %(team)s is listed twice.") % {"line": number, "team": name}
            )
            continue
        teams[name] = members
    if errors:
        raise forms.ValidationError(errors)
    return teams


class TeamsForm(ServiceForm):
    teams = forms.CharField(
        label=_("Teams"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off"}),
        help_text=_(
            "One team per line: its name, a colon, then its members separated by commas "
            "(赤: 佐藤, 鈴木). A player is in one team at most; empty the box to remove every team."
        ),
    )
    rule = forms.ChoiceField(label=_("A team's total"), choices=TEAM_RULE_CHOICES, initial="sum")
    best = forms.IntegerField(
        label=_("Members counted"),
        required=False,
        min_value=1,
        max_value=50,
        help_text=_("For the best members' totals: how many count."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.paths.update({"teams": "teams", "rule": "rule", "best": "best"})

    def clean_teams(self) -> dict[str, list[str]]:
        return parse_teams(self.cleaned_data.get("teams") or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("rule") == "best" and not data.get("best"):
            self.add_error("best", _("Say how many members' totals count."))
        return data

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"teams": data["teams"], "rule": data["rule"], "best": data.get("best")}
