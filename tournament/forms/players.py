"""A player picked in an organizer's form by typing the name: the page offers a few names
(a `<datalist>`, filled further by static/js/players.js from the search as one types) and the
server checks whatever was typed against the event's players — never a select of the whole
field (issue 46)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_countries import countries

from scoring import ScoringError
from scoring.names import normalize_name
from tournament.forms.base import CountryChoiceField, ServiceForm
from tournament.i18n import error_text, labelled
from tournament.services.profiles import PLATFORMS, PROFILE_FIELDS, name_parts

# Typed names (in their one spelling) → the event's players among them, as registered:
# selectors.players.players_named, bound to the event.
PlayerLookup = Callable[[Collection[str]], dict[str, str]]

PLAYER_LIST_ID = "event-players"  # the page's one <datalist> of names, shared by every field
# A nickname as typed: no capital put in by the phone, no spelling "correction".
ONLINE_NAME_ATTRS = {"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}


def player_field(label: str | Promise, initial: str = "") -> forms.CharField:
    # No max_length: normalize_name says what is too long, in the form's words.
    return forms.CharField(
        label=label,
        initial=initial,
        widget=forms.TextInput(
            attrs={
                "list": PLAYER_LIST_ID,
                "autocomplete": "off",
                "autocapitalize": "off",
                "spellcheck": "false",
                "data-player": "",
            }
        ),
    )


def players_check(
    form: forms.Form, fields: list[str], offered: Collection[str], lookup: PlayerLookup
) -> None:
    """In `form.clean()`: each of `fields` as typed → a player of the event, as registered, or
    an error on that field naming it (what was typed stays in the form). Names the page
    offered need no query; the rest are looked up together, in one."""
    typed: dict[str, str] = {}
    for field in fields:
        raw = form.cleaned_data.get(field)
        if not raw:
            continue  # required: Django said so already
        try:
            typed[field] = normalize_name(raw, field)
        except ScoringError as exc:
            form.add_error(field, labelled(str(form.fields[field].label), error_text(exc)))
    offered = set(offered)
    found = lookup({name for name in typed.values() if name not in offered})
    for field, name in typed.items():
        if name in offered or name in found:
            form.cleaned_data[field] = found.get(name, name)
            continue
        unknown = _("No player named “%(name)s” in this event.") % {"name": name}
        form.add_error(field, labelled(str(form.fields[field].label), unknown))


def _country_choices() -> list[tuple[str, str]]:
    """Every ISO 3166-1 country by its name in the reader's language (django-countries),
    sorted as that language sorts them; none first."""
    return [("", "—"), *((c.code, c.name) for c in countries)]


class ProfileForm(ServiceForm):
    """A player's profile in the event (services/profiles.py checks it, as it checks an event
    file's `profiles`): EMA number, country, family name, names online. `name`: the player's,
    whose split by the rule the family name's empty box shows."""

    ema = forms.CharField(
        label=gettext_lazy("EMA number"),
        required=False,
        help_text=gettext_lazy("8 digits, leading zeros included, e.g. 04090012."),
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "maxlength": "8"}
        ),
    )
    country = CountryChoiceField(
        label=gettext_lazy("Country"), required=False, choices=_country_choices
    )
    family_name = forms.CharField(
        label=gettext_lazy("Family name"),
        required=False,
        help_text=gettext_lazy(
            "The EMA lists last and first names apart. Left empty: the name's last word (its "
            "first in Japanese, Chinese or Korean script), as shown in the box."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    tenhou = forms.CharField(
        label=gettext_lazy("Tenhou name"),
        required=False,
        help_text=gettext_lazy("As Tenhou's game logs show it: import matches it to this player."),
        widget=forms.TextInput(attrs=ONLINE_NAME_ATTRS),
    )
    mahjongsoul = forms.CharField(
        label=gettext_lazy("Mahjong Soul name"),
        required=False,
        help_text=gettext_lazy("As Mahjong Soul's game logs show it."),
        widget=forms.TextInput(attrs=ONLINE_NAME_ATTRS),
    )

    def __init__(self, *args: Any, name: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if name:  # what the EMA's file writes when the box is left empty
            self.fields["family_name"].widget.attrs["placeholder"] = name_parts(name)[0]
        # The service's paths (profile.ema; an online name taken: its platform) → the fields.
        for key in PROFILE_FIELDS:
            self.paths[f"profile.{key}"] = key
        for platform in PLATFORMS:
            self.paths[platform] = platform
