"""The codes a table's page asks for: the table's, a seat's, a seat's with a dispute."""

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
