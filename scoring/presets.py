"""The five seed venues, and the standard rulesets clubs and online events play, as rulesets.
RULES.md §4 is the specification of each seed venue's knobs; docs/rulesets.md cites a source for
every knob of the standard ones (and says where a source leaves room and what was chosen)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.errors import ScoringError
from scoring.knobs import ABORT_REASONS, PaymentRow
from scoring.messages import fail
from scoring.rules import KNOBS, Ruleset

BABA = Ruleset(
    slug="baba",
    name="馬場11時大会",
    names={"en": "Baba 11 o'clock tournament"},
    uma={4: (10, 5, -5, -10)},
    kiriage=False,  # 3.1(5): 30fu4han is 7700 / 11600
    max_ron_winners=1,  # 3.3(1) 頭ハネ; 三家和 too (7.1(5))
    nagashi="mangan",
    nagashi_multiple="first",  # 3.3(2): nearest the dealer, dealer first
    # 7.1(2)–(4): these are draws; 7.2(3)(4): honba + 1 and the deal passes. 四家立直 continues.
    aborts={"kyuushu": "pass", "suufon": "pass", "suukaikan": "pass"},
    renchan_on_draw="never",  # 7.2(4): the dealer passes after every draw, tenpai or not
    agari_yame="never",  # 6(1)
    bust="below_zero",  # 9(1)
    bust_attribution="receivers",
    bust_prize=10.0,  # 9(2): 10000 per busted player, shared by who busted them
    bust_prize_share_unit=0.1,  # three busters: 3300 each
    pao_ron_honba="split",  # 3.5(5): pao and discarder each pay the honba (200 per honba)
)

JAN_NIKI = Ruleset(
    slug="jan-niki",
    name="JAN-NIKI.com",
    uma={4: (30, 10, -10, -30)},  # ウマは10-30
    rounding="gosha_rokunyu",  # 100点は五捨六入; the top takes the rest
    kiriage=True,  # 30符4飜・60符3飜は満貫扱い
    # ダブル役満(八倍満): 大四喜, 四暗刻単騎待ち, 国士無双十三面待ち, 純正九連宝燈
    double_yakuman=("daisuushii", "suuankou_tanki", "kokushi_13", "junsei_chuuren"),
    max_ron_winners=3,  # ダブロン, 三家和も和了
    multiple_ron_honba="each",  # honba is part of each 和了点
    nagashi="mangan",
    aborts={"kyuushu": "repeat", "suukaikan": "repeat", "suufon": "pass"},
    renchan_on_draw="tenpai",
    extension_below=30000,  # all four below 30000 after South 4: West 1–4
    extension_winds=1,
    bust="below_zero",
    bust_attribution="sequential",  # the winner whose payment took them below 0
    bust_prize=10.0,
    bust_prize_share_unit=1.0,
    yakuman_chips_tsumo=10.0,
    yakuman_chips_ron=30.0,
    pao_ron_honba="discarder",
)

HYPER = Ruleset(
    slug="hyper",
    name="麻雀 in ハイパーモード",
    names={"en": "Mahjong in Hyper Mode"},
    start=30000,
    return_points=30000,
    uma={},
    uma_floating={1: (36, -9, -12, -15), 2: (12, 6, -6, -12), 3: (4, 3, 2, -9)},
    kiriage=False,  # 35: 30符六飜 (両ゾロ込み) is 7700 / 11600
    # 37 in net han: 6 haneman, 8 baiman, 10 跳倍満 (2.5 mangan), 11 sanbaiman, 13 kazoe.
    limits=((5, 2000), (6, 3000), (8, 4000), (10, 5000), (11, 6000)),
    kazoe_han=13,
    yakuman_half_steps=True,  # the seed's 6倍満 is k = 1.5
    riichi_min_score=None,  # 38: 箱割れ立直も可能
    max_ron_winners=2,  # 23: at most two winners; a third makes 三家和
    multiple_ron_honba="nearest",
    nagashi="mangan",
    aborts=dict.fromkeys(("kyuushu", "sanchahou", "suukaikan", "suufon", "suucha"), "pass"),
    renchan_on_draw="tenpai",
    agari_yame="always",  # 29: ラス親のアガリ止めあり
    bust="below_zero",
    pao_ron_honba="discarder",
)

FREE_SANMA = Ruleset(
    slug="free-sanma",
    name="フリー卓 (サンマ)",
    names={"en": "Free table (3-player)"},
    players=3,
    player_counts=(3,),
    start=35000,
    return_points=40000,
    uma={3: (0, 0, 0)},  # not in the seed: the venue sets it
    unit=1000,
    honba=1000,  # ron: 1000 from the discarder; tsumo: 500 from each payer
    penalty=0,
    noten_total=2000,
    fu=False,  # 符計算はなしで30符
    limits=((4, 2000), (6, 3000), (8, 4000), (11, 6000)),
    kazoe_han=14,
    mangan_han=4,
    payment_table=(
        PaymentRow(1, 1000, 1000, 1000, 2000, 1000),
        PaymentRow(2, 2000, 1000, 1000, 3000, 2000),
        PaymentRow(3, 4000, 1000, 3000, 6000, 3000),
        PaymentRow(4, 8000, 3000, 5000, 12000, 6000),
        PaymentRow(6, 12000, 4000, 8000, 18000, 9000),
        PaymentRow(8, 16000, 6000, 10000, 24000, 12000),
        PaymentRow(11, 24000, 8000, 16000, 36000, 18000),
    ),
    payment_table_yakuman=PaymentRow(0, 32000, 12000, 20000, 48000, 24000),
    max_ron_winners=2,  # ダブロンあり
    multiple_ron_honba="nearest",  # リーチ棒、積み棒は頭ハネ
    nagashi="yakuman",  # 流し and 流しタンヤオ are yakuman
    aborts={"suukaikan": "draw"},  # East: the deal passes; South: the dealer repeats
    renchan_on_draw={"E": "never", "S": "always", "W": "always", "N": "always"},
    agari_yame="if_top",
    extension_below=40000,  # West when the top is below 40000 after South 3
    extension_winds=1,
    extension_sudden_death=True,  # the West round ends once someone reaches 40000
    bust="zero_or_below",  # 持ち点0点でゲーム終了
    bust_attribution="sequential",
    prizes_in_chips=True,
    bust_prize=0.0,  # amounts are the venue's to set
    bust_prize_share_unit=1.0,
    chips_follow_pao=True,
    pao_ron_honba="discarder",
)

EMPEROR = Ruleset(
    slug="emperor",
    name="皇帝 (カードゲーム)",
    names={"en": "Emperor (card game)"},
    game="emperor",
    players=4,
    player_counts=(3, 4, 5),
    start=25000,
    return_points=30000,
    point_value=100,  # 1 point = 100 score points
    uma={},  # the seed's table is lost: the venue sets it
    honba=0,
    riichi_stick=0,
    riichi_min_score=None,
    penalty=0,
    noten_total=3600,
    max_ron_winners=1,  # 同時にロン: only the nearest to the discarder
    nagashi=None,
    chombo="fixed",
    chombo_amount=5000,
    bust="never",
    hands_per_game=15,
    emperor_virtuous={3: 4, 4: 3, 5: 2},
    emperor_min_yaku={3: 5, 4: 4, 5: 3},
)

# --- standard rulesets (docs/rulesets.md) -----------------------------------------------------

TENHOU = Ruleset(
    slug="tenhou",
    name="天鳳 四人打ち東南戦",
    names={"en": "Tenhou 4-player East-South"},
    uma={4: (20, 10, -10, -20)},  # 10-20 uma; 25000 start, 30000 return: oka 20 to the top
    # Results to 0.1, as Tenhou prints them today (real logs from June 2022 on). Until 2020–22 it
    # printed each non-top result to the thousand, half up, the top taking the rest (logs up to
    # August 2020): a log printed so is checked and kept so (docs/rulesets.md, `rounding`).
    rounding="exact",
    rounding_earlier="half_up",
    kiriage=False,
    max_ron_winners=2,  # double ron; a third ron is 三家和, an abortive draw
    multiple_ron_honba="nearest",  # honba and sticks to the winner nearest the discarder
    nagashi="mangan",
    nagashi_multiple="all",
    nagashi_deposits="table",  # the sticks stay for the next win (seen in a real log)
    nagashi_honba=False,  # it replaces the tenpai payments, which carry no honba
    nagashi_flow="draw",  # the dealer keeps by being tenpai; honba + 1 (seen in a real log)
    aborts=dict.fromkeys(ABORT_REASONS, "repeat"),  # every abortive draw: renchan, honba + 1
    renchan_on_draw="tenpai",
    agari_yame="auto",  # the last dealer, first (≥ 30000) after a win or tenpai: the game ends
    extension_below=30000,  # nobody at 30000 after South 4: West, sudden death
    extension_winds=1,
    extension_sudden_death=True,
    bust="below_zero",  # exactly 0 plays on
    pao_ron_honba="pao",  # a pao ron: the pao seat pays half and the honba
)

# Mahjong Soul counts four yakuman double, where Tenhou counts each one (docs/rulesets.md, MS5):
# its own yaku table (`yiman: 2` for 純正九蓮宝燈, 四暗刻単騎, 国士無双十三面待ち, 大四喜 — the
# game's data as tensoul ships it) and a real game that paid a 13-sided kokushi 64000.
MAHJONGSOUL_DOUBLE_YAKUMAN = ("kokushi_13", "suuankou_tanki", "junsei_chuuren", "daisuushii")

MAHJONGSOUL = TENHOU.replace(
    slug="mahjongsoul",
    name="雀魂 四人東南戦",
    names={"en": "Mahjong Soul 4-player East-South"},
    uma={4: (15, 5, -5, -15)},  # the tournament lobby's default uma (chosen: docs/rulesets.md)
    rounding="exact",  # results to 0.1, as the game shows them
    rounding_earlier=None,  # no other rounding in its years
    # No oka: a result is (final − 25,000) / 1,000 + uma — the room's 精算原点 is 25,000, while
    # 30,000 stays the target for West and agari-yame (extension_below). Issue 30, S1.
    return_points=25000,
    # Three rons on one discard are a triple ron, not 三家和 (S1: "Multiple rons: Available",
    # "Three-player Ron (Sanchahou): No"); honba and sticks to the winner nearest the discarder.
    max_ron_winners=3,
    aborts={k: v for k, v in TENHOU.aborts.items() if k != "sanchahou"},
    double_yakuman=MAHJONGSOUL_DOUBLE_YAKUMAN,
)

# Three players (docs/rulesets.md, "Sanma"): Tenhou's 3-player room in every knob the real
# 3-player logs show. A tsumo is paid as in 4-player with the North seat missing (ツモ損: the
# engine's tsumo with n = 3); north tiles (北抜き) are dora, counted in the entered han.
TENHOU_SANMA = TENHOU.replace(
    slug="tenhou-sanma",
    name="天鳳 三人打ち東南戦",
    names={"en": "Tenhou 3-player East-South"},
    players=3,
    player_counts=(3,),
    start=35000,
    return_points=40000,  # oka 15 (5000 × 3) to the top
    uma={3: (20, 0, -20)},
    # Rounding as `tenhou`: to 0.1 today (logs of 2024), whole points, half up, in its logs up to
    # 2018 — those are checked and kept with `rounding_earlier`.
    honba=200,  # per honba: 200 on a ron, 100 from each of the two payers on a tsumo
    noten_total=2000,  # one tenpai: 1000 from each; two: 1000 each from the noten seat
    # No North seat: no 四風連打, no 四家立直, and two rons are every other seat (no 三家和).
    aborts={"kyuushu": "repeat", "suukaikan": "repeat"},
    extension_below=40000,  # nobody at 40000 after the last hand: one more wind, sudden death
)

MAHJONGSOUL_SANMA = TENHOU_SANMA.replace(
    slug="mahjongsoul-sanma",
    name="雀魂 三人東南戦",
    names={"en": "Mahjong Soul 3-player East-South"},
    # No oka: the settlement base is the start (35000点返し), 40000 stays the target for the
    # extra wind and agari-yame; uma 15-0-15 (chosen: docs/rulesets.md).
    return_points=35000,
    uma={3: (15, 0, -15)},
    double_yakuman=MAHJONGSOUL_DOUBLE_YAKUMAN,  # as the 4-player room (the same yaku table)
    rounding_earlier=None,  # Mahjong Soul has shown results to 0.1 throughout
)

EMA = Ruleset(
    slug="ema",
    name="EMA Riichi Competition Rules (2016)",
    names={"ja": "EMA リーチ麻雀競技ルール (2016)"},
    start=30000,
    return_points=30000,  # no oka
    uma={4: (15, 5, -5, -15)},
    tie="split",  # tied players share the uma of their places (E1 §3.6.1)
    # E1 §3.6: "Any riichi bets remaining on the table are collected by the winner; the points
    # are split in case of a tie" — the tied first places stay tied and share their uma.
    leftover_deposits_tie="split_down",
    kiriage=False,
    kazoe_han=None,  # 13 han and more is a sanbaiman
    # E1 sets no floor for a riichi: "The game continues if a player's score goes below zero;
    # the player borrows score sticks" (§4.1), and a riichi is a 1,000-point stick (§3.3.14).
    riichi_min_score=None,
    # No 罰符 into the deposits: point penalties come off the result after uma and "are not
    # added to the other players' scores" (E1 §5.5, §5.7) — event penalties here.
    penalty=0,
    # E3 (the EMA's own announcement of the 2016 rules): "Dai suushii (Big Four Winds) is a
    # yakuman, not a double yakuman", after the "previous removal of accumulative and double
    # yakuman": one yakuman a hand at most.
    yakuman_max=1,
    max_ron_winners=3,  # double and triple ron, each paid by the discarder
    multiple_ron_honba="each",  # the discarder pays the counters to each winner
    # E1 §4.1: "the riichi bets from players who declared riichi without winning go to the
    # winner closest to the discarder's right. Riichi declarers that win, always get their
    # riichi bet back" (the 2012 text gave them all to the nearest).
    multiple_ron_sticks="own",
    nagashi=None,  # E3: "Nagashi Mangan is not allowed" (2008–2012 paid it)
    aborts={},  # no abortive draws
    renchan_on_draw="tenpai",
    agari_yame="never",
    chombo="result_penalty",  # −20 points off the final result; no score payment; redeal
    chombo_points=20.0,
    bust="never",  # play on below zero
    pao_ron_honba="discarder",  # "only the discarder pays for any counters"
)

WRC = EMA.replace(
    slug="wrc",
    name="World Riichi Championship Rules (2015)",
    names={"ja": "世界リーチ麻雀選手権ルール (2015)"},
    riichi_min_score=None,  # a riichi may take a player below zero (negative scores are played)
    nagashi=None,  # no nagashi mangan
    # WRC Rules 2015 §5.7.6: "only the player closer to the discarder, according to the turn
    # order, will win … Each hand can have only one winner."
    max_ron_winners=1,
    multiple_ron_honba="nearest",
    multiple_ron_sticks="nearest",
    yakuman_max=1,  # W1: "Every yakuman is counted as single yakuman"
    # E3, the EMA's differences to the WRC 2015 rules: "4-30 is not rounded to mangan payment"
    # (in EMA; so it is in WRC: kiriage) and "Riichi bets at game end go to the winner" (in
    # EMA; in WRC they do not — chosen: lost, docs/rulesets.md).
    kiriage=True,
    leftover_deposits="lost",
)

# The WRC rules as the committee revised them for WRC 2022 (its "WRC 2022 Major Rule Changes
# Summary", 29 March 2022, as W4 and W5 report it; the summary itself could not be read here):
WRC2022 = WRC.replace(
    slug="wrc2022",
    name="World Riichi Championship Rules (2022)",
    names={"ja": "世界リーチ麻雀選手権ルール (2022)"},
    # "Multiple different yakuman can be stacked to count as double or triple yakuman" (W5); a
    # single yakuman that some count double (kokushi on 13 waits) still counts one — the table
    # enters the count, the engine cannot tell one yaku from another.
    yakuman_max=None,
    chombo_points=30.0,  # "een chombo kost je nu 30 000 ptn" (W4)
)

# The EMA's "Rules for Japanese Mahjong, 2025 edition" (EMA Riichi Rule Committee, August 2025;
# docs/rulesets.md, `ema2025`, cites a section for every knob). Every knob from its own text; it
# differs from the 2016 edition only in kiriage.
EMA2025 = Ruleset(
    slug="ema2025",
    name="EMA Riichi Competition Rules (2025)",
    names={"en": "EMA Riichi Competition Rules (2025)", "ja": "EMA リーチ麻雀競技ルール (2025)"},
    start=30000,  # §1.4 "Players begin with 30,000 points"
    return_points=30000,  # §3.7 "subtract 30,000 points": no oka
    uma={4: (15, 5, -5, -15)},  # §3.7.1
    tie="split",  # §3.7.1 "the points for the relevant places are added together and evenly split"
    # §3.7 "Any riichi bets remaining on the table are collected by the winner; the points are
    # split in case of a tie (any decimals are rounded down)".
    leftover_deposits_tie="split_down",
    kiriage=True,  # §4.1.3 "4 han and 30 or more fu, and 3 han and 60 or more fu, are worth mangan"
    kazoe_han=None,  # §4.1.2: "11 or more" han is a sanbaiman, whatever the count
    # §4.1.4: below zero "the play continues without any changes", the player borrows sticks.
    riichi_min_score=None,
    penalty=0,  # §6.1.4: point penalties come off the result after uma, never into the deposits
    yakuman_max=1,  # §4.2 "Yakuman are not cumulative"
    max_ron_winners=3,  # §3.3.1 "Several players may declare a win on the same discard"
    multiple_ron_honba="each",  # §3.4.4 "the discarder pays 300 for each counter to every winner"
    # §3.3.10: winners in riichi take back their own bets; the rest go to "the winner first in turn
    # order after the discarder".
    multiple_ron_sticks="own",
    nagashi=None,  # §3.4: a hand ends by an exhaustive draw or a win; no nagashi
    aborts={},  # §3.4: no abortive draws; §3.3.5: play continues after a fourth quad
    renchan_on_draw="tenpai",  # §3.4.5 "East remains East if they … are tenpai"
    agari_yame="never",  # §3.5: the game ends only when South ends; East never stops it
    # §3.4.6: in a tournament a chombo is 20,000 off the result after uma; the hand is re-dealt.
    # A chombo after the time signal "is treated as one of the remaining hands" (§7.4): the
    # table marks the last hand `time_up`, and the game ends after it, a chombo included.
    chombo="result_penalty",
    chombo_points=20.0,
    bust="never",  # §3.7 "There is no bankruptcy rule"
    pao_ron_honba="discarder",  # §3.3.7 "only the discarder pays for any counters"
)

MLEAGUE = Ruleset(
    slug="mleague",
    name="Mリーグ",
    names={"en": "M.League"},
    uma={4: (30, 10, -10, -30)},  # with oka 20: +50 / +10 / −10 / −30
    tie="split",  # tied players share the rank points evenly
    # 7700 is rounded up to mangan (M3 「7700は切り上げ」, M5) — chosen where the official text
    # could not be read; docs/rulesets.md names the sources.
    kiriage=True,
    kazoe_han=None,  # 13 han is a sanbaiman: 「数え役満にはならず三倍満打ち止め」 (M4, M5)
    riichi_min_score=None,  # no bust: riichi below 1000 is allowed
    max_ron_winners=1,  # atamahane
    nagashi="mangan",
    aborts={},  # no abortive draws: play continues
    renchan_on_draw="tenpai",
    agari_yame="never",
    # 20 points (20,000) off the offender's result, not a mangan payment: the 競技要項's
    # penalties as M3 quotes them (「チョンボが20000点相当の罰符」); chosen over M1's 満貫払い.
    chombo="result_penalty",
    chombo_points=20.0,
    bust="never",
    pao_ron_honba="pao",  # 「積み場は鳴かせた者が負担する」: the pao seat pays the honba
)

PRESETS: dict[str, Ruleset] = {
    r.slug: r
    for r in (
        *(BABA, JAN_NIKI, HYPER, FREE_SANMA, EMPEROR),
        *(TENHOU, MAHJONGSOUL, TENHOU_SANMA, MAHJONGSOUL_SANMA),
        *(EMA, EMA2025, WRC, WRC2022, MLEAGUE),
    )
}


# --- from JSON --------------------------------------------------------------------------------


def ruleset_from_json(spec: Any, path: str = "ruleset") -> Ruleset:
    """A preset slug, or `{"preset": slug, knob: value, …}`; overrides are validated."""
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise fail("rules.preset_unknown", path, value=spec, known=", ".join(PRESETS))
        return PRESETS[spec]
    if not isinstance(spec, Mapping):
        raise fail("rules.spec", path)
    preset = spec.get("preset")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise fail("rules.preset", f"{path}.preset", known=", ".join(PRESETS))
    knobs = {k: v for k, v in spec.items() if k != "preset"}
    for key in knobs:
        if key not in KNOBS:
            raise fail("rules.knob", f"{path}.{key}")
    try:
        return PRESETS[preset].replace(**knobs)
    except ScoringError as exc:
        if exc.field.startswith("ruleset"):
            field = path + exc.field[len("ruleset") :]
            raise ScoringError(field, exc.message, code=exc.code, params=exc.params) from None
        raise
    except TypeError as exc:  # a value of the wrong shape deep in a knob
        raise fail("rules.shape", path, reason=str(exc)) from None
