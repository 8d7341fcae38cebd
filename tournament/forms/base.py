"""What every organizer form shares: a service's error goes next to the field it names."""

from __future__ import annotations

from django import forms

from tournament.i18n import error_text
from tournament.services.errors import ServiceError


class ServiceForm(forms.Form):
    """`form_field` maps a service's field path to one of this form's fields (None: the top);
    `unmapped_message` says an error shown at the top. Errors are said in the reader's
    language, a seat by its wind and `seat_names` (the table's players, in seat order)."""

    seat_names: list[str] = []

    def form_field(self, path: str) -> str | None:
        # A hidden field shows no error: what concerns it is said at the top.
        field = self.fields.get(path)
        return path if field is not None and not field.widget.is_hidden else None

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
