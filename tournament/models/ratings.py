"""Ratings across events (issue 34): each player's skill per rating pool — the whole site
(`series` empty) or one series' events — and every step of it, one per finished game.

The steps are the history (a player's chart) and what a correction rewinds to: each holds the
skill before and after one game, keyed by where the game stands in the order of play
(`RatingStep.key`). `Rating` is the skill after a player's last step, for the leaderboard.
services/ratings.py keeps both in step with the games: a results write marks the pool due
(`RatingDue`) and a task of the queue replays it (issue 46)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from tournament.models.events import Event
from tournament.models.series import Series
from tournament.models.venues import Player


class Rating(models.Model):
    series = models.ForeignKey(
        Series,
        verbose_name=_("series"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    mu = models.FloatField(_("μ"))
    sigma = models.FloatField(_("σ"))
    games = models.PositiveIntegerField(_("games"))
    rating = models.FloatField(_("rating"))  # what the site shows (scoring.ratings.shown)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(series__isnull=True),
                name="tournament_rating_one_site_rating",
            ),
            models.UniqueConstraint(
                fields=["series", "player"], name="tournament_rating_one_per_series"
            ),
        ]
        indexes = [
            models.Index(fields=["series", "-rating"], name="tournament_rating_board"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating}"


class RatingStep(models.Model):
    series = models.ForeignKey(
        Series,
        verbose_name=_("series"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_steps",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="rating_steps"
    )
    # The event and the game, kept as ids beside the event: a deleted game leaves its steps
    # for the next write to find and rewind (a deleted event takes its steps with it, and its
    # deletion replays what followed).
    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rating_steps"
    )
    game_id = models.PositiveIntegerField(_("game id"))
    # The order of play, as text that sorts: the event's day, the event, round, table
    # (services/ratings.py `order_key`).
    key = models.CharField(_("key"), max_length=40)
    place = models.PositiveSmallIntegerField(_("place"))
    mu_before = models.FloatField(_("μ before"))
    sigma_before = models.FloatField(_("σ before"))
    mu = models.FloatField(_("μ"))
    sigma = models.FloatField(_("σ"))
    games = models.PositiveIntegerField(_("games"))  # after this game

    class Meta:
        verbose_name = _("rating step")
        verbose_name_plural = _("rating steps")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "game_id", "player"],
                name="tournament_ratingstep_one_per_game",
            ),
        ]
        indexes = [
            models.Index(fields=["series", "key"], name="tournament_ratingstep_order"),
            models.Index(fields=["player", "series", "key"], name="tournament_ratingstep_player"),
            models.Index(fields=["event", "series"], name="tournament_ratingstep_event"),
        ]


class RatingDue(models.Model):
    """A pool whose ratings are behind its games, from `from_key` on (issue 46): left by a
    results write, taken by the task that replays the pool (services/ratings.py). One row a
    pool, the earliest key of every write since the last replay; `marks` counts the writes, so
    a replay removes the row only if no write came while it ran."""

    series = models.ForeignKey(
        Series,
        verbose_name=_("series"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    from_key = models.CharField(_("from"), max_length=40)  # RatingStep.key of the first game
    marks = models.PositiveIntegerField(_("writes"), default=0)

    class Meta:
        verbose_name = _("rating pool to replay")
        verbose_name_plural = _("rating pools to replay")
        constraints = [
            # One row per pool, the site's (no series: 0) and each series'. A write's INSERT …
            # ON CONFLICT DO NOTHING meets it (services/ratings.py `_mark`).
            models.UniqueConstraint(
                Coalesce("series", Value(0)), name="tournament_ratingdue_one_per_pool"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series_id or 'site'} from {self.from_key}"
