"""A ruleset made possible: the values a caller gave (lists and dicts, from JSON or by hand)
normalised into frozen data, then every knob checked, each refusal naming its knob
(`ruleset.<knob>`). `Ruleset.__post_init__` runs both, so an impossible ruleset never reaches
the engine (rules.py: the knobs themselves)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, get_args

from scoring.knobs import (
    ABORT_REASONS,
    ABORT_RULES,
    DOUBLE_YAKUMAN,
    HALF_STEP,
    RENCHAN_RULES,
    SCORE_STEP,
    WINDS,
    AgariYame,
    Bust,
    BustAttribution,
    ChomboRule,
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
)
from scoring.messages import fail
from scoring.parse import is_int

if TYPE_CHECKING:
    from scoring.rules import Ruleset


# --- normalising JSON-ish values into frozen data ---------------------------------------------


def normalise(rules: Ruleset) -> None:
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


def validate(r: Ruleset) -> None:
    """Every knob checked (and the knobs against each other): a refusal names its knob."""
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
