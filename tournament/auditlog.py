"""The change log in words: each audit entry as one sentence in the reader's language
(「第2回戦 3卓：最終点修正 — 東 青木 32,000 → 35,000」). The entry keeps its data (before,
after) as stored; this only reads it, so entries written before this module still read."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django_countries import countries

from tournament.auditlog_registration import signup_sentence
from tournament.i18n import hand_label, hand_summary, seat_label, stage_label, team_rule_text
from tournament.models import AuditEntry
from tournament.models.events import TABLE_ENTRY_CHOICES, TABLE_MODE_CHOICES

ACTIONS = {
    "event.create": gettext_lazy("Event created"),
    "event.players": gettext_lazy("Players registered"),
    "event.withdraw": gettext_lazy("Withdrawal"),
    "event.reinstate": gettext_lazy("Reinstatement"),
    "event.rename": gettext_lazy("Event renamed"),
    "event.organizers": gettext_lazy("Organizers"),
    "event.referees": gettext_lazy("Referees"),
    "event.import": gettext_lazy("Imported"),
    "event.delete": gettext_lazy("Event deleted"),
    "player.rename": gettext_lazy("Player renamed"),
    "player.profile": gettext_lazy("Player profile changed"),
    "round.seat": gettext_lazy("Round seated"),
    "round.unseat": gettext_lazy("Seating taken back"),
    "stage.decide": gettext_lazy("Tie settled"),
    "stage.close": gettext_lazy("Stage closed"),
    "stage.close_early": gettext_lazy("Stage closed early"),
    "stage.reopen": gettext_lazy("Stage reopened"),
    "game.record": gettext_lazy("Result entered"),
    "game.correct": gettext_lazy("Result corrected"),
    "game.hand": gettext_lazy("Hand"),
    "game.undo": gettext_lazy("Hand taken back"),
    "game.hand_fix": gettext_lazy("Hand corrected"),
    "game.remove": gettext_lazy("Table deleted"),
    "game.confirm": gettext_lazy("Result confirmed at the table"),
    "game.dispute": gettext_lazy("Result disputed"),
    "game.approve": gettext_lazy("Result approved"),
    "table.link": gettext_lazy("New table link"),
    "event.table_entry": gettext_lazy("Who enters results"),
    "event.feature": gettext_lazy("Table on stream"),
    "event.settings": gettext_lazy("Date and rules"),
    "penalty.give": gettext_lazy("Penalty or bonus"),  # its sentence says which
    "penalty.cancel": gettext_lazy("Penalty or bonus cancelled"),
    "clock.minutes": gettext_lazy("Minutes per round"),
    "clock.start": gettext_lazy("Round clock started"),
    "clock.extra": gettext_lazy("Extra minutes"),
    "plan.make": gettext_lazy("Seating plan made"),
    "plan.upload": gettext_lazy("Seating plan uploaded"),
    "plan.remove": gettext_lazy("Seating plan removed"),
    "game.seats": gettext_lazy("Seats swapped"),
    "checkin.require": gettext_lazy("Check-in"),
    "checkin.mark": gettext_lazy("Check-in by the organizer"),  # ticked, or undone
    "checkin.self": gettext_lazy("Checked in"),
    "checkin.withdraw_absent": gettext_lazy("Absent players withdrawn"),
    "guesses.network_release": gettext_lazy("Codes from a network allowed again"),
    "teams.set": gettext_lazy("Teams set"),
    "channels.set": gettext_lazy("Channels"),
    "series.create": gettext_lazy("Series created"),
    "series.rule": gettext_lazy("Series ranking rule"),
    "series.add_event": gettext_lazy("Event added to the series"),
    "series.remove_event": gettext_lazy("Event removed from the series"),
    "signup.create": gettext_lazy("Sign-up"),
    "signup.withdraw": gettext_lazy("Sign-up withdrawn"),
    "signup.approve": gettext_lazy("Sign-ups approved"),
    "signup.refuse": gettext_lazy("Sign-up refused"),
    "signup.move": gettext_lazy("Waiting list reordered"),
    "signup.settings": gettext_lazy("Registration settings"),
}


def author(entry: AuditEntry) -> str:
    """Who made the change: the signed-in user, or the table (and seat) through its link."""
    if entry.at_table is not None:
        where = _("at table %(table)s") % {"table": entry.at_table}
        return f"{where} ({seat_label(entry.at_seat)})" if entry.at_seat is not None else where
    return entry.user.get_username() if entry.user else _("system")


def action_label(action: str) -> str:
    return str(ACTIONS.get(action, action))


def _points(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def _table(data: dict[str, Any]) -> str:
    return _("Round %(round)s table %(table)s") % {
        "round": data.get("round", "?"),
        "table": data.get("table", "?"),
    }


def _scores(data: dict[str, Any]) -> str:
    seats = data.get("seats") or []
    scores = data.get("scores") or []
    return _(", ").join(
        f"{seat_label(i, name)} {_points(score)}"
        for i, (name, score) in enumerate(zip(seats, scores, strict=False))
    )


def _changes(before: dict[str, Any], after: dict[str, Any]) -> str:
    """Seat by seat, what a correction changed: a player, a score (32,000 → 35,000)."""
    parts = []
    old_seats, new_seats = before.get("seats") or [], after.get("seats") or []
    old_scores, new_scores = before.get("scores") or [], after.get("scores") or []
    for i, name in enumerate(new_seats):
        was = old_seats[i] if i < len(old_seats) else None
        if was is not None and was != name:
            parts.append(f"{seat_label(i)} {was} → {name}")
        if i < len(new_scores) and i < len(old_scores) and old_scores[i] != new_scores[i]:
            parts.append(
                f"{seat_label(i, name)} {_points(old_scores[i])} → {_points(new_scores[i])}"
            )
    if before.get("deposits", 0) != after.get("deposits", 0):
        parts.append(
            _("deposits %(before)s → %(after)s")
            % {"before": _points(before.get("deposits", 0)), "after": _points(after["deposits"])}
        )
    if before.get("busts") != after.get("busts") or before.get("yakuman") != after.get("yakuman"):
        parts.append(_("busts or yakuman changed"))
    return _(", ").join(parts) or _("nothing changed")


def _hand(data: dict[str, Any]) -> str:
    """A hand entry: new ones keep the hand; older ones kept the whole game (its last hand)."""
    if "hand" in data:
        hand, label = data["hand"], hand_label(data.get("label") or "")
    else:
        hands = data.get("hands") or [{}]
        hand, label = hands[-1], _("hand %(n)d") % {"n": len(hands)}
    return _said(f"{_table(data)} · {label}", hand_summary(hand, data.get("seats") or []))


def _said(where: Any, what: Any) -> str:
    """「where: what」 with the reader's colon: Japanese writes it full-width (2卓目：東 …), as
    the translated sentences of this log do."""
    colon = _(": ")  # on its own line so that makemessages finds it
    return f"{where}{colon}{what}"


def _names(names: Sequence[Any]) -> str:
    return _(", ").join(str(n) for n in names) or "—"


def _game(action: str, before: Any, after: Any) -> str | None:
    if action == "game.hand" and isinstance(after, dict):
        return _hand(after)
    if action == "game.undo" and isinstance(before, dict) and "hand" in before:
        return _hand(before)
    if action == "game.hand_fix" and isinstance(after, dict) and "hand" in after:
        # Hand 3 corrected: what it is now; then the later hands replayed, and any removed.
        said = [_hand(after)]
        for key, text in (
            ("replayed", _("hands replayed: %(n)s")),
            ("removed", _("hands removed: %(n)s")),
        ):
            if after.get(key):
                said.append(text % {"n": _(", ").join(str(n) for n in after[key])})
        return "; ".join(said)
    if action == "game.record" and isinstance(after, dict):
        if "hands" in after:
            n = len(after["hands"])
            return ngettext("%(table)s: %(n)d hand", "%(table)s: %(n)d hands", n) % {
                "table": _table(after),
                "n": n,
            }
        return _said(_table(after), _scores(after))
    if action == "game.correct" and isinstance(after, dict):
        if not isinstance(before, dict):
            return _said(_table(after), _scores(after))
        where = _table(after)
        if (before.get("round"), before.get("table")) != (after.get("round"), after.get("table")):
            where = f"{_table(before)} → {where}"
        return _said(where, _changes(before, after))
    if action in ("game.confirm", "game.approve") and isinstance(after, dict):
        return _said(_table(after), _scores(after))
    if action == "game.dispute" and isinstance(after, dict):
        return _said(_table(after), after.get("reason", ""))
    if action == "game.remove" and isinstance(before, dict):
        return _said(_table(before), _scores(before)) if "scores" in before else _table(before)
    if action == "game.seats" and isinstance(before, dict) and isinstance(after, dict):
        return "; ".join(
            _said(name, f"{_seat_at(was)} → {_seat_at(after.get(name) or {})}")
            for name, was in before.items()
        )
    return None


def _seat_at(where: dict[str, Any]) -> str:
    """A seat of the log's "seats swapped": 2卓目 南 / table 2 南."""
    table = _("Table %(t)s") % {"t": where.get("table", "?")}
    return f"{table} {seat_label(where.get('seat', 0))}"


