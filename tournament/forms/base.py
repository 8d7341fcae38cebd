"""What every organizer form shares: a service's error goes next to the field it names."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.i18n import error_text
from tournament.services.errors import ServiceError
from tournament.services.profiles import country_code

# An event's or a series' address: made from the name in its own script (services/events.py).
ADDRESS_HELP = _(
    "The end of the page's address: letters (Japanese too), digits and hyphens. Left empty, "
    "it is made from the name (e.g. wednesday-league-november)."
)  # Japanese gives its own example (水曜リーグ-11月): each language shows one it would type


class CountryChoiceField(forms.ChoiceField):
    """A country picked from the list, which also takes what people type for a country that
    ISO spells otherwise (UK is GB: services/profiles.COUNTRY_ALIASES) — a script's or an
    autofill's `country=UK` is the United Kingdom, not "not one of the choices"."""

    def to_python(self, value: Any) -> str:
        return country_code(super().to_python(value))


def parent_path(path: str) -> str:
    """`result.wins[1].han` → `result.wins[1]` → `result.wins` → `result` → ``."""
    cut = max(path.rfind("."), path.rfind("["))
    return path[:cut] if cut > 0 else ""


class ServiceForm(forms.Form):
    """A service's error goes to the form field it names (or the top); it is said in the
    reader's language, a seat by its wind and `seat_names` (the table's players, in seat order).

    A form that builds the service's data records, as it builds it, which of its fields each
    data path came from (`paths`); an error on a path it did not record goes to the nearest
    recorded parent (`wins[1].han` → the second winner's han; `riichi[2]` → riichi)."""

    seat_names: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.paths: dict[str, str] = {}

    def form_field(self, path: str) -> str | None:
        name = path
        probe = path
        while probe:
            if probe in self.paths:
                name = self.paths[probe]
                break
            probe = parent_path(probe)
        # A hidden field shows no error: what concerns it is said at the top.
        field = self.fields.get(name)
        return name if field is not None and not field.widget.is_hidden else None

    def error_text(self, exc: ServiceError) -> str:
        return error_text(exc, self.seat_names)

    def unmapped_message(self, exc: ServiceError) -> str:
        return self.error_text(exc)

    def add_service_error(self, exc: ServiceError) -> None:
        name = self.form_field(exc.field) if exc.field else None
        if name is None:
            self.add_error(None, self.unmapped_message(exc))
        else:
            self.add_error(name, self.error_text(exc))
