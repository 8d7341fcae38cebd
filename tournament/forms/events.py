"""Organizer forms for an event: create it, register players, seat a round, settle a tie,
import online games."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring import PRESETS, ScoringError
from scoring.names import normalize_name
from scoring.standings import FORMATS
from scoring.tenhou import MAX_LOG_BYTES
from tournament.forms.base import ADDRESS_HELP, ServiceForm
from tournament.forms.event_settings import KNOBS_HELP, KnobErrors, KnobsField, date_field
from tournament.forms.players import PlayerLookup, player_field, players_check
from tournament.i18n import error_text, rules_name
from tournament.models import FORMAT_CHOICES, Venue
from tournament.services.penalties import MOST as PENALTY_MOST
from tournament.services.tenhou import MAX_LOGS, LogFile

SEPARATORS = str.maketrans({"\t": "\n", ",": "\n", "、": "\n"})


def split_names(text: str) -> list[str]:
    """One name per line (commas and tabs also separate, as pasted from a spreadsheet); blank
    lines skipped, everything else kept as typed — PlayersField judges it."""
    return [line for line in text.translate(SEPARATORS).splitlines() if line.strip()]


NAME_PROBLEMS = {
    "name.control": _("Line %(line)d: a control character (%(char)s) is in the name; remove it."),
    "name.long": _("Line %(line)d: the name is %(length)d characters long; the most is %(max)d."),
}


class PlayersField(forms.CharField):
    """A pasted list of names → the names in their one spelling (scoring.names). Refused as a
    whole, each problem named by its line: too many names, a name that cannot be stored, a
    name twice (after spelling is folded: ＳＡＴＯ and SATO are one name)."""

    widget = forms.Textarea(attrs={"rows": 6, "autocomplete": "off"})

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        return split_names(super().to_python(value) or "")

    def validate(self, value: list[str]) -> None:
        super().validate(value)
        if len(value) > settings.PASTE_MAX_NAMES:
            raise forms.ValidationError(
                _("%(n)d names at once is too many; paste at most %(max)d at a time.")
                % {"n": len(value), "max": settings.PASTE_MAX_NAMES}
            )

    def clean(self, value: Any) -> list[str]:
        lines = super().clean(value)
        names: dict[str, int] = {}
        errors = []
        for line, raw in enumerate(lines, start=1):
            try:
                name = normalize_name(raw)
            except ScoringError as exc:
                message = NAME_PROBLEMS.get(exc.code, _("Line %(line)d: %(message)s"))
                errors.append(message % {"line": line, "message": error_text(exc), **exc.params})
                continue
            if name in names:
                errors.append(
                    _("Line %(line)d: %(name)s is listed twice (also line %(first)d).")
                    % {"line": line, "name": name, "first": names[name]}
                )
                continue
            names[name] = line
        if errors:
            more = len(errors) - 5
            if more > 0:
                tail = ngettext("…and %(n)d more problem.", "…and %(n)d more problems.", more)
                errors = [*errors[:5], tail % {"n": more}]
            raise forms.ValidationError(errors)
        return list(names)


class EventCreateForm(KnobErrors):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=80,
        required=False,
        allow_unicode=True,
        help_text=ADDRESS_HELP,
    )
    rules = forms.ChoiceField(label=_("Rules"))
    # Left on "as the rules play it", the format is the rules' own where they have one (the
    # Baba preset's qualifier and final): choosing Baba's rules and forgetting the format
    # once made a Baba day a league. Works without script: the server resolves it.
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[("", _("As the rules play it")), *FORMAT_CHOICES],
        required=False,
        initial="",
        help_text=_(
            "Baba's rules play a qualifier (rounds 1–6) and a final (7–8); other rules, a "
            "league. Choose one to set it yourself."
        ),
    )
    players = PlayersField(
        label=_("Players"),
        required=False,
        help_text=_("One name per line; known names are reused, new ones become players."),
    )
    held_on = date_field(required=False)
    overrides = KnobsField(label=_("Rule changes"), required=False, help_text=KNOBS_HELP)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        venues = [(f"venue:{v.pk}", str(v)) for v in Venue.objects.order_by("name")]
        presets = [(f"preset:{slug}", rules_name(rules)) for slug, rules in PRESETS.items()]
        choices: list[Any] = []
        if venues:
            choices.append((_("Venues"), venues))
        choices.append((_("Presets"), presets))
        self.fields["rules"].choices = choices

    def service_kwargs(self) -> dict[str, Any]:
        d = self.cleaned_data
        kind, _sep, key = d["rules"].partition(":")
        out: dict[str, Any] = {"name": d["name"], "slug": d["slug"], "players": d["players"]}
        out |= {"held_on": d["held_on"], "overrides": d["overrides"]}
        if kind == "venue":
            out["venue"] = Venue.objects.get(pk=int(key))
            preset = out["venue"].preset
        else:
            out["ruleset"] = preset = key
        out["format"] = d["format"] or rules_format(preset)
        return out


def rules_format(preset: str) -> str:
    """The format rules of this preset play when none is chosen: the one named as the preset
    where there is one (scoring.standings.FORMATS: "baba"), else a league."""
    return preset if preset in FORMATS else "league"


class PlayersForm(ServiceForm):
    players = PlayersField(
        label=_("Add players"), help_text=_("One name per line; paste a whole list at once.")
    )


class CheckinForm(ServiceForm):
    """A player checks in: their name as registered and the event's code from the venue."""

    name = forms.CharField(label=_("Your name"), max_length=100)
    code = forms.CharField(
        label=_("Check-in code"),
        max_length=20,
        help_text=_("Shown at the venue."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )


class PlanMakeForm(ServiceForm):
    """A whole-day plan for the players in play (services/plans.plan_make)."""

    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=40, initial=8)
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text=_("The same seed makes the same plan; empty: a new one each time."),
    )


