"""Organizer forms for a season: its name and ranking rule, and an event to add."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.forms.base import ADDRESS_HELP, ServiceForm
from tournament.models.series import SERIES_RULE_CHOICES


class SeriesForm(ServiceForm):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.CharField(
        label=_("Address"),
        max_length=80,
        required=False,
        help_text=ADDRESS_HELP,
    )
    rule = forms.ChoiceField(label=_("Ranking"), choices=SERIES_RULE_CHOICES, initial="all")
    best_of = forms.IntegerField(
        label=_("Events that count"),
        min_value=1,
        max_value=999,
        required=False,
        help_text=_("For the best-events rule: how many of each player's events count."),
    )
    min_games = forms.IntegerField(
        label=_("Games needed to be ranked"), min_value=0, max_value=9999, initial=0
    )

    def __init__(
        self, *args: Any, instance_rule: Any = None, rule_only: bool = False, **kwargs: Any
    ) -> None:
        bound = bool(args and args[0] is not None) or kwargs.get("data") is not None
        if instance_rule is not None and not bound:
            kwargs.setdefault(
                "initial",
                {
                    "rule": instance_rule.rule,
                    "best_of": instance_rule.best_of,
                    "min_games": instance_rule.min_games,
                },
            )
        super().__init__(*args, **kwargs)
        if rule_only:
            del self.fields["name"]
            del self.fields["slug"]


class SeriesAddEventForm(ServiceForm):
    event = forms.ChoiceField(label=_("Event"))

    def __init__(self, *args: Any, events: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["event"].choices = [("", "—")] + [(e.slug, e.name) for e in events]
