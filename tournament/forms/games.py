"""Entry forms for one table: final scores, or one hand. Each turns what was typed into the
event-file shape (CONTRACT §2) for the scoring engine, and puts the engine's error back next to
the field it names — so the rules are checked in one place, the engine, never here."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.emperor import SPECIAL_NAMES
from scoring.rules import ABORT_NAMES, Ruleset
from tournament.forms.base import ServiceForm
from tournament.i18n import seat_label
from tournament.services.errors import ServiceError


def _int(value: Any) -> int | None:
    return None if value in (None, "") else int(value)


class VersionForm(ServiceForm):
    """The version of the game a screen was loaded at (alone: the undo button)."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)


class EngineForm(VersionForm):
    """A form whose rules are checked by the engine, carrying the version it was loaded at."""

    def unmapped_message(self, exc: ServiceError) -> str:
        # An engine path the form has no field for (`hands[3]`) still tells where to look.
        text = self.error_text(exc)
        return f"{exc.field}: {text}" if exc.field else text


def _seat_choices(names: list[str], blank: bool = True) -> list[tuple[str, str]]:
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
        new: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.n = len(names)
        self.new = new
        self.names = names
        if new:
            self.fields["round"] = forms.IntegerField(label=_("Round"), min_value=1)
            self.fields["table"] = forms.IntegerField(label=_("Table"), min_value=1)
        player_choices = [("", "—")] + [(p, p) for p in players]
        for i in range(self.n):
            self.fields[f"seat_{i}"] = forms.ChoiceField(
                label=seat_label(i), choices=player_choices, initial=names[i] or ""
            )
            self.fields[f"score_{i}"] = forms.IntegerField(
                label=_("Score"),
                widget=forms.NumberInput(attrs={"step": 100, "inputmode": "numeric"}),
            )
        self.fields["deposits"] = forms.IntegerField(
            label=_("Deposits left on the table"),
            initial=0,
            min_value=0,
            widget=forms.NumberInput(attrs={"step": 1000, "inputmode": "numeric"}),
        )
        seats = _seat_choices(names, blank=False)
        if rules.bust != "never":
            for i in range(self.n):
                self.fields[f"bust_{i}"] = forms.MultipleChoiceField(
                    label=_("%(seat)s busted by") % {"seat": seat_label(i, names[i])},
                    choices=[c for c in seats if c[0] != str(i)],
                    widget=forms.CheckboxSelectMultiple,
                    required=False,
                )
        self.yakuman_count = self.YAKUMAN_ROWS if rules.game == "riichi" else 0
        for k in range(self.yakuman_count):
            self.fields[f"yk{k}_winner"] = forms.ChoiceField(
                label=_("Yakuman winner"), choices=_seat_choices(names), required=False
            )
            self.fields[f"yk{k}_kind"] = forms.ChoiceField(
                label=_("by"), choices=[("tsumo", _("tsumo")), ("ron", _("ron"))], required=False
            )
            self.fields[f"yk{k}_from"] = forms.ChoiceField(
                label=_("dealt in by"), choices=_seat_choices(names), required=False
            )
            self.fields[f"yk{k}_count"] = forms.IntegerField(
                label=_("yakuman"), initial=1, min_value=1, max_value=6, required=False
            )
            self.fields[f"yk{k}_pao"] = forms.ChoiceField(
                label=_("pao"), choices=_seat_choices(names), required=False
            )

    @property
    def seat_names(self) -> list[str]:  # type: ignore[override]
        """Who sits where: as chosen in the form (a new table), else as seated."""
        d = getattr(self, "cleaned_data", {})
        return [d.get(f"seat_{i}") or self.names[i] for i in range(self.n)]

    @property
    def expected_total(self) -> int:
        return self.rules.start * self.n

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"seat_{i}"], self[f"score_{i}"]) for i in range(self.n)]

    def bust_fields(self) -> list[forms.BoundField]:
        return [self[f"bust_{i}"] for i in range(self.n) if f"bust_{i}" in self.fields]

    def yakuman_rows(self) -> list[list[forms.BoundField]]:
        keys = ("winner", "kind", "from", "count", "pao")
        return [[self[f"yk{k}_{key}"] for key in keys] for k in range(self.yakuman_count)]

    def _busted_seats(self) -> list[int]:
        """Seats with a "busted by" ticked, in seat order: `busts[i]` of the data sent."""
        d = getattr(self, "cleaned_data", {})
        return [i for i in range(self.n) if d.get(f"bust_{i}")]

    def to_data(self, round_number: int, table: int) -> dict[str, Any]:
        d = self.cleaned_data
        busts = [{"seat": i, "by": [int(j) for j in d[f"bust_{i}"]]} for i in self._busted_seats()]
        yakuman = []
        for k in range(self.yakuman_count):
            winner = _int(d.get(f"yk{k}_winner"))
            if winner is None:
                continue
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

    def form_field(self, path: str) -> str | None:
        if m := re.fullmatch(r"(seats|scores)\[(\d+)\]", path):
            return f"{'seat' if m[1] == 'seats' else 'score'}_{m[2]}"
        if m := re.fullmatch(r"busts\[(\d+)\](\..*)?", path):
            busted = self._busted_seats()
            i = int(m[1])
            if i < len(busted):
                return f"bust_{busted[i]}"
        if m := re.fullmatch(r"yakuman\[(\d+)\](?:\.(\w+))?", path):
            key = {"pao_count": "count", None: "winner"}.get(m[2], m[2])
            name = f"yk{m[1]}_{key}"
            return name if name in self.fields else None
        if path == "scores":
            return None  # the sum: shown by the sum line, above the scores
        return super().form_field(path)