PROFILE_LABELS = {  # a player's profile (services/profiles.py), key by key
    "ema": gettext_lazy("EMA number"),
    "country": gettext_lazy("Country"),
    "family_name": gettext_lazy("Family name"),
    "tenhou": gettext_lazy("Tenhou name"),
    "mahjongsoul": gettext_lazy("Mahjong Soul name"),
}


def _profile(after: dict[str, Any]) -> str:
    """青木：EMA番号 04090012、国 フランス — each value changed, "—" where one was cleared."""
    said = []
    for key, label in PROFILE_LABELS.items():
        if key in after:
            value = after[key] or "—"
            if key == "country" and after[key]:
                value = countries.name(value) or value
            said.append(f"{label} {value}")
    return _said(after.get("player", ""), _(", ").join(said))


def entry_sentence(entry: AuditEntry) -> str:
    """The entry's sentence in the active language (its English summary if not known)."""
    before = entry.before if isinstance(entry.before, dict) else None
    after = entry.after if isinstance(entry.after, dict) else None
    action = entry.action
    text = _game(action, before, after)
    if text is not None:
        return text
    if action in ("event.players", "event.create") and after:
        names = after.get("players") or []  # registered now, or with the new event
        return ngettext("%(n)d player: %(names)s", "%(n)d players: %(names)s", len(names)) % {
            "n": len(names),
            "names": _names(names),
        }
    if action == "event.import" and after:
        players = ngettext("%(n)d player", "%(n)d players", after.get("players", 0)) % {
            "n": after.get("players", 0)
        }
        games = ngettext("%(n)d game", "%(n)d games", after.get("games", 0)) % {
            "n": after.get("games", 0)
        }
        return _(", ").join([players, games])
    if action == "player.profile" and after:
        return _profile(after)
    if action in ("event.rename", "player.rename") and before and after:
        return f"{before.get('name')} → {after.get('name')}"
    if action in ("event.organizers", "event.referees") and after:
        return _names(after.get(action.split(".")[1]) or [])
    if action == "round.seat" and after:
        tables = after.get("tables") or []
        return ngettext(
            "Round %(round)s: %(n)d table", "Round %(round)s: %(n)d tables", len(tables)
        ) % {"round": after.get("round"), "n": len(tables)}
    if action == "round.unseat" and before:
        return _("Round %(round)s") % {"round": before.get("round")}
    stage = _said(stage_label(after["stage"]), "") if after and after.get("stage") else ""
    if action == "stage.decide" and after:
        return stage + " > ".join(str(p) for p in after.get("decision") or [])
    if action in ("stage.close", "stage.close_early") and after:
        said = _closed_words(after)
        if action == "stage.close_early":  # the round it ended after, then what it decided
            early = _("after round %(n)s") % {"n": after.get("round")}
            said = f"{early} · {said}"
        return stage + said
    if action in ("event.withdraw", "event.reinstate") and after:
        return str(after.get("player"))
    if action in ("penalty.give", "penalty.cancel") and (after or before):
        data = after or before or {}
        where = _("round %(n)s") % {"n": data["round"]} if data.get("round") else ""
        points = data.get("points") or 0
        kind = _("Penalty") if points < 0 else _("Bonus")  # a bonus is logged as penalty.give
        said = (data.get("player"), f"{kind} {points:+g}", where, data.get("reason"))
        return " · ".join(str(x) for x in said if x)
    if action == "stage.reopen" and after:
        return stage_label(after.get("stage", ""))
    text = _settings(action, before, after)
    return entry.summary if text is None else text


