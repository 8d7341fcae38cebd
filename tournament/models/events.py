"""Events, their players, stages, rounds and seating plan (series: series.py; teams:
teams.py)."""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from scoring import Ruleset, ruleset_from_json
from tournament.models.fields import PointsField
from tournament.models.venues import Player, Venue

FORMAT_CHOICES = [
    ("league", _("League: every game counts")),
    ("baba", _("Baba: qualifier rounds 1–6, top 4 to the final rounds 7–8")),
]

# Who enters results (issue 13): the organizers, or each table through its link, a second seat
# confirming before a result counts.
TABLE_ENTRY_CHOICES = [
    ("organizers", _("Organizers enter every result")),
    ("tables", _("Tables enter their own results; another seat confirms")),
]
TABLE_MODE_CHOICES = [("hands", _("hand by hand")), ("scores", _("final scores"))]
TEAM_RULE_CHOICES = [  # scoring/teams.py RULES
    ("sum", _("the sum of the members' totals")),
    ("best", _("the sum of the best members' totals")),
    ("average", _("the members' average")),
]


class Event(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True, allow_unicode=True)
    venue = models.ForeignKey(
        Venue,
        verbose_name=_("venue"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="events",
    )
    format = models.CharField(_("format"), max_length=20, choices=FORMAT_CHOICES, default="league")
    # The full ruleset the event was created with: later edits to a venue never change results.
    ruleset_snapshot = models.JSONField(_("ruleset"))
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organizers"),
        blank=True,
        related_name="organized_events",
    )
    # Referees enter and correct results, approve tables, give penalties and run the clock;
    # settings, players, seating and stages stay the organizers' (tournament/permissions.py).
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("referees"),
        blank=True,
        related_name="refereed_events",
    )
    table_entry = models.CharField(
        _("results entered by"), max_length=12, choices=TABLE_ENTRY_CHOICES, default="organizers"
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"), default=0, help_text=_("0: no round clock.")
    )
    table_mode = models.CharField(
        _("a table link enters"), max_length=10, choices=TABLE_MODE_CHOICES, default="hands"
    )
    # Check-in (issue 33): when on, a round is seated from the players checked in; a player
    # checks in on the event's page with this code (shown at the venue), or the organizer ticks.
    checkin_required = models.BooleanField(_("seat only players checked in"), default=False)
    checkin_code = models.CharField(_("check-in code"), max_length=8, blank=True)
    # Teams (issue 34): a team's total from its members' (scoring/teams.py) — the sum (CONTRACT
    # §2), the best `team_best` members' totals, or their average.
    team_rule = models.CharField(
        _("team total"), max_length=10, choices=TEAM_RULE_CHOICES, default="sum"
    )
    team_best = models.PositiveSmallIntegerField(_("members counted"), null=True, blank=True)
    # The table on stream (CONTRACT §9, services/events.event_feature_game): the overlay
    # without `?round=&table=` and the featured feed follow it. Its game deleted, or its round
    # unseated, leaves no table featured.
    featured_game = models.ForeignKey(
        "Game",
        verbose_name=_("table on stream"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The organizer's channels (issue 49; services/channels.py): {"urls": [apprise URL, …],
    # "language": "ja"|"en" of the posts, "site": the address links in them start with}. The
    # URLs carry the channels' secrets: only the event's organizers see them.
    channels = models.JSONField(_("channels"), default=dict, blank=True)
    # Bumped by every change to the event's players, games or stages (services/changes.py and
    # the admin); readers key their cached standings by it (selectors/standings.py).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)
    # The version the last change other than games' results started from (players, names,
    # penalties, stages, rules: services/changes.py). A reader holding standings made at a
    # later version re-reads only the entries games have recounted since (`Entry.
    # figures_version`); one holding older standings ranks the event from scratch.
    structure_version = models.PositiveIntegerField(
        _("structure version"), default=0, editable=False
    )
    # The version the last change to the standings' rows started from: any change but a
    # result's, and a result that recounted an entry (services/changes.py). A hand, a phone's
    # confirmation waiting, a check-in… leave it. What is made of the rows alone — the
    # standings table, the standings and team files — is kept by it (selectors/published.py
    # `rows_stamp`), the same on every server, read from this row with no ranking.
    rows_version = models.PositiveIntegerField(_("rows version"), default=0, editable=False)
    # When it last moved: the standings' "last updated", which a hand leaves as it was.
    rows_changed_at = models.DateTimeField(_("rows changed at"), null=True, editable=False)
    # The day it is played: ratings follow the order of play (events by day, then round and
    # table); an event file may give it (`"date"`), else the day it was made.
    held_on = models.DateField(_("date"), default=timezone.localdate)
    # The date was given (the event form, the settings, an event file's `"date"`), not the
    # day the event was made: only then do sign-up mails and players' pages say it (issue 66).
    held_on_given = models.BooleanField(_("date given"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=Q(table_entry__in=["organizers", "tables"]),
                name="tournament_event_table_entry_known",
            ),
            models.CheckConstraint(
                condition=Q(table_mode__in=["hands", "scores"]),
                name="tournament_event_table_mode_known",
            ),
            models.CheckConstraint(
                condition=Q(team_rule__in=["sum", "average"])
                | Q(team_rule="best", team_best__gte=1),
                name="tournament_event_team_rule_known",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @cached_property
    def rules(self) -> Ruleset:
        return ruleset_from_json(self.ruleset_snapshot)


class Entry(models.Model):
    """A player registered for an event."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    # A stand-in who fills a seat when the players do not divide into tables; their games
    # count for the others at the table, never for a ranking of their own.
    substitute = models.BooleanField(_("substitute"), default=False)
    present = models.BooleanField(_("checked in"), default=False)
    # How (issue 44): on the player's own phone, or ticked by an organizer — the dashboard
    # shows it beside each player so a stranger's check-ins stand out. "" while not checked in
    # (and for check-ins made before this was recorded).
    CHECKED_IN_BY_PHONE = "phone"
    CHECKED_IN_BY_ORGANIZER = "organizer"
    checked_in_by = models.CharField(
        _("checked in by"),
        max_length=10,
        blank=True,
        default="",
        choices=[
            ("", _("not recorded")),
            (CHECKED_IN_BY_PHONE, _("own phone")),
            (CHECKED_IN_BY_ORGANIZER, _("organizer")),
        ],
    )
    # The player's figures over the event's finished games, kept by every write that changes a
    # result (services/standings.py) so standings read one row per player, never every seat.
    # `results` holds each game as [round, points, rank, chips] (points a string: exact), by
    # round, as JSON text: any stage's figures, and the round columns, come from it. Text, not
    # a JSON column: PostgreSQL spends ~3 µs a row turning jsonb back into text for a reader,
    # who decodes only the rows a page shows.
    total = PointsField(_("total"), max_digits=12, default=0)  # to 0.01, as Seat.points
    games = models.PositiveIntegerField(_("games"), default=0)
    firsts = models.PositiveIntegerField(_("first places"), default=0)
    results = models.TextField(_("results"), default="[]", blank=True)
    # The event's version when a write last recounted these figures (the version it started
    # from): readers holding standings of version v re-read the entries at v or later.
    figures_version = models.PositiveIntegerField(_("figures version"), default=0, editable=False)
    # The player's profile in this event (issue 48, CONTRACT §2 `profiles`): what a ranking
    # body asks for, and the names online logs give them. Kept per event, like everything an
    # event's organizers may change: one organizer never rewrites another event's players.
    # "" for none. Checked in services/profiles.py; the constraints keep what reaches the table.
    ema_number = models.CharField(_("EMA number"), max_length=8, blank=True, default="")
    country = CountryField(_("country"), blank=True, default="")  # ISO 3166-1 alpha-2
    # Issue 64: the EMA lists a player's last and first names apart; "" leaves the split to
    # services/profiles.name_parts' rule (the last word; the first in Japanese script).
    family_name = models.CharField(_("family name"), max_length=100, blank=True, default="")
    # One name per platform (scoring/tenhou/: a log's nickname), unique in the event per
    # platform, so a nickname points at one player (services/tenhou.py).
    tenhou_name = models.CharField(_("Tenhou name"), max_length=100, blank=True, default="")
    mahjongsoul_name = models.CharField(
        _("Mahjong Soul name"), max_length=100, blank=True, default=""
    )

    class Meta:
        ordering = ["event", "player__name"]
        indexes = [
            models.Index(fields=["event", "figures_version"], name="tournament_entry_recounted"),
        ]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"], name="tournament_entry_unique_player_per_event"
            ),
            models.CheckConstraint(
                condition=Q(firsts__lte=models.F("games")),
                name="tournament_entry_firsts_within_games",
            ),
            models.CheckConstraint(
                condition=Q(present=True) | Q(checked_in_by=""),
                name="tournament_entry_checked_in_by_only_present",
            ),
            # The EMA's numbers are 8 digits, leading zeros kept (04090012: country 04, France).
            models.CheckConstraint(
                condition=Q(ema_number="") | Q(ema_number__regex=r"^[0-9]{8}$"),
                name="tournament_entry_ema_number_8_digits",
            ),
            models.UniqueConstraint(
                fields=["event", "tenhou_name"],
                condition=~Q(tenhou_name=""),
                name="tournament_entry_unique_tenhou_name",
            ),
            models.UniqueConstraint(
                fields=["event", "mahjongsoul_name"],
                condition=~Q(mahjongsoul_name=""),
                name="tournament_entry_unique_mahjongsoul_name",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.event}"


class Stage(models.Model):
    """A stage of an event's format (the Baba qualifier and final); see scoring.standings."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="stages"
    )
    position = models.PositiveSmallIntegerField(_("position"))
    name = models.CharField(_("name"), max_length=40)
    first_round = models.PositiveSmallIntegerField(_("first round"), null=True, blank=True)
    last_round = models.PositiveSmallIntegerField(_("last round"), null=True, blank=True)
    advance = models.PositiveSmallIntegerField(_("players advancing"), null=True, blank=True)
    # Closed by an organizer once its rounds are played and the cut is settled.
    closed = models.BooleanField(_("closed"), default=False)
    # The organizer's order for players the rules leave tied (scoring.standings `decisions`).
    decision = models.JSONField(_("tie decision"), default=list, blank=True)

    class Meta:
        ordering = ["event", "position"]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "position"], name="tournament_stage_unique_position_per_event"
            ),
            models.UniqueConstraint(
                fields=["event", "name"], name="tournament_stage_unique_name_per_event"
            ),
            models.CheckConstraint(
                condition=Q(first_round__isnull=True)
                | Q(last_round__isnull=True)
                | Q(first_round__lte=models.F("last_round")),
                name="tournament_stage_rounds_in_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.name}"


class Round(models.Model):
    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    # The round clock: started by the organizer, stored here so every phone and the venue
    # screen count down to the same moment (the event's `round_minutes` after it).
    clock_started_at = models.DateTimeField(_("clock started"), null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="tournament_round_unique_number_per_event"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1), name="tournament_round_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} R{self.number}"


class SitOut(models.Model):
    """A registered player who does not play a round, and why — never silently dropped."""

    REASONS = [
        ("bye", _("bye (players do not fill the tables)")),
        ("cut", _("did not make the cut")),
        ("withdrawn", _("withdrawn")),
        ("absent", _("not checked in")),
    ]

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="sit_outs"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="sit_outs"
    )
    reason = models.CharField(_("reason"), max_length=20, choices=REASONS, default="bye")

    class Meta:
        ordering = ["round", "player__name"]
        verbose_name = _("sit-out")
        verbose_name_plural = _("sit-outs")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player"], name="tournament_sitout_unique_player_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.player} ({self.reason})"


