"""The form renderer: Django's templates, but each field wrapped so CSS grids place it whole."""

from __future__ import annotations

from django.forms.renderers import TemplatesSetting


class FormRenderer(TemplatesSetting):
    field_template_name = "forms/field.html"
