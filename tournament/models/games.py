"""Games (one table of one round), their seats, hands and derived results."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.events import Round
from tournament.models.fields import PointsField
from tournament.models.venues import Player

MODE_CHOICES = [("scores", _("final scores")), ("hands", _("hand by hand"))]
# A result entered at the table waits, outside the standings, for another seat's confirmation.
CONFIRMATION_CHOICES = [
    ("", _("not asked")),
    ("waiting", _("waiting for confirmation")),
    ("disputed", _("disputed")),
]


class Game(models.Model):
    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="games"
    )
    table = models.PositiveSmallIntegerField(_("table"))
    mode = models.CharField(_("entry"), max_length=10, choices=MODE_CHOICES, default="scores")
    # Entered with final scores: what was left on the table, busts and yakuman (for prizes).
    deposits = models.PositiveIntegerField(_("deposits left"), default=0)
    busts = models.JSONField(_("busts"), default=list, blank=True)
    yakuman = models.JSONField(_("yakuman"), default=list, blank=True)
    finished = models.BooleanField(_("finished"), default=True)
    # The rounding this game is settled with when not the event's own: its ruleset's earlier
    # rounding (`rounding_earlier`), for a game imported from a log of those years (a Tenhou
    # log printed in whole points keeps them). Empty: the event's rounding.
    rounding = models.CharField(_("rounding"), max_length=20, blank=True, default="")
    # Optimistic locking: every save bumps it; a save based on an older version is refused.
    version = models.PositiveIntegerField(_("version"), default=1)
    confirmation = models.CharField(
        _("confirmation"), max_length=10, choices=CONFIRMATION_CHOICES, default="", blank=True
    )
    submitted_seat = models.PositiveSmallIntegerField(_("entered by seat"), null=True, blank=True)
    # The phone that entered it (a random id its session holds): confirming needs another.
    submitted_phone = models.CharField(_("entered by phone"), max_length=32, blank=True)
    dispute = models.CharField(_("dispute"), max_length=300, blank=True)
    extra_minutes = models.PositiveSmallIntegerField(_("extra minutes"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["round", "table"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            # The tables still playing, for the live marker (selectors.standings.round_progress):
            # a handful among 25,000 games, found without reading the rest.
            models.Index(
                fields=["round"], condition=Q(finished=False), name="tournament_game_in_play"
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"], name="tournament_game_unique_table_per_round"
            ),
            models.CheckConstraint(
                condition=Q(table__gte=1), name="tournament_game_table_positive"
            ),
            models.CheckConstraint(
                condition=Q(version__gte=1), name="tournament_game_version_positive"
            ),
            models.CheckConstraint(
                condition=Q(mode__in=["scores", "hands"]), name="tournament_game_mode_known"
            ),
            models.CheckConstraint(
                condition=Q(confirmation__in=["", "waiting", "disputed"]),
                name="tournament_game_confirmation_known",
            ),
            # A result waiting for confirmation is not in the standings: the game is not over.
            models.CheckConstraint(
                condition=Q(confirmation="") | Q(finished=False),
                name="tournament_game_waiting_is_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} T{self.table}"


class Seat(models.Model):
    """A player at a game. Position 0 is the starting dealer (起家); turn order follows."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="seats"
    )
    # The round again, so the database itself refuses a player twice in a round.
    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="seats"
    )
    score = models.IntegerField(_("final score"), null=True, blank=True)
    # Derived by the scoring engine, stored so standings never recompute every game.
    result_score = models.IntegerField(_("score with deposits"), null=True, blank=True)
    rank = models.PositiveSmallIntegerField(_("rank"), null=True, blank=True)
    points = PointsField(_("points"), max_digits=10, null=True, blank=True)  # to 0.01 (fields.py)
    chips = models.IntegerField(_("chips"), default=0)
    breakdown = models.JSONField(_("breakdown"), default=dict, blank=True)

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "position"], name="tournament_seat_unique_position_per_game"
            ),
            models.UniqueConstraint(
                fields=["game", "player"], name="tournament_seat_unique_player_per_game"
            ),
            models.UniqueConstraint(
                fields=["round", "player"], name="tournament_seat_unique_player_per_round"
            ),
            models.CheckConstraint(
                condition=Q(position__lte=4), name="tournament_seat_position_0_to_4"
            ),
            models.CheckConstraint(
                condition=Q(rank__isnull=True) | Q(rank__gte=1, rank__lte=5),
                name="tournament_seat_rank_1_to_5",
            ),
        ]
        indexes = [
            # Standings read every seat of an event's rounds at once.
            models.Index(fields=["round", "player"], name="tournament_seat_round_player"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position}: {self.player}"


class Hand(models.Model):
    """One hand of a game recorded hand by hand: the input as given, and what the flow derived."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="hands"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    data = models.JSONField(_("hand"))  # {"riichi": [...], "result": {...}} as in CONTRACT §1
    label = models.CharField(_("label"), max_length=40)
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    honba = models.PositiveSmallIntegerField(_("honba"))
    deltas = models.JSONField(_("deltas"))
    scores = models.JSONField(_("scores after"))
    deposits = models.PositiveIntegerField(_("deposits after"))
    # The id a table's phone gave this hand when it was recorded (CONTRACT §3): the same hand
    # sent again — late, retried, from an offline outbox — finds it here and is written once.
    entry_id = models.UUIDField(_("entry id"), null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"], name="tournament_hand_unique_number_per_game"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1), name="tournament_hand_number_positive"
            ),
            # At most one hand per phone entry and game, whoever wins a race of two copies;
            # also the index the entry's look-up (services/hands.py) uses.
            models.UniqueConstraint(
                fields=["game", "entry_id"],
                condition=Q(entry_id__isnull=False),
                name="tournament_hand_one_per_entry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.label}"


# What every code typed on a phone is made of (a table's, a seat's, the check-in code): read off
# paper or a screen, so no 0/O, 1/I/L. 31⁶ ≈ 8.9 × 10⁸ codes of six.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


class TableLink(models.Model):
    """What a printed QR code points at (CONTRACT §3): one table's game, without an account,
    while it is open. `token` is in the link; `code` (6 characters) is typed at /t/; each
    seat's own code (`seat_codes`, in seat order) confirms a result another seat entered."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="links"
    )
    token = models.CharField(_("token"), max_length=64, unique=True)
    code = models.CharField(_("code"), max_length=6, unique=True)
    seat_codes = models.JSONField(_("seat codes"), default=list)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["game", "-created_at"]
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(revoked_at__isnull=True),
                name="tournament_tablelink_one_live_per_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.code}"
