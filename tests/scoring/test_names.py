"""A name's one spelling (scoring/names.py), issue 29: names that look the same are the same
name — format characters (zero-width, the byte-order mark, bidi controls) are removed, and a
name with nothing visible left is refused."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.names import normalize_name


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("PA1\u200b", "PA1"),  # zero-width space
        ("\ufeffPA2", "PA2"),  # a byte-order mark from a spreadsheet's paste
        ("P\u200dA\u200c3", "PA3"),  # zero-width joiner and non-joiner
        ("\u202eevil\u202c", "evil"),  # right-to-left override, and its end
        ("\u2066鈴木\u2069", "鈴木"),  # bidi isolates
        ("ｖｉｃｔｉｍ1", "victim1"),  # NFKC, as before
        ("  佐藤\u00ad  花子 ", "佐藤 花子"),  # a soft hyphen, spaces collapsed
    ],
)
def test_format_characters_are_removed(typed, name):
    assert normalize_name(typed) == name


@pytest.mark.parametrize("typed", ["\u200b", "\ufeff", "\u202e", "\u200b \u200d\t"])
def test_a_name_of_only_invisible_characters_is_refused(typed):
    with pytest.raises(ScoringError) as refused:
        normalize_name(typed, "players[2]")
    assert refused.value.field == "players[2]" and refused.value.code == "name.invisible"


def test_two_names_that_look_the_same_are_one():
    assert normalize_name("PA1") == normalize_name("PA1\u200b") == normalize_name("\ufeffPA1")
