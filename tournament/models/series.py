"""Series: events ranked together (a club's season), by scoring/series.py."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.series import SeriesRule
from tournament.models.events import Event

SERIES_RULE_CHOICES = [
    ("all", _("every event counts")),
    ("best", _("each player's best events count")),
]


class Series(models.Model):
    """A season: events ranked together (a club's league nights), by scoring/series.py."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True, allow_unicode=True)
    rule = models.CharField(_("ranking"), max_length=10, choices=SERIES_RULE_CHOICES, default="all")
    best_of = models.PositiveSmallIntegerField(_("best of"), null=True, blank=True)
    min_games = models.PositiveSmallIntegerField(_("games needed to be ranked"), default=0)
    events = models.ManyToManyField(
        Event, verbose_name=_("events"), through="SeriesEvent", related_name="series"
    )
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organizers"),
        related_name="organized_series",
        blank=True,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.CheckConstraint(
                condition=Q(rule__in=["all", "best"]), name="tournament_series_rule_known"
            ),
            models.CheckConstraint(
                condition=Q(rule="all") | Q(best_of__gte=1),
                name="tournament_series_best_of_given",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def ranking_rule(self) -> SeriesRule:
        return SeriesRule(self.rule, self.best_of, self.min_games)


class SeriesEvent(models.Model):
    series = models.ForeignKey(
        Series, verbose_name=_("series"), on_delete=models.CASCADE, related_name="members"
    )
    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="series_members"
    )
    position = models.PositiveSmallIntegerField(_("order"))

    class Meta:
        ordering = ["series", "position"]
        verbose_name = _("event in a series")
        verbose_name_plural = _("events in a series")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "event"], name="tournament_seriesevent_unique_event"
            ),
        ]
