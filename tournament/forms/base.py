"""What every organizer form shares: a service's error goes next to the field it names."""

from __future__ import annotations

from django import forms

from tournament.services.errors import ServiceError


class ServiceForm(forms.Form):
    """`form_field` maps a service's field path to one of this form's fields (None: the top);
    `unmapped_message` says an error shown at the top."""

    def form_field(self, path: str) -> str | None:
        # A hidden field shows no error: what concerns it is said at the top.
        field = self.fields.get(path)
        return path if field is not None and not field.widget.is_hidden else None

    def unmapped_message(self, exc: ServiceError) -> str:
        return exc.message

    def add_service_error(self, exc: ServiceError) -> None:
        name = self.form_field(exc.field) if exc.field else None
        if name is None:
            self.add_error(None, self.unmapped_message(exc))
        else:
            self.add_error(name, exc.message)
