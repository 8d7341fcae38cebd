"""Errors in the reader's language. The engine and the services raise a code with params
beside their English (scoring.messages, services/errors.py); here the same template is looked
up in the active language's translations and filled in, with seats named as the table sees
them ("北 鈴木", never "seat 3") and stages by their label (予選)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.utils.translation import get_language, gettext, gettext_lazy, ngettext, pgettext_lazy

from scoring.emperor import SPECIAL_NAMES
from scoring.errors import LogPart, ScoringError, Seat
from scoring.knobs import ABORT_NAMES
from scoring.ratings import MODEL, SCALE_ALPHA, SCALE_TARGET
from scoring.rules import Ruleset
from scoring.standings import StageResult
from tournament.numbers import format_points
from tournament.services.errors import ServiceError, StageName, Tables, template

# A seat's wind in the reader's words: 東 南 西 北 in Japanese, East South West North in English
# (issue 66: a European player does not read 西 as West). Where a player finds their seat by
# the table's own markers — wind plates printed in kanji — an English page shows the kanji
# beside the word (`wind_marked`: "West 西"). Seat 0 is East, the first dealer; a fifth seat
# (a table of five, one sitting out each hand) is its number.
SEAT_MARKERS = ("東", "南", "西", "北")
SEAT_WINDS = (
    pgettext_lazy("wind", "East"),
    pgettext_lazy("wind", "South"),
    pgettext_lazy("wind", "West"),
    pgettext_lazy("wind", "North"),
)
STAGE_LABELS = {
    "qualifier": gettext_lazy("Qualifier"),
    "final": gettext_lazy("Final"),
    "league": gettext_lazy("League"),
}


# The abortive draws by name in the reader's language (the engine's are the Japanese terms):
# an English table read 九種九牌 on its buttons (helper-52). The Japanese terms come back as the
# Japanese translations.
ABORT_LABELS = {
    "kyuushu": gettext_lazy("Nine terminals and honours"),
    "suufon": gettext_lazy("Four same winds"),
    "suukaikan": gettext_lazy("Four kans"),
    "suucha": gettext_lazy("Four riichi"),
    "sanchahou": gettext_lazy("Triple ron"),
}


def abort_label(reason: str) -> str:
    return str(ABORT_LABELS.get(reason, ABORT_NAMES.get(reason, reason)))


def stage_label(name: str) -> str:
    return str(STAGE_LABELS.get(name, name))


ORDINALS = {
    1: gettext_lazy("1st"),
    2: gettext_lazy("2nd"),
    3: gettext_lazy("3rd"),
    4: gettext_lazy("4th"),
    5: gettext_lazy("5th"),
}


def ordinal(place: int) -> str:
    """A place at a table (at most five players sit at one)."""
    return str(ORDINALS.get(place, place))


# A rank in a field of any size: 7th, 21st, 112th in English; Japanese says 7位 in every case.
RANK_SUFFIXES = {
    "st": pgettext_lazy("rank", "%(n)sst"),
    "nd": pgettext_lazy("rank", "%(n)snd"),
    "rd": pgettext_lazy("rank", "%(n)srd"),
    "th": pgettext_lazy("rank", "%(n)sth"),
}


def rank_text(rank: int) -> str:
    """A rank in the field as words: "7th" in English, 7位 in Japanese."""
    suffix = "th"
    if rank % 100 not in (11, 12, 13):
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return str(RANK_SUFFIXES[suffix]) % {"n": rank}


# The wind of a round, as a hand's label names it (the engine's `E1-0`: East 1, 0 honba).
ROUND_WINDS = {
    "E": pgettext_lazy("round wind", "E"),
    "S": pgettext_lazy("round wind", "S"),
    "W": pgettext_lazy("round wind", "W"),
    "N": pgettext_lazy("round wind", "N"),
}
_HAND_LABEL = re.compile(r"([ESWN])(\d+)-(\d+)")


def hand_label(label: str) -> str:
    """A hand's label in the reader's language: `E1-0` in English, 東1局 0本場 in Japanese.
    Labels in another shape (Emperor's 3局目・戦国時代, written in Japanese by its rules) are
    shown as they are."""
    found = _HAND_LABEL.fullmatch(label)
    if found is None:
        return label
    wind, hand, honba = found.groups()
    return gettext("%(wind)s%(hand)s-%(honba)s") % {
        "wind": ROUND_WINDS[wind],
        "hand": hand,
        "honba": honba,
    }


def rules_name(rules: Ruleset) -> str:
    """A ruleset's name in the reader's language (its `names`), else as its owners wrote it."""
    return rules.name_in(get_language() or "en")


def round_heading(number: int) -> str:
    """A round's column heading: R1 in English, 1回戦 in Japanese."""
    return gettext("R%(round)d") % {"round": number}


def wind_name(position: int) -> str:
    """A seat's wind in the reader's words (西, West); a fifth seat its number."""
    return str(SEAT_WINDS[position]) if 0 <= position < len(SEAT_WINDS) else str(position + 1)


def wind_marked(position: int) -> str:
    """A seat's wind as a player matches it to the table's markers: 西 in Japanese, "West 西"
    in English (the seating, a seat's slip, find your seat, the phone's seat picker)."""
    name = wind_name(position)
    if not 0 <= position < len(SEAT_MARKERS) or name == SEAT_MARKERS[position]:
        return name
    return f"{name} {SEAT_MARKERS[position]}"


def seat_marked(position: int, name: str = "") -> str:
    """A seat as its player finds it at the table: the wind as the markers show it, then the
    name (「西 佐藤」, "West 西 Sato"): the phone's "you are …"."""
    return f"{wind_marked(position)} {name}".strip()


def seat_label(position: int, name: str = "") -> str:
    """A seat as a sentence names it: its wind, then the name (「西 佐藤」, "West Sato")."""
    return f"{wind_name(position)} {name}".strip()


# An engine path a form has no field for, said by what the form calls it (`scores` → 点数,
# `hands[3]` → 4局目, `scores[2]` → 西 佐藤); a path not here is not said at all, never as its
# raw code ("scores: 合計が…" on a Japanese page).
FIELD_LABELS = {
    "scores": gettext_lazy("Score"),
    "seats": gettext_lazy("Seats"),
    "deposits": gettext_lazy("Deposits left on the table"),
    "busts": gettext_lazy("Busts"),
    "yakuman": gettext_lazy("Yakuman"),
    "result": gettext_lazy("Result"),
    "riichi": gettext_lazy("Riichi"),
    "penalties": gettext_lazy("Penalties"),
    "players": gettext_lazy("Players"),
}
_PATH_HEAD = re.compile(r"([a-z_]+)(?:\[(\d+)\])?")


def field_label(path: str, names: Sequence[str] = ()) -> str:
    """The words for the start of an engine path (its first key and index), or ""."""
    found = _PATH_HEAD.match(path)
    if found is None:
        return ""
    key, index = found.group(1), found.group(2)
    if index is not None and key == "hands":
        return gettext("hand %(n)d") % {"n": int(index) + 1}
    if index is not None and key in ("seats", "scores"):
        seat = int(index)
        return seat_label(seat, names[seat] if seat < len(names) else "")
    label = FIELD_LABELS.get(key)
    return str(label) if label is not None else ""


def labelled(label: str, text: str) -> str:
    """An error with the field it is about in front (「点数：合計が…」), or alone."""
    return gettext("%(field)s: %(error)s") % {"field": label, "error": text} if label else text


# What of a Tenhou log disagrees with the replay (scoring/tenhou/check.py), in the reader's words.
LOG_PARTS = {
    "label": pgettext_lazy("log part", "label"),
    "dealer": pgettext_lazy("log part", "dealer"),
    "honba": pgettext_lazy("log part", "honba"),
    "deposits": pgettext_lazy("log part", "deposits"),
    "scores": pgettext_lazy("log part", "scores"),
    "deltas": pgettext_lazy("log part", "deltas"),
    "points": pgettext_lazy("log part", "points"),
}


def _param(value: Any, names: Sequence[str]) -> Any:
    if isinstance(value, LogPart):
        return str(LOG_PARTS.get(value, value))
    if isinstance(value, Seat):
        seat = int(value)
        return seat_label(seat, names[seat] if 0 <= seat < len(names) else "")
    if isinstance(value, StageName):
        return stage_label(value)
    if isinstance(value, Tables):
        return gettext(", ").join(
            gettext("table %(table)d of round %(round)d") % {"table": t, "round": r}
            for r, t in value
        )
    if isinstance(value, ServiceError | ScoringError):
        text = error_text(value, names)
        return f"{value.field}: {text}" if value.field else text
    return value


def error_text(exc: ServiceError | ScoringError, names: Sequence[str] = ()) -> str:
    """The error's sentence in the active language. `names`: the table's players in seat
    order, so a seat reads "北 鈴木" (without them, its wind alone)."""
    if not exc.code:
        return exc.message
    params = {key: _param(value, names) for key, value in exc.params.items()}
    try:
        return gettext(template(exc.code)).format(**params)
    except (KeyError, IndexError, ValueError):  # a translation naming a param it lacks
        return template(exc.code).format(**params)


# --- one hand in words (the hand log, the change log) -------------------------------------


def _who(seat: Any, names: Sequence[str]) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def _list(seats: Any, names: Sequence[str]) -> str:
    return gettext(", ").join(_who(s, names) for s in seats or [])


def hand_value(win: dict[str, Any]) -> str:
    """What a win was worth as entered: "3 han 40 fu" / 3翻40符, yakuman, the card game's yaku."""
    yakuman = win.get("yakuman")
    if yakuman:
        if yakuman == 1:
            return gettext("yakuman")
        return gettext("%(n)s× yakuman") % {"n": f"{yakuman:g}"}
    if "yaku" in win or "special" in win:
        text = gettext("%(n)d yaku") % {"n": win.get("yaku") or 0}
        return f"{SPECIAL_NAMES[win['special']]} {text}" if win.get("special") else text
    han, fu = win.get("han"), win.get("fu")
    if fu:
        return gettext("%(han)s han %(fu)s fu") % {"han": han, "fu": fu}
    return gettext("%(han)s han") % {"han": han}


def _with_pao(text: str, win: dict[str, Any], names: Sequence[str]) -> str:
    if win.get("pao") is None:
        return text
    return gettext("%(win)s (pao: %(who)s)") % {"win": text, "who": _who(win["pao"], names)}


def hand_summary(data: dict[str, Any], names: Sequence[str]) -> str:
    """One hand as recorded, in the reader's language: "佐藤 ron from 鈴木, 3 han 40 fu"."""
    result = data.get("result") or {}
    kind = result.get("type")
    if kind == "ron":
        wins = result.get("wins") or [result]
        whom = _who(result.get("discarder"), names)
        if len(wins) == 1:
            win = wins[0]
            text = gettext("%(winner)s ron from %(discarder)s, %(value)s") % {
                "winner": _who(win.get("seat", win.get("winner")), names),
                "discarder": whom,
                "value": hand_value(win),
            }
            text = _with_pao(text, win, names)
        else:
            each = " / ".join(
                _with_pao(f"{_who(w.get('seat'), names)} {hand_value(w)}", w, names) for w in wins
            )
            text = gettext("Ron from %(discarder)s: %(wins)s") % {"discarder": whom, "wins": each}
    elif kind == "tsumo":
        text = gettext("%(winner)s tsumo, %(value)s") % {
            "winner": _who(result.get("winner"), names),
            "value": hand_value(result),
        }
        text = _with_pao(text, result, names)
    elif kind == "draw":
        tenpai = result.get("tenpai") or []
        if not tenpai:
            text = gettext("Draw, all noten")
        elif len(tenpai) == len(names):
            text = gettext("Draw, all tenpai")
        else:
            text = gettext("Draw, tenpai: %(players)s") % {"players": _list(tenpai, names)}
    elif kind == "nagashi":
        text = gettext("Nagashi mangan: %(players)s") % {
            "players": _list(result.get("winners"), names)
        }
    elif kind == "abort":
        reason = abort_label(result.get("reason") or "")
        text = gettext("Abortive draw (%(reason)s)") % {"reason": reason}
    elif kind == "chombo":
        text = gettext("Chombo: %(player)s") % {"player": _who(result.get("offender"), names)}
    else:
        text = str(kind)
    riichi = data.get("riichi") or []
    if riichi:
        text = gettext("[riichi %(players)s] %(hand)s") % {
            "players": _list(riichi, names),
            "hand": text,
        }
    if data.get("stop"):
        text = gettext("%(hand)s; the dealer stops") % {"hand": text}
    return text


def undecided_text(stage: str, previous: StageResult) -> str:
    """Why a later stage's tab (by name) lists nobody yet: who will play it, and where to see
    the cut."""
    params = {
        "stage": stage_label(stage),
        "previous": stage_label(previous.stage.name),
        "n": previous.stage.advance or 0,
        "last": previous.stage.last_round or 0,
    }
    return (
        gettext(
            "Not decided yet: the top %(n)d of the %(previous)s play the %(stage)s once round "
            "%(last)d has been played. Until then the %(previous)s tab shows who is in the cut "
            "now."
        )
        % params
    )


def tie_first_text(previous: StageResult) -> str:
    """Why a later stage's tab lists nobody once the stage before it is played: a tie across
    its cut, which the organizer settles first."""
    return gettext(
        "Not decided yet: the %(previous)s's cut falls inside a tie the organizer settles. "
        "The %(previous)s tab shows who is tied."
    ) % {"previous": stage_label(previous.stage.name)}


def cut_tie_text(result: StageResult, whole: bool) -> str:
    """How equal totals at a stage's cut were separated, in words ("" if they were not)."""
    tie = result.cut_tie
    if tie is None:
        return ""

    total = format_points(tie.total, whole)
    params = {
        "stage": stage_label(result.stage.name),
        "above": tie.above,
        "below": tie.below,
        "total": total,
        "af": tie.above_firsts,
        "ag": tie.above_games,
        "bf": tie.below_firsts,
        "bg": tie.below_games,
    }
    if tie.by == "top_rate":
        return (
            gettext(
                "%(stage)s cut: %(above)s and %(below)s both have %(total)s. %(above)s goes "
                "through on top rate: first in %(af)d of %(ag)d games against %(bf)d of %(bg)d."
            )
            % params
        )
    return (
        gettext(
            "%(stage)s cut: %(above)s and %(below)s both have %(total)s. The organizer's "
            "decision put %(above)s through."
        )
        % params
    )


def team_rule_text(rule: str, best: int | None) -> str:
    """How a team's total is made (scoring/teams.py), said on the team pages."""
    if rule == "best":
        return ngettext(
            "A team's total is its best member's total.",
            "A team's total is the sum of its best %(n)d members' totals.",
            best or 1,
        ) % {"n": best or 1}
    if rule == "average":
        return gettext("A team's total is the average of its members' totals.")
    return gettext("A team's total is the sum of its members' totals.")


def scale_text() -> str:
    """How the rating is made, said beside every rating."""
    return gettext(
        "Rating = %(target)d + %(alpha)d × (μ − 3σ): openskill's Plackett–Luce model, updated "
        "after every game in the order played. A newcomer has μ %(mu)g and σ %(sigma).2f, so "
        "starts at %(target)d; σ shrinks with each game."
    ) % {"target": SCALE_TARGET, "alpha": SCALE_ALPHA, "mu": MODEL.mu, "sigma": MODEL.sigma}


# --- conditions (CONTRACT §6): a win as people say it -------------------------------------------

LIMIT_NAMES = {
    "mangan": gettext_lazy("mangan"),
    "haneman": gettext_lazy("haneman"),
    "baiman": gettext_lazy("baiman"),
    "hanebaiman": gettext_lazy("hane-baiman"),
    "sanbaiman": gettext_lazy("sanbaiman"),
    "kazoe": gettext_lazy("counted yakuman"),
}
NEED_WORDS = {
    "any": gettext_lazy("any win"),
    "none": gettext_lazy("cannot"),
    "continues": gettext_lazy("plays on"),
}


def win_text(need: Any) -> str:
    """A condition in words: 満貫, 3翻40符, 役満 — or any win, cannot, plays on. A hand below a
    limit is said as the hand log says it (`hand_value`)."""
    if isinstance(need, str):
        return str(NEED_WORDS.get(need, need))
    if need.get("limit") in LIMIT_NAMES:
        return str(LIMIT_NAMES[need["limit"]])
    if need.get("yakuman") == 2:
        return gettext("double yakuman")
    text = hand_value(need)
    if need.get("bonus"):  # the emperor game's bonus yaku
        text += gettext(" + %(bonus)d bonus") % {"bonus": need["bonus"]}
    return text


def place_text(need: Any) -> str:
    """What a place at the table needs: any score, a score or more, or cannot."""
    if need == "any":
        return gettext("any score")
    if need == "none":
        return gettext("cannot")
    return gettext("%(score)s or more") % {"score": f"{need:,}"}
