"""Entry forms for one table: final scores here, one hand in hands.py. Each turns what was typed
into the event-file shape (CONTRACT §2) for the scoring engine, and puts the engine's error back
next to the field it names — so the rules are checked in one place, the engine, never here."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.game_types import game_type
from scoring.rules import Ruleset
from tournament.forms.base import ServiceForm
from tournament.forms.players import PlayerLookup, player_field, players_check
from tournament.i18n import field_label, labelled, seat_label
from tournament.services.errors import ServiceError


def _int(value: Any) -> int | None:
    return None if value in (None, "") else int(value)


class VersionForm(ServiceForm):
    """The version of the game a screen was loaded at (alone: the undo button)."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)


class EngineForm(VersionForm):
    """A form whose rules are checked by the engine, carrying the version it was loaded at."""

    def unmapped_message(self, exc: ServiceError) -> str:
        # An engine path the form has no field for (`hands[3]`) still tells where to look, in
        # the form's words (4局目), never as the path.
        return labelled(field_label(exc.field, self.seat_names), self.error_text(exc))


def seat_choices(names: list[str], blank: bool = True) -> list[tuple[str, str]]:
    choices = [(str(i), seat_label(i, n)) for i, n in enumerate(names)]
    return ([("", "—")] if blank else []) + choices


