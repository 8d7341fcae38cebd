"""A player's profile in an event (issue 48, CONTRACT §2 `profiles`): the EMA number, country
and family name a ranking body asks for, and the player's names online, one per platform, that
a game log gives (services/tenhou.py). Checked the same way from the organizer's player page
and from an event file; an event file's profiles are all checked before any is written."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django_countries import countries

from scoring.errors import ScoringError
from scoring.names import normalize_name
from tournament.models import Entry, Event
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError
from tournament.services.locks import event_lock

# The platforms whose logs import_tenhou reads: the profile key (CONTRACT §2 words) → the
# entry's column.
PLATFORMS: dict[str, str] = {"tenhou": "tenhou_name", "mahjongsoul": "mahjongsoul_name"}
# A profile's keys, as an event file writes them, and the entry's column for each.
PROFILE_FIELDS: dict[str, str] = {
    "ema": "ema_number",
    "country": "country",
    "family_name": "family_name",  # issue 64: the EMA lists last and first names apart
    **PLATFORMS,
}
PROFILE_COLUMNS = tuple(PROFILE_FIELDS.values())
EMA_DIGITS = 8  # the EMA's player numbers: 8 digits, the first two its member's (04 France)
# Codes people type for a country that ISO 3166-1 spells otherwise. UK is the EMA's own code
# for the United Kingdom (its ranking pages' flag uk.png; README, "Sending results to the
# EMA") and one ISO 3166-1 reserves for it: an organizer typing it means GB, which is kept.
COUNTRY_ALIASES: dict[str, str] = {"UK": "GB"}


def check_ema(value: Any, field: str) -> str:
    """An EMA number: exactly 8 ASCII digits as text (a JSON number would lose the leading
    zeros of 04090012), or "" for none."""
    if isinstance(value, str):
        value = value.strip()
        if value == "" or (len(value) == EMA_DIGITS and value.isascii() and value.isdigit()):
            return value
    elif isinstance(value, int | float) and not isinstance(value, bool):
        raise ServiceError("profile.ema_as_text", field, value=value)  # an event file's number
    raise ServiceError("profile.ema", field, value=value)


def country_code(value: str) -> str:
    """The ISO code of what was typed for a country: in capitals, an alias (UK) as its code."""
    code = value.strip().upper()
    return COUNTRY_ALIASES.get(code, code)


def check_country(value: Any, field: str) -> str:
    """An ISO 3166-1 alpha-2 code (FR, JP), in capitals, or "" for none; UK is GB."""
    if isinstance(value, str):
        code = country_code(value)
        if code == "" or (len(code) == 2 and code in countries):
            return code
    raise ServiceError("profile.country", field, value=value)


def check_online_name(value: Any, field: str) -> str:
    """A name online in the one spelling every name has (scoring.names, as a log's nickname is
    read), or "" for none."""
    if isinstance(value, str) and not value.strip():
        return ""
    try:
        return normalize_name(value, field)
    except ScoringError as exc:
        raise ServiceError.engine(exc) from None


def check_family_name(value: Any, field: str) -> str:
    """A family name in the one spelling every name has, or "" for none (name_parts' rule)."""
    return check_online_name(value, field)


CHECKS = {"ema": check_ema, "country": check_country, "family_name": check_family_name}
CHECKS.update(dict.fromkeys(PLATFORMS, check_online_name))


# --- a name's parts, as the EMA lists them (exports/ema.py) --------------------------------

# Scripts whose names are written family name first (長谷川 真理子, 王 伟, 김 민수).
_FAMILY_FIRST_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL")


def _family_first(name: str) -> bool:
    return any(unicodedata.name(c, "").startswith(_FAMILY_FIRST_SCRIPTS) for c in name)


def name_parts(name: str, family_name: str = "") -> tuple[str, str]:
    """(family name, given names) of a player's name. The profile's family name when it has
    one, the given names being the words of the name before or after it (the whole name when
    it is neither its start nor its end: "Tony" with family name Kösters). Without one, the
    rule: the last word is the family name ("Anton Kösters"), the first for a name in
    Japanese, Chinese or Korean script ("長谷川 真理子"); a name of one word is all family
    name. The organizer corrects a wrong guess on the player's profile ("van der Berg")."""
    words = name.split()
    if family_name:
        last, folded = family_name.casefold().split(), [w.casefold() for w in words]
        if len(last) < len(words) and folded[-len(last) :] == last:
            return family_name, " ".join(words[: -len(last)])
        if len(last) < len(words) and folded[: len(last)] == last:
            return family_name, " ".join(words[len(last) :])
        return family_name, "" if last == folded else name
    if len(words) < 2:
        return name, ""
    if _family_first(name):
        return words[0], " ".join(words[1:])
    return words[-1], " ".join(words[:-1])


def check_profile(raw: Mapping[str, Any], path: str) -> dict[str, str]:
    """One player's profile as given (a file's object, a form's fields): each key known and
    its value checked, naming `path.key` when it is not. Keys left out are left out."""
    out = {}
    for key, value in raw.items():
        check = CHECKS.get(key)
        if check is None:
            raise ServiceError("value.unknown_key", f"{path}.{key}", known=", ".join(CHECKS))
        out[key] = check(value, f"{path}.{key}")
    return out


def check_unique_online(profiles: Mapping[str, Mapping[str, str]], path: str) -> None:
    """No two players of one event with the same name on one platform: a log's nickname must
    point at one player."""
    for platform in PLATFORMS:
        seen: dict[str, str] = {}
        for player, profile in profiles.items():
            name = profile.get(platform, "")
            if not name:
                continue
            if name in seen:
                raise ServiceError(
                    f"profile.{platform}_taken",
                    f"{path}.{player}.{platform}",
                    value=name,
                    name=seen[name],
                )
            seen[name] = player


def profiles_read(raw: Any, players: list[str]) -> dict[str, dict[str, str]]:
    """An event file's `profiles`: {player: {ema, country, tenhou, mahjongsoul}}, every player
    among `players` (the file's, in their one spelling), every value checked, no online name
    twice on one platform. Raises ServiceError naming the key path."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ServiceError("value.object", "profiles")
    known = set(players)
    out: dict[str, dict[str, str]] = {}
    for key, profile in raw.items():
        path = f"profiles.{key}"
        try:
            name = normalize_name(key, path)
        except ScoringError as exc:
            raise ServiceError.engine(exc) from None
        if name not in known:
            raise ServiceError("players.unknown", path, name=name)
        if not isinstance(profile, Mapping):
            raise ServiceError("value.object", path)
        out[name] = check_profile(profile, path)
    check_unique_online(out, "profiles")
    return out


def profiles_write(event: Event, profiles: Mapping[str, Mapping[str, str]]) -> None:
    """Set the checked profiles on the event's entries (a fresh import: one UPDATE a player
    with a profile)."""
    for name, profile in profiles.items():
        values = {PROFILE_FIELDS[k]: v for k, v in profile.items()}
        if values:
            Entry.objects.filter(event=event, player__name=name).update(**values)


def profiles_export(rows: Iterable[Sequence[Any]]) -> dict[str, dict[str, str]]:
    """The event file's `profiles` from the entries' rows, each (name, *PROFILE_COLUMNS), in
    the order the file lists the players: each player with any of them, only the keys they
    have."""
    out = {}
    for name, *values in rows:
        profile = {k: v for k, v in zip(PROFILE_FIELDS, values, strict=True) if v}
        if profile:
            out[name] = profile
    return out


def entry_profile(entry: Entry) -> dict[str, str]:
    """The entry's profile by its keys, "" where it has none."""
    return {key: str(getattr(entry, column) or "") for key, column in PROFILE_FIELDS.items()}


