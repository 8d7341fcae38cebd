"""docs/rulesets.md cites a source for every knob of every standard preset (issue 30): the page
names every knob of `Ruleset`, and each knob a standard preset sets — against the engine's
defaults, or against the preset it is built from — in that preset's own section, whose table
row carries the source."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from scoring.presets import PRESETS
from scoring.rules import Ruleset

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rulesets.md").read_text(encoding="utf-8")
KNOBS = [f.name for f in fields(Ruleset) if f.name not in ("slug", "name", "names")]
# A standard preset and the preset it is built from (None: the engine's defaults).
STANDARD = {
    "tenhou": None,
    "mahjongsoul": "tenhou",
    "tenhou-sanma": "tenhou",
    "mahjongsoul-sanma": "tenhou-sanma",
    "ema": None,
    "ema2025": None,  # built from its own text (E25), every knob cited
    "wrc": "ema",
    "wrc2022": "wrc",
    "mleague": None,
}


def named(knob: str, text: str) -> bool:
    # `knob`, or `knob: value` as the tables write a value beside its knob
    return re.search(rf"`{re.escape(knob)}[`:]", text) is not None


def section(slug: str) -> str:
    start = DOC.index(f"## `{slug}`")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end != -1 else None]


SEED_VENUES = {"baba", "jan-niki", "hyper", "free-sanma", "emperor"}  # RULES.md §4


def test_every_standard_preset_has_a_section():
    assert set(STANDARD) == set(PRESETS) - SEED_VENUES
    for slug in STANDARD:
        assert section(slug)


def test_the_page_names_every_knob():
    assert [k for k in KNOBS if not named(k, DOC)] == []


@pytest.mark.parametrize("slug", STANDARD)
def test_each_knob_a_preset_sets_is_in_its_own_section(slug):
    rules = PRESETS[slug]
    parent = STANDARD[slug]
    base = PRESETS[parent] if parent else Ruleset(slug="default", name="default")
    changed = [k for k in KNOBS if getattr(rules, k) != getattr(base, k)]
    assert changed  # a preset that sets nothing would need no section
    rows = [line for line in section(slug).splitlines() if line.startswith("| ")]
    assert [k for k in changed if not any(named(k, row) for row in rows)] == []