class PlanUploadForm(ServiceForm):
    """A plan made elsewhere: JSON as python -m scoring seat writes it, or CSV."""

    file = forms.FileField(
        label=_("Plan file"),
        help_text=_(
            "JSON as python -m scoring seat writes it, or CSV: round, table, then the players "
            "East first (a row whose table is “bye” lists that round's byes)."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.csv,.txt"}),
    )


class SeatRoundForm(ServiceForm):
    # The round this form seats: sent again (a second tap, the back button), it is refused.
    round = forms.IntegerField(widget=forms.HiddenInput, min_value=1, required=False)
    method = forms.ChoiceField(
        label=_("Seating"),
        choices=[
            ("random", _("Random, keeping apart players who have met")),
            ("standings", _("By standings: 1–4 together, 5–8, …")),
            (
                "swiss",
                _("Swiss: by standings, a player moved a table up or down so nobody meets again"),
            ),
            (
                "interval",
                _("Interval: one player from each quarter of the standings at every table"),
            ),
            # The last round's tables and turn order; only who deals first is drawn (a Baba
            # final's seats are drawn once, before its first game: RULES §baba).
            ("same", _("Same seats as the last round (starting dealer drawn)")),
            ("plan", _("From the seating plan")),
        ],
        widget=forms.RadioSelect,
        initial="random",
    )
    shortfall = forms.ChoiceField(
        label=_("When players do not fill the last table"),
        choices=[
            ("", _("Ask me")),
            ("bye", _("Some sit out (recorded as byes)")),
            ("substitute", _("Fill the table with substitutes")),
        ],
        required=False,
    )
    # Asked for only when tables of earlier rounds are still open (round.unfinished_ask).
    while_unfinished = forms.BooleanField(
        label=_("Seat it anyway; the open tables stay open"), required=False
    )

    def __init__(
        self,
        *args: Any,
        has_plan: bool = False,
        has_round: bool = True,
        method: str = "random",
        seats: int = 4,
        **kwargs: Any,
    ) -> None:
        """`method`: the one offered first (selectors.plans.seat_method_default). `has_round`:
        a round is seated already, so there are seats to keep (sent, the service judges).
        `seats`: players at a table (3 in sanma), which the standings' groups follow."""
        super().__init__(*args, **kwargs)
        field = self.fields["method"]
        if seats != 4:  # "1–4 together" and "each quarter" would be wrong at tables of 3
            words = {
                "standings": _("By standings: 1–%(n)d together, %(next)d–%(twice)d, …")
                % {"n": seats, "next": seats + 1, "twice": 2 * seats},
                "interval": _(
                    "Interval: the standings in %(n)d parts, one player from each at every table"
                )
                % {"n": seats},
            }
            field.choices = [(k, words.get(k, label)) for k, label in field.choices]  # type: ignore[attr-defined]
        if not has_plan:  # "from the plan" only where the event keeps one
            field.choices = [c for c in field.choices if c[0] != "plan"]  # type: ignore[attr-defined]
        if not has_round:  # nothing to keep before the first round
            field.choices = [c for c in field.choices if c[0] != "same"]  # type: ignore[attr-defined]
        field.initial = method

    @property
    def asks_unfinished(self) -> bool:
        return self.is_bound and "while_unfinished" in self.errors


class TieDecisionForm(ServiceForm):
    """The tied players, each given a place by the organizer (lot, play-off, …)."""

    def __init__(self, *args: Any, tied: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tied = tied
        places = [(str(i + 1), str(i + 1)) for i in range(len(tied))]
        for i, name in enumerate(tied):
            self.fields[f"place_{i}"] = forms.ChoiceField(
                label=name, choices=places, initial=str(i + 1)
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        places = [data.get(f"place_{i}") for i in range(len(self.tied))]
        if None in places:
            return data
        if len(set(places)) != len(places):
            raise forms.ValidationError(_("Give each tied player a different place."))
        data["order"] = [
            n for _p, n in sorted(zip((int(p) for p in places), self.tied, strict=True))
        ]
        return data


class PenaltyForm(ServiceForm):
    """A penalty (or bonus) for one player; the service checks it. Penalty or bonus is a choice
    of its own and the points its size: "10" typed for a penalty was once saved as a +10 bonus.
    `points` comes out signed, as the service stores it."""

    player = player_field(_("Player"))
    kind = forms.ChoiceField(
        label=_("Penalty or bonus"),
        choices=[("penalty", _("Penalty")), ("bonus", _("Bonus"))],
        widget=forms.RadioSelect,
        help_text=_("A penalty takes the points off the player's total; a bonus adds them."),
    )
    points = forms.DecimalField(
        label=_("Points"),
        max_digits=7,
        decimal_places=1,
        help_text=_("The size, without a sign: type 10, not −10 (a minus sign is refused)."),
        widget=forms.NumberInput(attrs={"step": "0.1", "min": "0.1", "inputmode": "decimal"}),
    )
    round_number = forms.IntegerField(
        label=_("Round"),
        min_value=1,
        max_value=999,  # the rounds an event can have (the engine's bound)
        required=False,
        help_text=_("Leave empty to count it in every ranking of the event."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args: Any, players: list[str], lookup: PlayerLookup, **kwargs: Any) -> None:
        """`players`: the names offered (the page's <datalist>); anyone `lookup` finds is taken."""
        super().__init__(*args, **kwargs)
        self.player_list = players
        self.lookup = lookup

    def clean_points(self) -> Decimal:
        size = self.cleaned_data["points"]
        if size < 0:  # a sign typed out of habit: said, never guessed
            raise forms.ValidationError(
                _("Type the size without a minus sign (10, not −10) and choose penalty or bonus.")
            )
        if not 0 < size <= PENALTY_MOST:
            raise forms.ValidationError(
                _("Give a size above 0 and at most %(most)s, such as 10 or 5.5.")
                % {"most": PENALTY_MOST}
            )
        return size

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        players_check(self, ["player"], self.player_list, self.lookup)
        if data.get("kind") == "penalty" and data.get("points") is not None:
            data["points"] = -data["points"]
        return data


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one input (Django's documented recipe: a FileField cleans one)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        items = data if isinstance(data, list | tuple) else [data]
        return [super(MultipleFileField, self).clean(item, initial) for item in items]


class TenhouImportForm(ServiceForm):
    """Tenhou game logs for a round; the service reads and checks every one before writing."""

    round = forms.IntegerField(label=_("Round"), min_value=1, max_value=999)
    logs = MultipleFileField(
        label=_("Game logs"),
        widget=MultipleFileInput(attrs={"accept": ".mjlog,.xml,.json,.txt"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The limit promised is the one the site holds to (settings.DATA_UPLOAD_MAX_NUMBER_FILES).
        self.fields["logs"].help_text = _(
            "Tenhou logs: the .mjlog (XML) file, or the JSON of tenhou.net/6. One game per "
            "file, at most %(most)d files at once; a nickname is matched to the player who has "
            "it as their Tenhou or Mahjong Soul name (their profile), else to the player of that "
            "name."
        ) % {"most": MAX_LOGS}

    def log_files(self) -> list[LogFile]:
        """The uploads, read (each at most a little over a log's limit: the engine refuses
        bigger ones by name without this reading a huge file whole)."""
        files = []
        for upload in self.cleaned_data["logs"]:
            self.paths[upload.name] = "logs"  # an error in a file goes next to the upload
            files.append(LogFile(upload.name, upload.read(MAX_LOG_BYTES + 1)))
        self.paths["files"] = "logs"
        return files