def _closed_words(after: dict[str, Any]) -> str:
    """What closing a stage decided: the last stage's winner and order, else who goes on."""
    if after.get("order"):
        first, *rest = after["order"]
        won = _("won by %(name)s") % {"name": first}
        return f"{won} · {_names(rest)}" if rest else won
    return _("advancing %(names)s") % {"names": _names(after.get("advancing") or [])}


CHECKED_IN_BY = {
    "phone": gettext_lazy("checked in on a phone"),
    "organizer": gettext_lazy("checked in by an organizer"),
}


def _checkin_state(before: Any, after: dict[str, Any]) -> str:
    """Present or not; an undo says how the check-in it undid was made (a phone's, issue 44)."""
    if after.get("present"):
        return _("present")
    if isinstance(before, dict) and before.get("present"):
        how = CHECKED_IN_BY.get(before.get("by") or "")
        if how:
            return _("check-in undone (it was %(how)s)") % {"how": how}
        return _("check-in undone")
    return _("not present")


def _settings(action: str, before: Any, after: Any) -> str | None:
    """The round clock, table links, who enters results, a deleted event, a seating plan: each
    in words."""
    if action in ("plan.make", "plan.upload") and after:
        rounds = after.get("rounds") or 0
        repeated = after.get("pairs_met_more_than_once") or 0
        return ngettext(
            "%(n)d round; %(pairs)d pairs meet more than once",
            "%(n)d rounds; %(pairs)d pairs meet more than once",
            rounds,
        ) % {"n": rounds, "pairs": repeated}
    if action == "plan.remove":
        return _("The seating plan is removed.")
    if action == "guesses.network_release" and after:
        return _(
            "Codes, sign-ups and notifications from the network %(address)s are accepted again."
        ) % {"address": after.get("address")}
    if action == "checkin.require" and after:
        if after.get("required"):
            return _("Only players checked in are seated.")
        return _("Every player in play is seated, checked in or not.")
    if action in ("checkin.mark", "checkin.self") and after:
        return _said(after.get("player"), _checkin_state(before, after))
    if action == "checkin.withdraw_absent" and after:
        return _names(after.get("players") or [])
    if action == "clock.minutes" and after:
        minutes = after.get("round_minutes") or 0
        if not minutes:
            return _("no round clock")
        return ngettext("%(n)d minute per round", "%(n)d minutes per round", minutes) % {
            "n": minutes
        }
    if action == "clock.start" and after:
        minutes = after.get("minutes") or 0
        return _("Round %(round)s: the clock started (%(minutes)s)") % {
            "round": after.get("round", "?"),
            "minutes": ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes},
        }
    if action == "clock.extra" and after:
        minutes = after.get("minutes") or 0
        extra = ngettext("%(n)d extra minute", "%(n)d extra minutes", minutes) % {"n": minutes}
        return _said(_table(after), extra)
    if action == "table.link" and after:
        return _("%(table)s: a new link (the old one no longer opens it)") % {
            "table": _table(after)
        }
    if action == "event.settings" and after:  # the knobs as typed: they are the rules' words
        knobs = json.dumps(after.get("ruleset") or {}, ensure_ascii=False)
        return _("date %(date)s · rules %(knobs)s") % {"date": after.get("date"), "knobs": knobs}
    if action == "event.table_entry" and after:
        entry = dict(TABLE_ENTRY_CHOICES).get(after.get("table_entry"), after.get("table_entry"))
        mode = dict(TABLE_MODE_CHOICES).get(after.get("table_mode"))
        return f"{entry} ({mode})" if mode else str(entry)
    if action == "event.feature" and (after or before):
        if after:
            return _table(after)
        return _("%(table)s: no longer on stream") % {"table": _table(before or {})}
    if action == "event.delete" and before:
        return f"{before.get('name', '')} ({before.get('slug', '')})"
    if action == "teams.set" and after is not None:
        return _teams(after)
    if action == "channels.set" and after is not None:
        # The services only: the URLs are the channels' secrets (services/channels.py).
        services = after.get("services") or []
        if not services:
            return _("No channels")
        return _("Posted to: %(services)s") % {"services": ", ".join(services)}
    if action.startswith("signup."):
        return signup_sentence(action, before, after)
    if action in ("series.add_event", "series.remove_event") and (after or before):
        return str((after or before or {}).get("event", ""))
    return None


def _teams(after: dict[str, Any]) -> str:
    """The teams as set: how many, their names, and how a team's total is made."""
    teams = after.get("teams") or {}
    if not teams:
        return _("No teams.")
    count = ngettext("%(n)d team: %(names)s", "%(n)d teams: %(names)s", len(teams)) % {
        "n": len(teams),
        "names": _names(list(teams)),
    }
    return f"{count} · {team_rule_text(after.get('rule') or 'sum', after.get('best'))}"
