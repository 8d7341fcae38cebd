"""The public sign-up form (issue 50, CONTRACT §8): the fields the service checks, each error
shown beside the field it names (services/registration.py)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django_countries import countries

from tournament.forms.base import CountryChoiceField, ServiceForm


def _country_choices() -> list[tuple[str, str]]:
    return [("", "—"), *((code, name) for code, name in countries)]


class SignUpForm(ServiceForm):
    """Name, e-mail, and optionally an EMA number and country. Lengths are generous: the
    service refuses too long a name in words of its own, naming the field."""

    name = forms.CharField(
        label=_("Your name"),
        max_length=200,
        help_text=_("As it should appear in the standings."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    email = forms.CharField(
        label=_("E-mail"),
        max_length=320,
        help_text=_("We send the link to your entry there. Only the organizers see it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email", "inputmode": "email"}),
    )
    ema = forms.CharField(
        label=_("EMA number (optional)"),
        max_length=20,
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    country = CountryChoiceField(label=_("Country (optional)"), required=False, choices=[])

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = _country_choices()  # in the reader's language


class WithdrawForm(forms.Form):
    """Withdrawing needs the box ticked: one stray tap on a phone never withdraws."""

    confirm = forms.BooleanField(label=_("Yes, withdraw my entry"), required=True)

    def __init__(self, *args, **kwargs) -> None:
        # The box is ticked beside its sentence (site.css `.tick`): no colon after it.
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class RegistrationSettingsForm(ServiceForm):
    """The organizer's settings: open or closed, a capacity (empty: none), approval."""

    open = forms.BooleanField(label=_("Take sign-ups"), required=False)
    capacity = forms.CharField(
        label=_("Capacity"),
        required=False,
        max_length=10,
        help_text=_("Empty: no limit. Sign-ups beyond it wait in order."),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    approval = forms.BooleanField(label=_("I approve each sign-up"), required=False)