RIICHI_TYPES = [
    ("ron", _("Ron")),
    ("tsumo", _("Tsumo")),
    ("draw", _("Draw")),
    ("nagashi", _("Nagashi mangan")),
    ("abort", _("Abortive draw")),
    ("chombo", _("Chombo")),
]
EMPEROR_TYPES = [
    ("ron", _("Ron")),
    ("tsumo", _("Tsumo")),
    ("draw", _("Draw")),
    ("chombo", _("Chombo")),
]


class HandForm(EngineForm):
    """One hand at the table. Every result type's fields are here; the page shows the ones the
    chosen type needs, and `to_hand` sends only those."""

    def __init__(
        self, *args: Any, rules: Ruleset, names: list[str], can_stop: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.n = len(names)
        self.seat_names = names
        self.emperor = rules.game == "emperor"
        seats = _seat_choices(names)
        checks = _seat_choices(names, blank=False)
        types = EMPEROR_TYPES if self.emperor else RIICHI_TYPES
        if not self.emperor:
            types = [
                t
                for t in types
                if not (t[0] == "nagashi" and rules.nagashi is None)
                and not (t[0] == "abort" and not rules.aborts)
            ]
        self.fields["type"] = forms.ChoiceField(
            label=_("Result"), choices=types, widget=forms.RadioSelect
        )
        if rules.riichi_stick:
            self.fields["riichi"] = forms.MultipleChoiceField(
                label=_("Riichi"),
                choices=checks,
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
        self.fields["winner"] = forms.ChoiceField(label=_("Winner"), choices=seats, required=False)
        self.fields["discarder"] = forms.ChoiceField(
            label=_("Dealt in"), choices=seats, required=False
        )
        number = {"required": False, "widget": forms.NumberInput(attrs={"inputmode": "numeric"})}
        if self.emperor:
            self.fields["yaku"] = forms.IntegerField(label=_("Yaku"), **number)
            self.fields["bonus"] = forms.IntegerField(label=_("Bonus yaku"), **number)
            self.fields["virtue"] = forms.IntegerField(label=_("Virtue"), **number)
            self.fields["calls"] = forms.IntegerField(label=_("Calls"), **number)
            self.fields["special"] = forms.ChoiceField(
                label=_("Special"),
                choices=[("", "—")] + [(k, v) for k, v in SPECIAL_NAMES.items()],
                required=False,
            )
        else:
            self.fields["han"] = forms.IntegerField(label=_("Han"), **number)
            self.fields["fu"] = forms.IntegerField(label=_("Fu"), **number)
            self.fields["yakuman"] = forms.IntegerField(label=_("Yakuman"), **number)
            self.fields["pao"] = forms.ChoiceField(label=_("Pao"), choices=seats, required=False)
            for k in range(self.n - 1):
                self.fields[f"wins_{k}_seat"] = forms.ChoiceField(
                    label=_("Winner %(n)s") % {"n": k + 1}, choices=seats, required=False
                )
                self.fields[f"wins_{k}_han"] = forms.IntegerField(label=_("Han"), **number)
                self.fields[f"wins_{k}_fu"] = forms.IntegerField(label=_("Fu"), **number)
                self.fields[f"wins_{k}_yakuman"] = forms.IntegerField(label=_("Yakuman"), **number)
                self.fields[f"wins_{k}_pao"] = forms.ChoiceField(
                    label=_("Pao"), choices=seats, required=False
                )
        self.fields["tenpai"] = forms.MultipleChoiceField(
            label=_("Tenpai"), choices=checks, widget=forms.CheckboxSelectMultiple, required=False
        )
        if not self.emperor and rules.nagashi is not None:
            self.fields["winners"] = forms.MultipleChoiceField(
                label=_("Nagashi by"),
                choices=checks,
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
        if not self.emperor and rules.aborts:
            self.fields["reason"] = forms.ChoiceField(
                label=_("Reason"),
                choices=[("", "—")] + [(k, ABORT_NAMES[k]) for k in rules.aborts],
                required=False,
            )
        self.fields["offender"] = forms.ChoiceField(
            label=_("Offender"), choices=seats, required=False
        )
        if can_stop:
            self.fields["stop"] = forms.BooleanField(
                label=_("The dealer stops here after winning (アガリ止め)"), required=False
            )

    def win_rows(self) -> list[list[forms.BoundField]]:
        keys = ("seat", "han", "fu", "yakuman", "pao")
        return [[self[f"wins_{k}_{key}"] for key in keys] for k in range(self.n - 1)]

    def _win(self, prefix: str, seat_key: str, seat: int) -> dict[str, Any]:
        d = self.cleaned_data
        out: dict[str, Any] = {seat_key: seat}
        for key in ("han", "fu", "yakuman"):
            if d.get(prefix + key) is not None:
                out[key] = d[prefix + key]
        if _int(d.get(prefix + "pao")) is not None:
            out["pao"] = _int(d.get(prefix + "pao"))
        return out

    def to_hand(self) -> dict[str, Any]:
        d = self.cleaned_data
        kind = d["type"]
        result: dict[str, Any] = {"type": kind}
        seat = _int(d.get("winner"))
        if kind in ("ron", "tsumo") and self.emperor:
            result["winner"] = seat
            if kind == "ron":
                result["discarder"] = _int(d.get("discarder"))
            for key in ("yaku", "bonus", "virtue", "calls"):
                if d.get(key) is not None:
                    result[key] = d[key]
            if d.get("special"):
                result["special"] = d["special"]
        elif kind == "ron":
            result["discarder"] = _int(d.get("discarder"))
            result["wins"] = [
                self._win(f"wins_{k}_", "seat", s)
                for k in range(self.n - 1)
                if (s := _int(d.get(f"wins_{k}_seat"))) is not None
            ]
        elif kind == "tsumo":
            result.update(self._win("", "winner", seat) if seat is not None else {"winner": None})
        elif kind == "draw":
            result["tenpai"] = [int(s) for s in d.get("tenpai") or []]
        elif kind == "nagashi":
            result["winners"] = [int(s) for s in d.get("winners") or []]
        elif kind == "abort":
            result["reason"] = d.get("reason") or None
        elif kind == "chombo":
            result["offender"] = _int(d.get("offender"))
        hand: dict[str, Any] = {"riichi": [int(s) for s in d.get("riichi") or []], "result": result}
        if not hand["riichi"]:
            del hand["riichi"]
        if d.get("stop"):
            hand["stop"] = True
        return hand

    def form_field(self, path: str) -> str | None:
        path = path.removeprefix("result.")
        if m := re.fullmatch(r"wins(?:\[(\d+)\](?:\.(\w+))?)?", path):
            key = {"pao_yakuman": "yakuman", None: "seat"}.get(m[2], m[2])
            name = f"wins_{m[1] or 0}_{key}"
            return name if name in self.fields else None
        if path in ("han", "fu", "yakuman", "pao") and self.cleaned_data.get("type") == "ron":
            return None
        if path == "pao_yakuman":
            path = "yakuman"
        if path in ("", "result"):
            return None
        return super().form_field(path.split(".")[0].split("[")[0])
