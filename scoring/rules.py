"""A ruleset is data: one frozen dataclass of knobs. Presets are instances (see presets.py).

Overriding knobs gives a new ruleset (`ruleset.replace(uma={4: [20, 10, -10, -20]})`, or
`{"preset": "baba", "uma": [20, 10, -10, -20]}` from JSON). Every ruleset is validated when it
is made (rules_check.py), so an impossible one never reaches the engine.

Units: score points (点) everywhere, except where a knob says "points" — the unit of results
(1 point = `point_value` score points: 1000 for riichi, 100 for the Emperor card game).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from scoring.knobs import (
    HALF_STEP,
    SCORE_STEP,
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
    to_json,
)
from scoring.messages import fail
from scoring.rules_check import normalise, validate


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
        normalise(self)
        validate(self)

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