@transaction.atomic
def entry_profile_set(*, entry: Entry, profile: Mapping[str, Any], user: Any = None) -> Entry:
    """Change one player's profile in the event (the organizer's player page). Each value is
    checked as an event file's is; an online name another player of the event has is refused,
    naming that player. Logged with the values before and after."""
    event = entry.event
    event_lock(event.pk)
    checked = check_profile(profile, "profile")
    before = entry_profile(Entry.objects.get(pk=entry.pk))
    after = {**before, **checked}
    for platform, column in PLATFORMS.items():
        name = after[platform]
        if not name or name == before[platform]:
            continue
        holder = (
            event.entries.filter(**{column: name})
            .exclude(pk=entry.pk)
            .values_list("player__name", flat=True)
            .first()
        )
        if holder is not None:
            raise ServiceError(f"profile.{platform}_taken", platform, value=name, name=holder)
    if after == before:
        return entry
    changed = {PROFILE_FIELDS[k]: v for k, v in after.items() if v != before[k]}
    Entry.objects.filter(pk=entry.pk).update(**changed)
    for column, value in changed.items():
        setattr(entry, column, value)
    now = {k: v for k, v in after.items() if before[k] != v}
    name = entry.player.name
    change_record(
        event=event,
        user=user,
        action="player.profile",
        summary=f"{name}: " + ", ".join(f"{k} {v or '—'}" for k, v in now.items()),
        before={"player": name, **{k: v for k, v in before.items() if after[k] != v}},
        after={"player": name, **now},  # the log says it in words (auditlog._profile)
    )
    return entry
