from tournament.models.audit import AuditEntry
from tournament.models.channels import ChannelPost
from tournament.models.events import (
    FORMAT_CHOICES,
    Entry,
    Event,
    Penalty,
    Round,
    SeatingPlan,
    SitOut,
    Stage,
)
from tournament.models.games import Game, Hand, Seat, TableLink
from tournament.models.guesses import GuessLock
from tournament.models.push import Notification, PushSubscription
from tournament.models.ratings import Rating, RatingDue, RatingStep
from tournament.models.registration import Registration, SignUp
from tournament.models.series import Series, SeriesEvent
from tournament.models.teams import Team, TeamMember
from tournament.models.venues import Player, Venue, preset_choices

__all__ = [
    "FORMAT_CHOICES",
    "AuditEntry",
    "ChannelPost",
    "Entry",
    "Event",
    "Game",
    "GuessLock",
    "Hand",
    "Notification",
    "Penalty",
    "Player",
    "PushSubscription",
    "Rating",
    "RatingDue",
    "RatingStep",
    "Registration",
    "Round",
    "Seat",
    "SeatingPlan",
    "Series",
    "SeriesEvent",
    "SignUp",
    "SitOut",
    "Stage",
    "TableLink",
    "Team",
    "TeamMember",
    "Venue",
    "preset_choices",
]