class Penalty(models.Model):
    """Points an organizer or referee adds to or takes from a player's total (a late arrival,
    a manners warning), optionally for one round. Cancelling keeps it, marked, for the log."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="penalties"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="penalties"
    )
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    points = models.DecimalField(_("points"), max_digits=7, decimal_places=1)
    reason = models.CharField(_("reason"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("given by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("given at"), auto_now_add=True)
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("cancelled by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["event", "-created_at"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(
                condition=~Q(points=0), name="tournament_penalty_points_not_zero"
            ),
            models.CheckConstraint(
                condition=Q(round_number__isnull=True) | Q(round_number__gte=1),
                name="tournament_penalty_round_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.player} {self.points}"


class SeatingPlan(models.Model):
    """An event's whole-day plan (CONTRACT §5): every round's tables in seat order and its byes,
    made here (scoring/plans/) or uploaded; rounds are seated from it one at a time."""

    event = models.OneToOneField(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="seating_plan"
    )
    # [{"tables": [[name, …] East first, …], "byes": [name, …]}, …], round 1 first
    rounds = models.JSONField(_("rounds"))
    source = models.CharField(
        _("source"),
        max_length=10,
        choices=[("made", _("made here")), ("uploaded", _("uploaded"))],
    )
    seed = models.IntegerField(_("seed"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("seating plan")
        verbose_name_plural = _("seating plans")

    def __str__(self) -> str:
        return f"{self.event}: {len(self.rounds)}"
