"""The codes a table's page asks for: the table's, a seat's, a seat's with a dispute; and the
id and number a phone gives a hand it records (EntryForm)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from tournament.forms.base import ServiceForm


def _code_field(label: Any) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )


class CodeForm(forms.Form):
    code = _code_field(gettext_lazy("Table code"))


class SeatForm(ServiceForm):
    code = _code_field(gettext_lazy("Your seat code"))


class DisputeForm(SeatForm):
    reason = forms.CharField(label=gettext_lazy("What is wrong"), max_length=300)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Shown under the confirm form, whose code field is id_code: ids of its own, so each
        # label names its own input.
        kwargs.setdefault("auto_id", "id_dispute_%s")
        super().__init__(*args, **kwargs)


class EntryForm(forms.Form):
    """What a table's phone adds to a hand it sends (CONTRACT §3): the `entry_id` it made when
    the hand was recorded, and the `number` of the hand it is for. A hand without them (an
    old page) is entered as before."""

    entry_id = forms.UUIDField(required=False)
    number = forms.IntegerField(required=False, min_value=1, max_value=10_000)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("entry_id") is not None and data.get("number") is None:
            raise forms.ValidationError(
                gettext_lazy("This hand does not say which hand it is for.")
            )
        return data
