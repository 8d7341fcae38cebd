"""An event's teams and their members (issue 34); a team's total is the event's `team_rule`."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.events import Entry, Event


class Team(models.Model):
    """A team of an event's players (issue 34, CONTRACT §2: `"teams"` in the event file)."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="teams"
    )
    name = models.CharField(_("name"), max_length=100)
    position = models.PositiveSmallIntegerField(_("position"))  # as the event lists its teams

    class Meta:
        ordering = ["event", "position"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="tournament_team_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """A player of a team; a player is in one team at most (the database holds it)."""

    team = models.ForeignKey(
        Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="members"
    )
    entry = models.OneToOneField(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="team_member"
    )
    position = models.PositiveSmallIntegerField(_("position"))  # as the team lists its members

    class Meta:
        ordering = ["team", "position"]
        verbose_name = _("team member")
        verbose_name_plural = _("team members")

    def __str__(self) -> str:
        return f"{self.team}: {self.entry.player}"
