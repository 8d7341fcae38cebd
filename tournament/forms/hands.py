"""The hand form: one hand at the table, entered by tapping (final scores: games.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from scoring.emperor import SPECIAL_NAMES
from scoring.game_types import game_type
from scoring.rules import Ruleset
from tournament.forms.games import EngineForm, seat_choices
from tournament.i18n import ABORT_LABELS
from tournament.selectors.sheets import HandButtons

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
# Every fu a hand can have (20 for pinfu tsumo, 25 for chiitoitsu, then tens to 110).
FU_VALUES = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
# Composite yakuman: the most one hand reaches (e.g. 大四喜 字一色 四暗刻単騎 where doubles count).
MOST_YAKUMAN = 6

# A seat's button on a 390-px phone (four to a line beside the row's label) holds about 3.9em
# of its bold name a line: a word wider than that was broken inside ("Fische/r", helper-51).
# Estimated as a Latin letter 0.62em and a Japanese one 1em (DejaVu Sans Bold, the widest of
# the phones' fonts); a table with such a word has its seat buttons two to a line on a phone.
SEAT_BUTTON_EMS = 3.9


def _word_ems(word: str) -> float:
    return sum(1.0 if ord(c) >= 0x2E80 else 0.62 for c in word)


def long_names(names: list[str]) -> bool:
    """Whether a word of the seats' names is too wide for a phone's seat button."""
    words = (w for name in names for w in name.replace("-", " ").split())
    return any(_word_ems(w) > SEAT_BUTTON_EMS for w in words)


def _multiple(value: str) -> int | float:
    """A yakuman multiple as the engine takes it: 2, or 1.5 under half steps."""
    number = float(value)
    return int(number) if number.is_integer() else number


def _chips(choices: list[tuple[Any, Any]], **kwargs: Any) -> forms.TypedChoiceField:
    """Buttons, one per choice (radios underneath: the page works without JavaScript)."""
    return forms.TypedChoiceField(
        choices=choices, widget=forms.RadioSelect, required=False, empty_value=None, **kwargs
    )


def _seat_chips(names: list[str], **kwargs: Any) -> forms.TypedChoiceField:
    return _chips(seat_choices(names, blank=False), coerce=int, **kwargs)


def _seat_toggles(names: list[str], **kwargs: Any) -> forms.TypedMultipleChoiceField:
    return forms.TypedMultipleChoiceField(
        choices=seat_choices(names, blank=False),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        **kwargs,
    )


def hand_form_initial(version: int, hands: int) -> dict[str, int]:
    """A fresh hand form's hidden fields: the game's version and the hand it is for."""
    return {"version": version, "number": hands + 1}


def hand_form_fill(hand: Any, version: int, number: int) -> dict[str, Any]:
    """A stored hand as a hand form's initial values (what `to_hand` reads back the same):
    the organizer's correction of hand `number` opens with the hand as it was entered."""
    result = hand.get("result") or {} if isinstance(hand, dict) else {}
    kind = result.get("type", "ron")
    out: dict[str, Any] = {"version": version, "number": number, "type": kind}
    if hand.get("riichi"):
        out["riichi"] = [str(seat) for seat in hand["riichi"]]
    for key in ("discarder", "reason", "offender", "yaku", "bonus", "virtue", "calls", "special"):
        if result.get(key) is not None:
            out[key] = result[key]
    for key in ("tenpai", "winners"):
        if result.get(key):
            out[key] = [str(seat) for seat in result[key]]
    wins = result.get("wins") or ([result] if kind == "tsumo" else [])
    for k, win in enumerate(wins):
        prefix = f"wins_{k}_" if kind == "ron" else ""
        out[prefix + ("seat" if kind == "ron" else "winner")] = win.get("seat", win.get("winner"))
        for key in ("han", "fu", "pao"):
            if win.get(key) is not None:
                out[prefix + key] = win[key]
        if win.get("yakuman") is not None:
            out[prefix + "yakuman"] = f"{win['yakuman']:g}"
    if kind == "ron" and "winner" in result:  # the card game's ron: one winner, no blocks
        out["winner"] = result["winner"]
    out.update({key: True for key in ("stop", "time_up") if hand.get(key)})
    return out


