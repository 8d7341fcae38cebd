"""The event's day and its rules' knobs, as a person types them (issue 66): on the new-event
form and on the event's settings page. The knobs are checked by the service, as an event
file's are (services/events.ruleset_overridden); an error lands on the knobs' field, naming
the knob."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scoring import ScoringError
from scoring.parse import load_json
from tournament.forms.base import ServiceForm
from tournament.i18n import error_text
from tournament.services.errors import ServiceError
from tournament.services.events import ruleset_overrides

# The example is data, the same in every language (translate="no"); help text is shown as
# HTML (Django's field template).
KNOBS_HELP = format_lazy(
    _(
        "Knobs changed from the rules, as in an event file: a JSON object such as {example}. "
        "Empty: the rules as they are."
    ),
    example='<code translate="no">{"rounding": "exact", "winds": 1}</code>',
)


def date_field(*, required: bool) -> forms.DateField:
    """A date picked on a calendar (the browser's), ISO 8601 typed where there is none."""
    return forms.DateField(
        label=_("Date"),
        required=required,
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
        help_text=_("The day it is played: sign-up mails and players' pages give it."),
    )


class KnobsField(forms.CharField):
    """JSON text → the knobs as an object ({} when empty); what they say is the service's to
    judge. Kept as typed when refused (a bound form shows its data)."""

    # The knobs are the rules' own words, in no reader's language (translate="no").
    widget = forms.Textarea(
        attrs={"rows": 3, "autocomplete": "off", "spellcheck": "false", "translate": "no"}
    )

    def to_python(self, value: Any) -> dict[str, Any]:  # type: ignore[override]
        text = (super().to_python(value) or "").strip()
        if not text:
            return {}
        try:
            knobs = load_json(text)
        except ScoringError as exc:
            raise forms.ValidationError(error_text(exc)) from None
        if not isinstance(knobs, dict):
            raise forms.ValidationError(
                _('Give the knobs as one JSON object, such as {"winds": 1}.')
            )
        return knobs


class KnobErrors(ServiceForm):
    """A refusal of a knob lands on the knobs' field and names the knob (`rounding: …`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.paths["ruleset"] = "overrides"

    def error_text(self, exc: ServiceError) -> str:
        said = super().error_text(exc)
        knob = exc.field.removeprefix("ruleset.") if exc.field.startswith("ruleset.") else ""
        return f"{knob}: {said}" if knob else said


class EventSettingsForm(KnobErrors):
    """The settings page: the day, and the knobs changed from the preset the event's rules
    start from. Once a round is seated the knobs are shown, not changed
    (services/event_settings.py says why)."""

    held_on = date_field(required=True)
    overrides = KnobsField(label=_("Rule changes"), required=False, help_text=KNOBS_HELP)

    def __init__(self, *args: Any, event: Any, rules_fixed: bool, **kwargs: Any) -> None:
        knobs = ruleset_overrides(event.rules)
        initial = {
            "held_on": event.held_on,
            "overrides": json.dumps(knobs, ensure_ascii=False) if knobs else "",
        }
        super().__init__(*args, initial=initial, **kwargs)
        if rules_fixed:  # a disabled field keeps its initial value whatever is sent
            self.fields["overrides"].disabled = True

    def service_kwargs(self) -> dict[str, Any]:
        held_on: date = self.cleaned_data["held_on"]
        return {"held_on": held_on, "overrides": self.cleaned_data["overrides"]}
