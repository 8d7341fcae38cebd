"""Organizer forms for an event: create it, register players, seat a round, settle a tie."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import PRESETS
from tournament.forms.base import ServiceForm
from tournament.models import FORMAT_CHOICES, Venue


def split_names(text: str) -> list[str]:
    """One name per line (commas and tabs also separate, as pasted from a spreadsheet)."""
    names: list[str] = []
    for line in text.replace("\t", "\n").replace(",", "\n").replace("、", "\n").splitlines():
        name = " ".join(line.split())
        if name and name not in names:
            names.append(name)
    return names


class PlayersField(forms.CharField):
    widget = forms.Textarea(attrs={"rows": 6, "autocomplete": "off"})

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        return split_names(super().to_python(value) or "")


class EventCreateForm(ServiceForm):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=80,
        required=False,
        help_text=_(
            "Letters, digits and hyphens for the page address; made from the name if empty."
        ),
    )
    rules = forms.ChoiceField(label=_("Rules"))
    format = forms.ChoiceField(label=_("Format"), choices=FORMAT_CHOICES, initial="league")
    players = PlayersField(
        label=_("Players"),
        required=False,
        help_text=_("One name per line; known names are reused, new ones become players."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        venues = [(f"venue:{v.pk}", str(v)) for v in Venue.objects.order_by("name")]
        presets = [(f"preset:{slug}", rules.name) for slug, rules in PRESETS.items()]
        choices: list[Any] = []
        if venues:
            choices.append((_("Venues"), venues))
        choices.append((_("Presets"), presets))
        self.fields["rules"].choices = choices

    def service_kwargs(self) -> dict[str, Any]:
        d = self.cleaned_data
        kind, _sep, key = d["rules"].partition(":")
        out: dict[str, Any] = {
            "name": d["name"],
            "slug": d["slug"],
            "format": d["format"],
            "players": d["players"],
        }
        if kind == "venue":
            out["venue"] = Venue.objects.get(pk=int(key))
        else:
            out["ruleset"] = key
        return out


class PlayersForm(ServiceForm):
    players = PlayersField(
        label=_("Add players"), help_text=_("One name per line; paste a whole list at once.")
    )


class SeatRoundForm(ServiceForm):
    method = forms.ChoiceField(
        label=_("Seating"),
        choices=[
            ("random", _("Random, keeping apart players who have met")),
            ("standings", _("By standings: 1–4 together, 5–8, …")),
        ],
        widget=forms.RadioSelect,
        initial="random",
    )
    shortfall = forms.ChoiceField(
        label=_("When players do not fill the last table"),
        choices=[
            ("", _("Ask me")),
            ("bye", _("Some sit out (recorded as byes)")),
            ("substitute", _("Fill the table with substitutes")),
        ],
        required=False,
    )


class TieDecisionForm(ServiceForm):
    """The tied players, each given a place by the organizer (lot, play-off, …)."""

    def __init__(self, *args: Any, tied: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tied = tied
        places = [(str(i + 1), str(i + 1)) for i in range(len(tied))]
        for i, name in enumerate(tied):
            self.fields[f"place_{i}"] = forms.ChoiceField(
                label=name, choices=places, initial=str(i + 1)
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        places = [data.get(f"place_{i}") for i in range(len(self.tied))]
        if None in places:
            return data
        if len(set(places)) != len(places):
            raise forms.ValidationError(_("Give each tied player a different place."))
        data["order"] = [
            n for _p, n in sorted(zip((int(p) for p in places), self.tied, strict=True))
        ]
        return data