# A seat's name in the kept buttons (HandForm.stand_in), replaced by the table's own as the
# page is drawn: NUL is never in a stored name (middleware.RefuseNulMiddleware refuses it)
# and passes HTML escaping unchanged.
SEAT_MARK = "\x00seat{}\x00"


class HandForm(EngineForm):
    """One hand at the table, entered by tapping: result, riichi, seats (by wind and name),
    han and fu as buttons. Every result type's fields are here; the page shows the ones the
    chosen type needs, and `to_hand` sends only those.

    A win is a block of fields sharing a prefix: `""` for a tsumo (`winner`, `han`, …) and
    `wins_K_` for the K-th ron winner (`wins_K_seat`, …) — as many ron blocks as the venue
    lets win at once (`max_ron_winners`)."""

    def __init__(
        self,
        *args: Any,
        rules: Ruleset,
        names: list[str],
        can_stop: bool = False,
        time_up: bool = False,
        clock_running: bool = False,
        wide: bool | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # The seats' buttons two to a line on a phone (`long_names`; given for `stand_in`).
        self.wide = long_names(names) if wide is None else wide
        # What the buttons are made of: for `stand_in` (the same form with stand-in names), and
        # what they are kept by (`kept`).
        self.buttons = HandButtons(rules, len(names), can_stop, time_up, clock_running, self.wide)
        # The choice is in the form while the round's clock runs, shown once time is up: by
        # the page (time_up) or, without a reload, by clock.js when the count reaches zero.
        self.time_up_now = time_up
        self.rules = rules
        self.n = len(names)
        self.seat_names = names
        # The hand the form was loaded for: after a conflict, the one "replace" takes back.
        self.fields["number"] = forms.IntegerField(
            widget=forms.HiddenInput, required=False, min_value=1, max_value=10_000
        )
        # A win entered by yaku (the card game) or by han and fu (riichi): the game type says.
        self.by_yaku = game_type(rules).scored_by == "yaku"
        types = EMPEROR_TYPES if self.by_yaku else RIICHI_TYPES
        if not self.by_yaku:
            types = [
                t
                for t in types
                if not (t[0] == "nagashi" and rules.nagashi is None)
                and not (t[0] == "abort" and not rules.aborts)
            ]
        # Most hands are a ron: it is chosen until the organizer picks another result.
        self.fields["type"] = forms.ChoiceField(
            label=_("Result"), choices=types, widget=forms.RadioSelect, initial="ron"
        )
        if rules.riichi_stick:
            self.fields["riichi"] = _seat_toggles(names, label=_("Riichi"))
        self.fields["discarder"] = _seat_chips(names, label=_("Dealt in"))
        self.fields["winner"] = _seat_chips(names, label=_("Winner"))
        self.ron_blocks = 1 if self.by_yaku else min(rules.max_ron_winners, self.n - 1)
        if self.by_yaku:
            self._emperor_fields()
        else:
            self._win_fields("")
            for k in range(self.ron_blocks):
                self.fields[f"wins_{k}_seat"] = _seat_chips(
                    names, label=_("Winner") if k == 0 else _("Winner %(n)s") % {"n": k + 1}
                )
                self._win_fields(f"wins_{k}_")
        self.fields["tenpai"] = _seat_toggles(names, label=_("Tenpai"))
        # Where nagashi is an exhaustive draw for the deal (Tenhou, EMA), who was tenpai decides
        # whether the dealer keeps it: the nagashi screen asks for tenpai too.
        self.nagashi_tenpai = False
        if not self.by_yaku and rules.nagashi is not None:
            self.fields["winners"] = _seat_toggles(names, label=_("Nagashi by"))
            self.nagashi_tenpai = rules.nagashi_flow == "draw"
        if not self.by_yaku and rules.aborts:
            self.fields["reason"] = _chips(
                [(k, ABORT_LABELS[k]) for k in rules.aborts], label=_("Reason")
            )
        self.fields["offender"] = _seat_chips(names, label=_("Offender"))
        if can_stop:
            self.fields["stop"] = forms.BooleanField(
                label=_("The dealer stops here after winning (アガリ止め)"),
                required=False,
                label_suffix="",  # a sentence beside its box, not a field's name before a colon
            )
        if time_up or clock_running:  # once the clock runs out, this may be the last hand
            self.fields["time_up"] = forms.BooleanField(
                label=_("Time is up: the game ends after this hand"),
                required=False,
                label_suffix="",  # it has a colon of its own (helper-49 saw two)
            )

    def clean_time_up(self) -> bool:
        ended = self.cleaned_data.get("time_up", False)
        if ended and not self.time_up_now:
            raise forms.ValidationError(_("The round's time is not up yet."))
        return ended

    def _win_fields(self, prefix: str) -> None:
        rules = self.rules
        top_han = max(13, rules.kazoe_han or 13)  # a venue counting 14 han to kazoe needs 14
        self.fields[prefix + "han"] = _chips(
            [(h, str(h)) for h in range(1, top_han + 1)], coerce=int, label=_("Han")
        )
        if rules.fu:  # a venue without fu (free-sanma: every hand 30 fu) never asks for it
            self.fields[prefix + "fu"] = _chips(
                [(f, str(f)) for f in FU_VALUES], coerce=int, label=_("Fu")
            )
        step = 0.5 if rules.yakuman_half_steps else 1.0
        multiples = [1 + step * i for i in range(int((MOST_YAKUMAN - 1) / step) + 1)]
        self.fields[prefix + "yakuman"] = _chips(
            [(f"{k:g}", f"×{k:g}") for k in multiples], coerce=_multiple, label=_("Yakuman")
        )
        self.fields[prefix + "pao"] = _chips(
            seat_choices(self.seat_names), coerce=int, label=_("Pao")
        )

    def _emperor_fields(self) -> None:
        rules, n = self.rules, self.n

        def number(label: Any, help_text: str) -> forms.IntegerField:
            return forms.IntegerField(
                label=label,
                help_text=help_text,
                required=False,
                min_value=0,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

        minimum = rules.emperor_min_yaku.get(n)
        virtuous = rules.emperor_virtuous.get(n)
        self.fields["yaku"] = number(
            _("Yaku"),
            _("At least %(min)s with %(n)s players (縛り), one more per call.")
            % {"min": minimum, "n": n},
        )
        self.fields["bonus"] = number(
            _("Bonus yaku"), _("%(points)s points each.") % {"points": rules.emperor_bonus_points}
        )
        self.fields["virtue"] = number(
            _("Virtue"),
            _("Virtuous at %(v)s or more: %(points)s points each; the winner becomes emperor.")
            % {"v": virtuous, "points": rules.emperor_virtue_points},
        )
        self.fields["calls"] = number(_("Calls"), _("Calls made (鳴き); each raises the minimum."))
        self.fields["special"] = forms.ChoiceField(
            label=_("Special"),
            choices=[("", "—")] + [(k, v) for k, v in SPECIAL_NAMES.items()],
            required=False,
            help_text=_("三双, 天和 and 地和 win without the minimum."),
        )

    @property
    def kept(self) -> HandButtons | None:
        """What a fresh form's buttons are made of, their HTML kept by its `key` for every
        table of the event and every hand (_hand_form.html keeps `stand_in`'s and puts each
        table's names in). None for a form that shows what someone pressed or a stored hand:
        its buttons are made each time. The version and the hand it is for are not in it: they
        stay outside the kept part."""
        if self.is_bound or set(self.initial) - {"version", "number"}:
            return None
        return self.buttons

    @cached_property
    def stand_in(self) -> HandForm:
        """This form with a mark in each seat's name (`SEAT_MARK`): the buttons kept by
        `kept`, which the `with_seat_names` filter turns into this table's."""
        marks = [SEAT_MARK.format(i) for i in range(self.n)]
        made = self.buttons
        return HandForm(
            names=marks,
            initial=self.initial,
            rules=made.rules,
            can_stop=made.can_stop,
            time_up=made.time_up,
            clock_running=made.clock_running,
            wide=made.wide,
        )

    @property
    def seat_cols(self) -> str:
        """The grid class that puts one button per seat on a line (`cols-4`) — on a phone two
        to a line where a name has a word too wide for its button (`wide-names`)."""
        return f"cols-{self.n} wide-names" if self.wide else f"cols-{self.n}"

    @property
    def type_cols(self) -> str:
        """Results on one line when four fit, else three to a line (two lines of six)."""
        count = len(self.fields["type"].choices)
        return f"cols-{count if count <= 4 else 3}"

    @property
    def pao_cols(self) -> str:  # the seats and "—"
        return f"cols-{self.n + 1} wide-names" if self.wide else f"cols-{self.n + 1}"

    @property
    def fu_below(self) -> int:
        """Fu changes a hand's value only under the first limit (mangan at 5 han)."""
        return self.rules.limits[0][0]

    @property
    def atamahane(self) -> bool:
        """One ron winner only (頭ハネ, `max_ron_winners` 1): the form says which one to enter
        (issue 66: it said nothing, and a table with two rons entered the wrong winner)."""
        return not self.by_yaku and self.rules.max_ron_winners == 1

    def win_blocks(self) -> list[dict[str, Any]]:
        """The ron winners' blocks (the first always shown, the others opened on demand)."""
        blocks = [self._block(f"wins_{k}_", f"wins_{k}_seat") for k in range(self.ron_blocks)]
        for k, block in enumerate(blocks):  # open when it, or one opened inside it, holds input
            block["open"] = any(b["used"] for b in blocks[k:])
        return blocks

    def tsumo_block(self) -> dict[str, Any]:
        return self._block("", "winner")

    def _block(self, prefix: str, seat: str) -> dict[str, Any]:
        block = {"seat": self[seat]}
        for key in ("han", "fu", "yakuman", "pao"):
            block[key] = self[prefix + key] if prefix + key in self.fields else None

        def holds(*keys: str) -> bool:  # something pressed, or an error to show
            fields = [block[k] for k in keys if block[k] is not None]
            return any(f.value() not in (None, "", []) or f.errors for f in fields)

        # Opened when it holds something: a page sent back never hides what was pressed.
        block["used"] = holds("seat", "han", "fu", "yakuman", "pao")
        block["rare_used"] = holds("yakuman", "pao")
        return block

    def _win(self, prefix: str, at: str, seat_key: str, seat_field: str) -> dict[str, Any]:
        d = self.cleaned_data
        out: dict[str, Any] = {seat_key: d.get(seat_field)}
        self.paths[f"{at}.{seat_key}"] = seat_field
        for key in ("han", "fu", "yakuman", "pao"):
            self.paths[f"{at}.{key}"] = prefix + key
            if d.get(prefix + key) is not None:
                out[key] = d[prefix + key]
        self.paths[f"{at}.pao_yakuman"] = prefix + "yakuman"
        return out

    def to_hand(self) -> dict[str, Any]:
        d = self.cleaned_data
        kind = d["type"]
        result: dict[str, Any] = {"type": kind}
        self.paths = {"riichi": "riichi", "stop": "stop", "time_up": "time_up"}
        self.paths["result.type"] = "type"
        for key in ("discarder", "winner", "tenpai", "winners", "reason", "offender"):
            self.paths[f"result.{key}"] = key
        if kind in ("ron", "tsumo") and self.by_yaku:
            result["winner"] = d.get("winner")
            if kind == "ron":
                result["discarder"] = d.get("discarder")
            for key in ("yaku", "bonus", "virtue", "calls", "special"):
                self.paths[f"result.{key}"] = key
                if d.get(key) not in (None, ""):
                    result[key] = d[key]
        elif kind == "ron":
            result["discarder"] = d.get("discarder")
            result["wins"] = []
            self.paths["result.wins"] = "wins_0_seat"
            for k in range(self.ron_blocks):
                if d.get(f"wins_{k}_seat") is not None:
                    at = f"result.wins[{len(result['wins'])}]"
                    self.paths[at] = f"wins_{k}_seat"
                    result["wins"].append(self._win(f"wins_{k}_", at, "seat", f"wins_{k}_seat"))
        elif kind == "tsumo":
            result.update(self._win("", "result", "winner", "winner"))
        elif kind == "draw":
            result["tenpai"] = d.get("tenpai") or []
        elif kind == "nagashi":
            result["winners"] = d.get("winners") or []
            if self.nagashi_tenpai:
                result["tenpai"] = d.get("tenpai") or []
        elif kind == "abort":
            result["reason"] = d.get("reason")
        elif kind == "chombo":
            result["offender"] = d.get("offender")
        hand: dict[str, Any] = {"result": result}
        if d.get("riichi"):
            hand = {"riichi": d["riichi"], "result": result}
        if d.get("stop"):
            hand["stop"] = True
        if d.get("time_up"):
            hand["time_up"] = True
        return hand