class ScoresForm(EngineForm):
    """Final scores of one table: who sat where, scores, deposits left, busts, yakuman."""

    YAKUMAN_ROWS = 2  # the most a table sees in one game; the card game has none

    def __init__(
        self,
        *args: Any,
        rules: Ruleset,
        names: list[str],
        players: list[str],
        lookup: PlayerLookup | None = None,
        new: bool = False,
        hands: int = 0,
        **kwargs: Any,
    ) -> None:
        """`players`: the names offered. With `lookup` (the organizer's screens) each seat is
        typed, `players` only suggested and anyone of the event accepted; without (a table's
        phone, offered its own four) each seat is a choice among them. `hands`: the hands the
        game has recorded, which saving replaces only once ticked (`replace_hands`)."""
        super().__init__(*args, **kwargs)
        self.hands = hands
        if hands:
            self.fields["replace_hands"] = forms.BooleanField(
                label=_("Replace its hands with these final scores"), required=False
            )
        self.rules = rules
        self.n = len(names)
        self.new = new
        self.names = names
        self.players = players
        self.lookup = lookup
        # The page's <datalist>: only where a seat is typed.
        self.player_list = players if lookup is not None else None
        if new:
            self.fields["round"] = forms.IntegerField(label=_("Round"), min_value=1)
            self.fields["table"] = forms.IntegerField(label=_("Table"), min_value=1)
        for i in range(self.n):
            if lookup is not None:
                self.fields[f"seat_{i}"] = player_field(seat_label(i), names[i] or "")
            else:
                # A button per player, its name wrapped between words: a <select> cut a long
                # name on a phone (issue 66).
                self.fields[f"seat_{i}"] = forms.ChoiceField(
                    label=seat_label(i),
                    choices=[(p, p) for p in players],
                    initial=names[i] or "",
                    widget=forms.RadioSelect,
                )
            self.fields[f"score_{i}"] = forms.IntegerField(
                # A table's phone: each score under its seat's wind and seated name, the seats'
                # buttons folded away (`seats_folded`); typed seats: their own field beside.
                label=_("Score") if lookup is not None else seat_label(i, names[i]),
                # 50 where a tsumo's honba splits into fifties (Pantheon's 3-player 300)
                widget=forms.NumberInput(attrs={"step": rules.score_step, "inputmode": "numeric"}),
            )
        self.fields["deposits"] = forms.IntegerField(
            label=_("Deposits left on the table"),
            initial=0,
            min_value=0,
            widget=forms.NumberInput(attrs={"step": 1000, "inputmode": "numeric"}),
        )
        seats = seat_choices(names, blank=False)
        if rules.bust != "never":
            for i in range(self.n):
                self.fields[f"bust_{i}"] = forms.MultipleChoiceField(
                    label=_("%(seat)s busted by") % {"seat": seat_label(i, names[i])},
                    choices=[c for c in seats if c[0] != str(i)],
                    widget=forms.CheckboxSelectMultiple,
                    required=False,
                )
        self.yakuman_count = self.YAKUMAN_ROWS if game_type(rules).yakuman else 0
        for k in range(self.yakuman_count):
            self.fields[f"yk{k}_winner"] = forms.ChoiceField(
                label=_("Yakuman winner"), choices=seat_choices(names), required=False
            )
            self.fields[f"yk{k}_kind"] = forms.ChoiceField(
                label=_("by"), choices=[("tsumo", _("tsumo")), ("ron", _("ron"))], required=False
            )
            self.fields[f"yk{k}_from"] = forms.ChoiceField(
                label=_("dealt in by"), choices=seat_choices(names), required=False
            )
            self.fields[f"yk{k}_count"] = forms.IntegerField(
                label=_("yakuman"), initial=1, min_value=1, max_value=6, required=False
            )
            self.fields[f"yk{k}_pao"] = forms.ChoiceField(
                label=_("pao"), choices=seat_choices(names), required=False
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.lookup is not None:
            seats = [f"seat_{i}" for i in range(self.n)]
            players_check(self, seats, self.players, self.lookup)
        return data

    @property
    def seat_names(self) -> list[str]:  # type: ignore[override]
        """Who sits where: as chosen in the form (a new table), else as seated."""
        d = getattr(self, "cleaned_data", {})
        return [d.get(f"seat_{i}") or self.names[i] for i in range(self.n)]

    @property
    def expected_total(self) -> int:
        return self.rules.start * self.n

    @property
    def seats_folded(self) -> bool:
        """A table's phone: the seats as seated, their buttons under "who sat where" — open
        only when one is wrong or missing (issue 66: sixteen buttons above four scores)."""
        return self.lookup is None

    @property
    def seats_open(self) -> bool:
        return any(self[f"seat_{i}"].errors for i in range(self.n)) or not all(self.names)

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"seat_{i}"], self[f"score_{i}"]) for i in range(self.n)]

    def bust_fields(self) -> list[forms.BoundField]:
        return [self[f"bust_{i}"] for i in range(self.n) if f"bust_{i}" in self.fields]

    def yakuman_rows(self) -> list[list[forms.BoundField]]:
        keys = ("winner", "kind", "from", "count", "pao")
        return [[self[f"yk{k}_{key}"] for key in keys] for k in range(self.yakuman_count)]

    def to_data(self, round_number: int, table: int) -> dict[str, Any]:
        d = self.cleaned_data
        self.paths = {"deposits": "deposits", "round": "round", "table": "table"}
        for i in range(self.n):
            self.paths[f"seats[{i}]"] = f"seat_{i}"
            self.paths[f"scores[{i}]"] = f"score_{i}"
        busts = []
        for i in range(self.n):
            if d.get(f"bust_{i}"):
                self.paths[f"busts[{len(busts)}]"] = f"bust_{i}"
                busts.append({"seat": i, "by": [int(j) for j in d[f"bust_{i}"]]})
        yakuman = []
        for k in range(self.yakuman_count):
            winner = _int(d.get(f"yk{k}_winner"))
            if winner is None:
                continue
            at = f"yakuman[{len(yakuman)}]"
            self.paths[at] = f"yk{k}_winner"
            for key in ("kind", "from", "count", "pao"):
                self.paths[f"{at}.{key}"] = f"yk{k}_{key}"
            self.paths[f"{at}.pao_count"] = f"yk{k}_count"
            row: dict[str, Any] = {
                "winner": winner,
                "kind": d.get(f"yk{k}_kind") or "tsumo",
                "count": d.get(f"yk{k}_count") or 1,
            }
            if row["kind"] == "ron":
                row["from"] = _int(d.get(f"yk{k}_from"))
            if _int(d.get(f"yk{k}_pao")) is not None:
                row["pao"] = _int(d.get(f"yk{k}_pao"))
            yakuman.append(row)
        return {
            "round": d.get("round", round_number),
            "table": d.get("table", table),
            "seats": [d[f"seat_{i}"] for i in range(self.n)],
            "scores": [d[f"score_{i}"] for i in range(self.n)],
            "deposits": d["deposits"],
            "busts": busts,
            "yakuman": yakuman,
        }
