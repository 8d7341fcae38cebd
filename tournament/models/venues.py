"""Venues (会場) and players."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring import PRESETS, Ruleset, ScoringError, ruleset_from_json


def preset_choices() -> list[tuple[str, str]]:
    """Each preset by its name in the reader's language. A callable, so the admin's list reads
    the language of the request (and a renamed preset needs no migration)."""
    language = get_language() or "en"
    return [(slug, f"{rules.name_in(language)} ({slug})") for slug, rules in PRESETS.items()]


def ruleset_spec(preset: str, overrides: dict[str, Any]) -> dict[str, Any]:
    return {"preset": preset, **(overrides or {})}


class Venue(models.Model):
    """A place with its own rules: a preset and the knobs it changes."""

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    preset = models.CharField(_("preset"), max_length=20, choices=preset_choices)
    overrides = models.JSONField(
        _("rule overrides"),
        default=dict,
        blank=True,
        help_text=_('Knobs this venue changes, e.g. {"uma": [20, 10, -10, -20]}.'),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("venue")
        verbose_name_plural = _("venues")

    def __str__(self) -> str:
        return self.name

    def ruleset(self) -> Ruleset:
        return ruleset_from_json(ruleset_spec(self.preset, self.overrides))

    def clean(self) -> None:
        if not isinstance(self.overrides, dict):
            raise ValidationError({"overrides": _("Must be a JSON object of knobs.")})
        try:
            self.ruleset()
        except ScoringError as exc:
            raise ValidationError({"overrides": str(exc)}) from None


class Player(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name
