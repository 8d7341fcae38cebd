"""What each player needs (CONTRACT §6): at the last hand (`conditions`, last_hand.py), before
the last game (`place_needs`, before.py), and the command line's answer (command.py). Both
rank a player against the same field (field.py)."""

from scoring.conditions.before import PlaceNeeds, place_needs
from scoring.conditions.command import conditions_command, read_standings
from scoring.conditions.field import ANY, CONTINUES, NONE, StageField
from scoring.conditions.last_hand import Need, SeatNeeds, WinNeeded, WinShape, conditions

__all__ = [
    "ANY",
    "CONTINUES",
    "NONE",
    "Need",
    "PlaceNeeds",
    "SeatNeeds",
    "StageField",
    "WinNeeded",
    "WinShape",
    "conditions",
    "conditions_command",
    "place_needs",
    "read_standings",
]
