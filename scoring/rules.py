"""A ruleset is data: one frozen dataclass of knobs. Presets are instances (see presets.py).

Overriding knobs gives a new ruleset (`ruleset.replace(uma={4: [20, 10, -10, -20]})`, or
`{"preset": "baba", "uma": [20, 10, -10, -20]}` from JSON). Every ruleset is validated when it
is made, so an impossible one never reaches the engine.

Units: score points (点) everywhere, except where a knob says "points" — the unit of results
(1 point = `point_value` score points: 1000 for riichi, 100 for the Emperor card game).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from scoring.knobs import (
    ABORT_REASONS,
    ABORT_RULES,
    DOUBLE_YAKUMAN,
    HALF_STEP,
    RENCHAN_RULES,
    SCORE_STEP,
    WINDS,
    AbortReason,
    AbortRule,
    AgariYame,
    Bust,
    BustAttribution,
    ChomboRule,
    DoubleYakuman,
    Game,
    LeftoverDeposits,
    LeftoverDepositsTie,
    MultipleRonHonba,
    MultipleRonSticks,
    NagashiDeposits,
    NagashiFlow,
    NagashiMultiple,
    NagashiRule,
    PaoRonHonba,
    PaymentRow,
    RenchanRule,
    Rounding,
    SanmaTsumo,
    Tie,
    check_uma_table,
    frozen,
    is_number,
    read_int_map,
    read_ints,
    read_limits,
    read_names,
    read_str_map,
    read_table_map,
    to_json,
)
from scoring.messages import fail
from scoring.parse import is_int


@dataclass(frozen=True)
class Ruleset:
    """Every knob of a venue's rules. Defaults are a plain 4-player East-South riichi game."""

    slug: str
    name: str  # as its owners write it
    # The name in each language a page is read in ({"ja": "天鳳 四人打ち東南戦", "en": "Tenhou
    # 4-player East-South"}); a language not listed reads `name`. Issue 32: a Japanese page
    # showed "天鳳 (Tenhou 4-player East-South)", an English one a name it could not read.
    names: Mapping[str, str] = field(default_factory=dict)
    game: Game = "riichi"
    players: int = 4  # the usual table size
    player_counts: tuple[int, ...] = (4,)  # every table size this ruleset allows

    # Settlement
    start: int = 25000
    return_points: int = 30000  # oka = (return − start) × players, to the player ranked first
    point_value: int = 1000  # score points per result point
    # exact | gosha_rokunyu (五捨六入: …500 down, …600 up) | half_up (Tenhou: to the thousand,
    # half up, so −12.5 → −12 and +1.5 → +2); the rounded kinds round all but the top, who takes
    # the rest
    rounding: Rounding = "exact"
    # The rounding of the platform's earlier years, if it printed results otherwise then (Tenhou:
    # whole points, `half_up`, until 2021–22; docs/rulesets.md). A game read from a log that
    # prints its points this way is checked and kept with it; `rounding` stays the rule for
    # every other game. None: one rounding for all.
    rounding_earlier: Rounding | None = None
    uma: Mapping[int, tuple[float, ...]] = field(default_factory=dict)  # players → points by rank
    uma_floating: Mapping[int, tuple[float, ...]] | None = None  # floaters (≥ return) → by rank
    tie: Tie = "seat"  # seat (nearer the starting dealer ranks higher) | split (share uma and oka)
    leftover_deposits: LeftoverDeposits = "top"  # top (to the player ranked first) | lost
    # With `top`, when players tie for first: nearest_dealer (all to the tied seat nearer the
    # starting dealer, who then ranks alone first) | split_down (shared evenly, each share
    # rounded down to 100, the rest lost; the tied seats stay tied — EMA 2025 §3.7 "the points
    # are split in case of a tie (any decimals are rounded down)", EMA 2016 §3.6).
    leftover_deposits_tie: LeftoverDepositsTie = "nearest_dealer"

    # Hand values
    unit: int = 100  # every payment is rounded up to this
    # Per honba on a ron; a tsumo splits it evenly among the payers (Pantheon's 3-player 300:
    # 150 from each of two, Mahjong Soul's 1000: 500 each), refused where it does not divide.
    honba: int = 300
    riichi_stick: int = 1000
    riichi_min_score: int | None = 1000  # None: a riichi may take a player below zero
    # A riichi seat may be noten at an exhaustive draw: its hand was declared dead after the
    # riichi (アガリ放棄: a wrong tile count, a false call), so it counts noten, pays, and loses
    # its stick, without a chombo (EMA 2012 §3.3.13; riichi.wiki "Agari houki"; Pantheon's
    # dead-hand button). False: refused, as a noten riichi is a chombo (entered as one).
    riichi_dead_hand: bool = False
    penalty: int = 1000  # 罰符 into deposits; 0: none
    noten_total: int = 3000
    fu: bool = True  # False: every hand is 30 fu and fu is not entered
    kiriage: bool = False  # 30fu4han and 60fu3han count as mangan
    limits: tuple[tuple[int, int], ...] = ((5, 2000), (6, 3000), (8, 4000), (11, 6000))
    kazoe_han: int | None = 13  # None: no counted yakuman
    # A tsumo at 3 players: loss (ツモ損: the North's share is not paid — Tenhou, Mahjong Soul's
    # default) | split (北家折半: each payer adds half a non-dealer's share, rounded up to `unit` —
    # Mahjong Soul's room option, as tensoul's convert.js pays it). No effect at 4 players.
    sanma_tsumo: SanmaTsumo = "loss"
    payment_table: tuple[PaymentRow, ...] | None = None  # replaces the fu × 2^(han+2) formula
    payment_table_yakuman: PaymentRow | None = None
    mangan_han: int = 5  # a mangan is the value at this many han (chombo, nagashi)
    yakuman_half_steps: bool = False  # allow k = 1.5, 2.5 … (a venue's 6倍満)
    # The most yakuman one hand may count (None: as many as it has). WRC and EMA 2016: 1 —
    # "every yakuman is counted as single yakuman" (riichi.wiki, WRC rules; EMA 2016 changes:
    # "the maximum score is a single yakuman"). A hand entered with more is refused.
    yakuman_max: int | None = None
    # The yakuman that count double (ダブル役満) where a hand comes by its yaku — a game log names
    # them, and check_log holds the log's count against this: kokushi_13 (国士無双十三面待ち),
    # suuankou_tanki (四暗刻単騎), junsei_chuuren (純正九蓮宝燈), daisuushii (大四喜). Empty: each
    # counts one (Tenhou: "do not award double yakuman for any specific hand", riichi.wiki
    # "Multiple yakuman"). Mahjong Soul: all four (its own yaku table, `yiman: 2`; tensoul's
    # data.json). A hand the table enters carries its own count (`yakuman: 2`).
    double_yakuman: tuple[DoubleYakuman, ...] = ()
    max_ron_winners: int = 1  # 1 = atamahane (頭ハネ)
    # each | nearest (honba to the winner nearest the discarder)
    multiple_ron_honba: MultipleRonHonba = "nearest"
    # The riichi sticks on a multiple ron: nearest (all to the winner nearest the discarder:
    # Tenhou, Mahjong Soul 「積み棒は上家取り」, EMA 2012 text) | own (each winner in riichi
    # takes back their own stick; the rest go to the nearest — EMA 2016 as riichi.wiki and
    # Pantheon's EMA ruleset read it; docs/rulesets.md, chosen).
    multiple_ron_sticks: MultipleRonSticks = "nearest"
    nagashi: NagashiRule = "mangan"  # None: not played
    nagashi_multiple: NagashiMultiple = "first"  # first (nearest the dealer, dealer first) | all
    # winner (takes the riichi sticks) | table (they stay: Tenhou)
    nagashi_deposits: NagashiDeposits = "winner"
    nagashi_honba: bool = True  # honba are added to the nagashi payment (Tenhou: no)
    # win (the dealer keeps it only by winning it) | draw (an exhaustive draw for the deal: the
    # dealer keeps it if tenpai, honba + 1 — Tenhou, EMA)
    nagashi_flow: NagashiFlow = "win"
    aborts: Mapping[AbortReason, AbortRule] = field(default_factory=dict)  # reason → rule
    # reverse_mangan | fixed (chombo_amount to each other player) | result_penalty (no score
    # changes hands; chombo_points come off the offender's result after ranking: EMA, WRC)
    chombo: ChomboRule = "reverse_mangan"
    chombo_amount: int = 0
    chombo_points: float = 20.0  # result_penalty: points taken off the offender's result
    # discarder | split (pao and discarder each pay honba × H/(n−1)) | pao (the pao seat: Tenhou)
    pao_ron_honba: PaoRonHonba = "discarder"

    # Game flow
    winds: int = 2  # game length in winds: 1 East only, 2 East-South
    renchan_on_draw: Mapping[str, RenchanRule] = field(default_factory=dict)  # wind → rule
    # never | always | if_top: may the dealer stop after winning the last hand (the table marks
    # it) | auto: the game ends by itself when the last hand's dealer, first after winning it or
    # tenpai at its draw, would otherwise repeat (Tenhou's アガリやめ and テンパイやめ)
    agari_yame: AgariYame = "never"
    extension_below: int | None = None  # play another wind when the top ends below this
    extension_winds: int = 1
    extension_sudden_death: bool = False  # the extension ends once someone reaches extension_below
    bust: Bust = "below_zero"
    # receivers (everyone paid by the busted) | sequential
    bust_attribution: BustAttribution = "receivers"
    bust_prize: float = 0.0  # points (or chips) the busted player pays, split among who busted them
    bust_prize_share_unit: float = 0.1  # each share rounded down to this many points
    prizes_in_chips: bool = False  # bust prize and yakuman chips in a separate chips column
    yakuman_chips_tsumo: float = 0.0  # per yakuman, from each other player
    yakuman_chips_ron: float = 0.0  # per yakuman, from the discarder
    chips_follow_pao: bool = False  # the pao seat pays the chips as it pays the points

    # The Emperor card game (皇帝)
    hands_per_game: int | None = None
    emperor_virtuous: Mapping[int, int] = field(default_factory=dict)  # players → virtue needed
    emperor_min_yaku: Mapping[int, int] = field(default_factory=dict)  # players → 縛り
    emperor_yaku_points: int = 50  # n(n−1) × this (n(n+1) × this for the emperor)
    emperor_bonus_points: int = 500  # per bonus yaku
    emperor_virtue_points: int = 100  # per virtue, when virtuous

    def __post_init__(self) -> None:
        _normalise(self)
        _validate(self)

    # --- convenience -------------------------------------------------------------------------

    def replace(self, **knobs: Any) -> Ruleset:
        """A new ruleset with these knobs changed (validated)."""
        unknown = sorted(set(knobs) - KNOBS)
        if unknown:
            raise fail("rules.knob", f"ruleset.{unknown[0]}")
        return dataclasses.replace(self, **knobs)

    @property
    def oka(self) -> int:
        """Oka for the usual table size, in score points."""
        return self.oka_for(self.players)

    def oka_for(self, players: int) -> int:
        return (self.return_points - self.start) * players

    def uma_for(self, players: int) -> tuple[float, ...]:
        return self.uma.get(players, (0,) * players)

    @property
    def whole_points(self) -> bool:
        """Results come in whole points (jan-niki's rounding, or payments in whole points) —
        for every game: a game kept with `rounding_earlier` too."""
        return (
            (self.rounding != "exact" and self.rounding_earlier in (None, *_WHOLE_ROUNDINGS))
            or self.point_value <= SCORE_STEP
            or self.unit % self.point_value == 0
        )

    @property
    def score_step(self) -> int:
        """What every score stays a multiple of: 100, or 50 where a tsumo's honba splits into
        fifties among the payers (300 a honba between two payers: 150 each, as Pantheon pays)."""
        if any((self.honba // (n - 1)) % SCORE_STEP for n in self.player_counts):
            return HALF_STEP
        return SCORE_STEP

    @property
    def points_places(self) -> int:
        """Decimals a result needs: one, or two where scores move in 50s and a point is worth
        more than 500 score points (36,150 from 35,000 is 1.15 points at 1,000 a point)."""
        step = self.score_step
        return 2 if step < SCORE_STEP and (step * 10) % self.point_value else 1

    @property
    def table_marks_stop(self) -> bool:
        """The table may mark the dealer's stop at the last hand (`"stop": true`); with
        `auto` the engine stops the game itself, and with `never` nobody may."""
        return self.agari_yame in ("always", "if_top")

    @property
    def prize_parts(self) -> tuple[str, ...]:
        """The prizes a game can pay, as settlement's breakdown names them: `bust` (飛び賞),
        `shugi` (yakuman chips). Empty at a venue that pays none."""
        parts = ("bust",) if self.bust_prize and self.bust != "never" else ()
        if self.yakuman_chips_tsumo or self.yakuman_chips_ron:
            parts += ("shugi",)
        return parts

    def name_in(self, language: str) -> str:
        """The name a reader of `language` (ja, en, en-gb…) sees: its own name there, else
        `name`."""
        return self.names.get(language) or self.names.get(language.split("-")[0]) or self.name

    def mangan_value(self) -> int:
        """Basic points of a mangan (formula rulesets)."""
        return self.limits[0][1]

    def to_json(self) -> dict[str, Any]:
        """The ruleset as JSON data; `Ruleset.from_json(preset=…, **this)` gives it back."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = to_json(value)
        return out


KNOBS = frozenset(f.name for f in dataclasses.fields(Ruleset))
# The roundings that give whole points (all but `exact`).
_WHOLE_ROUNDINGS = tuple(r for r in get_args(Rounding) if r != "exact")


# --- normalising JSON-ish values into frozen data ---------------------------------------------


def _normalise(rules: Ruleset) -> None:
    """Turn lists and dicts (as given from JSON or by a caller) into tuples and frozen maps."""
    put = object.__setattr__
    put(rules, "names", frozen(read_str_map(rules.names, "names")))
    put(rules, "player_counts", tuple(read_ints(rules.player_counts, "player_counts")))
    put(rules, "uma", frozen(read_table_map(rules.uma, "uma", rules.players)))
    if rules.uma_floating is not None:
        put(rules, "uma_floating", frozen(read_table_map(rules.uma_floating, "uma_floating", None)))
    put(rules, "limits", read_limits(rules.limits))
    if rules.payment_table is not None:
        rows = rules.payment_table
        if not isinstance(rows, list | tuple):
            raise fail("rules.rows", "ruleset.payment_table")
        put(
            rules,
            "payment_table",
            tuple(
                r
                if isinstance(r, PaymentRow)
                else PaymentRow.from_json(r, f"ruleset.payment_table[{i}]")
                for i, r in enumerate(rows)
            ),
        )
    row = rules.payment_table_yakuman
    if row is not None and not isinstance(row, PaymentRow):
        put(
            rules,
            "payment_table_yakuman",
            PaymentRow.from_json(row, "ruleset.payment_table_yakuman"),
        )
    put(rules, "double_yakuman", read_names(rules.double_yakuman, "double_yakuman", DOUBLE_YAKUMAN))
    put(rules, "aborts", frozen(read_str_map(rules.aborts, "aborts")))
    renchan = rules.renchan_on_draw
    if isinstance(renchan, str):
        renchan = dict.fromkeys(WINDS, renchan)
    renchan = {**dict.fromkeys(WINDS, "tenpai"), **read_str_map(renchan, "renchan_on_draw")}
    put(rules, "renchan_on_draw", frozen(renchan))
    put(rules, "emperor_virtuous", frozen(read_int_map(rules.emperor_virtuous, "emperor_virtuous")))
    put(rules, "emperor_min_yaku", frozen(read_int_map(rules.emperor_min_yaku, "emperor_min_yaku")))


# --- validation -------------------------------------------------------------------------------


def _one_of(rules: Ruleset, name: str, choices: Any) -> None:
    """The knob's value is one of `choices`, its Literal alias."""
    allowed = get_args(choices)
    value = getattr(rules, name)
    if value not in allowed:
        shown = ", ".join("null" if a is None else str(a) for a in allowed)
        raise fail("value.choice", f"ruleset.{name}", value=value, choices=shown)


def _whole(rules: Ruleset, name: str, low: int | None = 0, optional: bool = False) -> None:
    value = getattr(rules, name)
    if value is None and optional:
        return
    if not is_int(value):
        raise fail("value.whole", f"ruleset.{name}")
    if low is not None and value < low:
        raise fail("value.min", f"ruleset.{name}", low=low)


def _validate(r: Ruleset) -> None:
    for name in ("slug", "name"):
        if not isinstance(getattr(r, name), str) or not getattr(r, name):
            raise fail("value.nonempty_text", f"ruleset.{name}")
    _one_of(r, "game", Game)
    for name in (
        "fu",
        "kiriage",
        "yakuman_half_steps",
        "extension_sudden_death",
        "prizes_in_chips",
        "chips_follow_pao",
        "nagashi_honba",
        "riichi_dead_hand",
    ):
        if not isinstance(getattr(r, name), bool):
            raise fail("value.bool", f"ruleset.{name}")
    counts = (3, 4) if r.game == "riichi" else (3, 4, 5)
    if not r.player_counts or any(n not in counts for n in r.player_counts):
        raise fail("rules.player_counts", "ruleset.player_counts", counts=counts, game=r.game)
    _whole(r, "players", 3)
    if r.players not in r.player_counts:
        raise fail("rules.players", "ruleset.players", players=r.players)

    _whole(r, "start", 1)
    _whole(r, "return_points", 1)
    if r.return_points < r.start:
        raise fail("rules.return_points", "ruleset.return_points")
    _whole(r, "point_value", 1)
    _one_of(r, "rounding", Rounding)
    if r.rounding_earlier is not None:
        _one_of(r, "rounding_earlier", Rounding)
    _one_of(r, "tie", Tie)
    _one_of(r, "leftover_deposits", LeftoverDeposits)
    _one_of(r, "leftover_deposits_tie", LeftoverDepositsTie)
    for n, table in r.uma.items():
        if n not in r.player_counts:
            raise fail("rules.uma_size", f"ruleset.uma.{n}")
        check_uma_table(table, n, f"ruleset.uma.{n}")
    if r.uma_floating is not None:
        if len(r.player_counts) != 1:
            raise fail("rules.uma_floating", "ruleset.uma_floating")
        for floaters, table in r.uma_floating.items():
            if not 0 <= floaters <= r.players:
                raise fail("rules.floaters", f"ruleset.uma_floating.{floaters}", players=r.players)
            check_uma_table(table, r.players, f"ruleset.uma_floating.{floaters}")

    # Every payment is a multiple of 100 (SCORE_STEP) but a tsumo's honba share, which may be
    # a multiple of 50 (`score_step`): points show exactly to 0.1, or to 0.01 where that needs.
    _whole(r, "unit", SCORE_STEP)
    if r.unit % SCORE_STEP:
        raise fail("value.step", "ruleset.unit", step=SCORE_STEP)
    for name in ("honba", "riichi_stick", "penalty", "noten_total", "chombo_amount"):
        _whole(r, name, 0)
        if getattr(r, name) % SCORE_STEP:
            raise fail("value.step", f"ruleset.{name}", step=SCORE_STEP)
    _whole(r, "riichi_min_score", None, optional=True)
    for n in r.player_counts:
        # Each tsumo payer pays honba / (n − 1): a whole number of fifties (150 of a 3-player
        # 300), so a score moves in 50s at the finest. At 4 players that is a multiple of 300.
        payers = n - 1
        if r.honba % payers or (r.honba // payers) % HALF_STEP:
            multiple = math.lcm(SCORE_STEP, payers * HALF_STEP)
            raise fail("rules.honba_split", "ruleset.honba", payers=payers, multiple=multiple)
        for k in range(1, n):
            if r.noten_total % (k * SCORE_STEP):
                raise fail("rules.noten_split", "ruleset.noten_total", players=k, step=SCORE_STEP)
        # Each noten player pays each tenpai player noten_total / (noten × tenpai).
        split = math.lcm(*(k * (n - k) for k in range(1, n)))
        if r.noten_total % split:
            raise fail("rules.noten_even", "ruleset.noten_total", split=split)

    hans = [h for h, _ in r.limits]
    values = [b for _, b in r.limits]
    if hans != sorted(set(hans)) or values != sorted(set(values)) or hans[0] < 1:
        raise fail("rules.limits_rise", "ruleset.limits")
    _whole(r, "kazoe_han", 1, optional=True)
    _one_of(r, "sanma_tsumo", SanmaTsumo)
    if r.kazoe_han is not None and r.kazoe_han <= hans[-1]:
        raise fail("rules.kazoe", "ruleset.kazoe_han")
    _whole(r, "mangan_han", 1)
    if r.payment_table is None:
        if r.payment_table_yakuman is not None:
            raise fail("rules.table_yakuman_alone", "ruleset.payment_table_yakuman")
        if r.mangan_han != hans[0]:
            raise fail("rules.mangan_limit", "ruleset.mangan_han")
    else:
        rows = r.payment_table
        if not rows or rows[0].han != 1 or [x.han for x in rows] != sorted({x.han for x in rows}):
            raise fail("rules.table_rows", "ruleset.payment_table")
        if r.payment_table_yakuman is None:
            raise fail("rules.table_yakuman", "ruleset.payment_table_yakuman")
        if r.fu:
            raise fail("rules.table_fu", "ruleset.fu")
        if not any(x.han == r.mangan_han for x in rows):
            raise fail("rules.mangan_row", "ruleset.mangan_han")

    _whole(r, "max_ron_winners", 1)
    if r.max_ron_winners > min(r.player_counts) - 1:
        raise fail("rules.max_ron", "ruleset.max_ron_winners")
    _whole(r, "yakuman_max", 1, optional=True)
    # 三家和 (three rons on one discard end the hand as an abortive draw) is the venue's
    # choice only where two winners are allowed: atamahane has one, a triple ron pays three.
    if "sanchahou" in r.aborts and r.max_ron_winners != 2:
        raise fail("rules.sanchahou", "ruleset.aborts.sanchahou", winners=r.max_ron_winners)
    _one_of(r, "multiple_ron_honba", MultipleRonHonba)
    _one_of(r, "multiple_ron_sticks", MultipleRonSticks)
    _one_of(r, "nagashi", NagashiRule)
    _one_of(r, "nagashi_multiple", NagashiMultiple)
    _one_of(r, "nagashi_deposits", NagashiDeposits)
    _one_of(r, "nagashi_flow", NagashiFlow)
    for reason, rule in r.aborts.items():
        if reason not in ABORT_REASONS:
            raise fail(
                "rules.abort_unknown", f"ruleset.aborts.{reason}", known=", ".join(ABORT_REASONS)
            )
        if rule not in ABORT_RULES:
            raise fail("rules.abort_rule", f"ruleset.aborts.{reason}")
    _one_of(r, "chombo", ChomboRule)
    if r.chombo == "fixed" and r.chombo_amount <= 0:
        raise fail("rules.chombo_amount", "ruleset.chombo_amount")
    if not is_number(r.chombo_points) or r.chombo_points < 0:
        raise fail("value.nonneg", "ruleset.chombo_points")
    _one_of(r, "pao_ron_honba", PaoRonHonba)

    _whole(r, "winds", 1)
    _whole(r, "extension_winds", 1)
    if r.winds + (r.extension_winds if r.extension_below is not None else 0) > len(WINDS):
        raise fail("rules.winds", "ruleset.extension_winds")
    for wind, rule in r.renchan_on_draw.items():
        if wind not in WINDS:
            raise fail("rules.renchan_wind", f"ruleset.renchan_on_draw.{wind}")
        if rule not in RENCHAN_RULES:
            raise fail("rules.renchan_rule", f"ruleset.renchan_on_draw.{wind}")
    _one_of(r, "agari_yame", AgariYame)
    _whole(r, "extension_below", 1, optional=True)
    _one_of(r, "bust", Bust)
    _one_of(r, "bust_attribution", BustAttribution)
    for name in ("bust_prize", "yakuman_chips_tsumo", "yakuman_chips_ron"):
        value = getattr(r, name)
        if not is_number(value) or value < 0:
            raise fail("value.nonneg", f"ruleset.{name}")
    if not is_number(r.bust_prize_share_unit) or r.bust_prize_share_unit <= 0:
        raise fail("value.positive", "ruleset.bust_prize_share_unit")

    if r.game == "emperor":
        _whole(r, "hands_per_game", 1)
        for name in ("emperor_virtuous", "emperor_min_yaku"):
            missing = [n for n in r.player_counts if n not in getattr(r, name)]
            if missing:
                raise fail("rules.emperor_missing", f"ruleset.{name}", players=missing[0])
        # n(n±1) is even, so yaku points stay on 100s when the factor is a multiple of 50.
        for name, step in (
            ("emperor_yaku_points", SCORE_STEP // 2),
            ("emperor_bonus_points", SCORE_STEP),
            ("emperor_virtue_points", SCORE_STEP),
        ):
            _whole(r, name, 0)
            if getattr(r, name) % step:
                raise fail("value.step", f"ruleset.{name}", step=step)
    elif r.hands_per_game is not None:
        raise fail("rules.hands_per_game", "ruleset.hands_per_game")
