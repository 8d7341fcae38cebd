"""Rulesets: presets are data, overrides make new rulesets, impossible ones are refused."""

from __future__ import annotations

import re

import pytest

from scoring.errors import ScoringError
from scoring.presets import BABA, PRESETS, ruleset_from_json


def test_the_seed_venues_and_the_standard_rulesets_are_presets():
    assert list(PRESETS) == [
        *("baba", "jan-niki", "hyper", "free-sanma", "emperor"),
        *("tenhou", "mahjongsoul", "tenhou-sanma", "mahjongsoul-sanma"),
        *("ema", "ema2025", "wrc", "wrc2022", "mleague"),
    ]


@pytest.mark.parametrize("slug", list(PRESETS))
def test_a_ruleset_round_trips_through_json(slug):
    rules = PRESETS[slug]
    assert ruleset_from_json({"preset": slug, **rules.to_json()}) == rules


def test_overriding_a_knob_gives_a_new_ruleset_and_leaves_the_preset_alone():
    venue = BABA.replace(uma={4: (20, 10, -10, -20)}, slug="my-club")
    assert venue.uma[4] == (20, 10, -10, -20) and venue.slug == "my-club"
    assert BABA.uma[4] == (10, 5, -5, -10)
    assert ruleset_from_json({"preset": "baba", "uma": [20, 10, -10, -20]}).uma == venue.uma


def test_rulesets_are_frozen():
    with pytest.raises(AttributeError):
        BABA.start = 30000  # type: ignore[misc]
    with pytest.raises(TypeError):
        BABA.uma[4] = (0, 0, 0, 0)  # type: ignore[index]


@pytest.mark.parametrize(
    ("knobs", "field", "says"),
    [
        ({"umaa": [1]}, "ruleset.umaa", "unknown knob"),
        ({"players": 6, "player_counts": [6]}, "ruleset.player_counts", "one of"),
        ({"start": 0}, "ruleset.start", "at least 1"),
        ({"start": 35000}, "ruleset.return_points", "at least the start"),
        ({"uma": [10, 5, -15]}, "ruleset.uma.4", "needs 4 values"),
        ({"uma": [10, 5, -5, -5]}, "ruleset.uma.4", "sum to 0"),
        ({"limits": [[5, 2000], [6, 1500]]}, "ruleset.limits", "rise"),
        ({"kazoe_han": 10}, "ruleset.kazoe_han", "above the last limit"),
        ({"honba": 250}, "ruleset.honba", "multiple of 100"),
        ({"noten_total": 3100}, "ruleset.noten_total", "in 100s"),
        ({"noten_total": 1000}, "ruleset.noten_total", "split"),
        ({"unit": 50}, "ruleset.unit", "at least 100"),
        ({"max_ron_winners": 4}, "ruleset.max_ron_winners", "more winners"),
        ({"renchan_on_draw": {"E": "sometimes"}}, "ruleset.renchan_on_draw.E", "tenpai"),
        ({"aborts": {"ryuukyoku": "pass"}}, "ruleset.aborts.ryuukyoku", "unknown"),
        ({"agari_yame": "sometimes"}, "ruleset.agari_yame", "not one of"),
        ({"leftover_deposits_tie": "split"}, "ruleset.leftover_deposits_tie", "split_down"),
        ({"chombo": "fixed"}, "ruleset.chombo_amount", "above 0"),
        ({"hands_per_game": 15}, "ruleset.hands_per_game", "only the emperor"),
        ({"bust_prize": -1}, "ruleset.bust_prize", "≥ 0"),
        ({"kiriage": 1}, "ruleset.kiriage", "true or false"),
        ({"start": "25000"}, "ruleset.start", "whole number"),
        ({"extension_below": 30000, "extension_winds": 3}, "ruleset.extension_winds", "four winds"),
        ({"payment_table": [{"han": 1, "ron": 1000}]}, "ruleset.payment_table[0].tsumo", "from"),
    ],
)
def test_impossible_rulesets_are_refused_naming_the_knob(knobs, field, says):
    with pytest.raises(ScoringError) as err:
        ruleset_from_json({"preset": "baba", **knobs})
    assert err.value.field == field
    assert says in err.value.message


def test_an_emperor_venue_needs_values_for_every_table_size():
    with pytest.raises(ScoringError) as err:
        ruleset_from_json({"preset": "emperor", "emperor_min_yaku": {"4": 4}})
    assert err.value.field == "ruleset.emperor_min_yaku"


def test_a_fixed_payment_table_counts_no_fu():
    with pytest.raises(ScoringError, match="fu"):
        ruleset_from_json({"preset": "free-sanma", "fu": True})


@pytest.mark.parametrize("spec", ["m-league-2099", {"knob": 1}, 3])
def test_unknown_presets_are_refused(spec):
    with pytest.raises(ScoringError, match="preset"):
        ruleset_from_json(spec)


KANA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("slug", list(PRESETS))
def test_every_preset_reads_in_japanese_and_in_english(slug):
    """Issue 32: a preset's name is in the reader's language, not a mix of the two."""
    rules = PRESETS[slug]
    japanese, english = rules.name_in("ja"), rules.name_in("en-gb")
    assert KANA.search(japanese) or japanese.isascii()  # JAN-NIKI.com, a brand, reads as is
    assert english.isascii()
    assert "(" not in japanese or not re.search(r"\([A-Za-z .-]+\)", japanese)
    assert rules.name_in("fr") == rules.name


def test_names_must_be_words():
    with pytest.raises(ScoringError) as raised:
        BABA.replace(names={"en": 3})
    assert raised.value.field == "ruleset.names"
