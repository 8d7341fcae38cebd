"""Online games into an event: Tenhou game logs (mjlog XML or tenhou.net/6 JSON) recorded as
hand-by-hand games of a round. All or nothing: every log is read and checked by the engine
against the event's ruleset (scoring/tenhou/: each hand's score change, the end, the final
points as the log records them — a log of Tenhou's whole-point years in that rounding, which its
game keeps) before anything is written; then each becomes a game at the
round's next free table through `game_record`. A log's nickname is matched to the player who
has it as their name on the log's platform (services/profiles.py: Tenhou or Mahjong Soul),
else to the player of that name; a nickname that is neither is refused, saying where to add
it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q

from scoring.errors import ScoringError
from scoring.names import normalize_name
from scoring.tenhou import TenhouLog, check_log, read_log
from tournament.models import Event, Game
from tournament.services.errors import ServiceError, engine_errors
from tournament.services.games import game_record
from tournament.services.locks import event_lock
from tournament.services.profiles import PLATFORMS
from tournament.services.stages import stage_require_open

# One upload: a round of a large online qualifier — the site's limit on files in one form,
# so the form and Django's upload parser agree (settings.py).
MAX_LOGS: int = settings.DATA_UPLOAD_MAX_NUMBER_FILES


@dataclass(frozen=True)
class LogFile:
    name: str  # shown in errors: which upload the problem is in
    raw: bytes


def tenhou_import(
    *,
    event: Event,
    round_number: int,
    files: Sequence[LogFile],
    user: Any = None,
    platform: str | None = None,
) -> list[Game]:
    """Record each log as a game of round `round_number`, at the next free tables. Raises
    ServiceError naming the file (and, inside it, the hand) on the first problem; then nothing
    is written. `platform` (tenhou or mahjongsoul): whose nicknames the logs hold; by
    default, each log's own (`log_platform`)."""
    if platform is not None and platform not in PLATFORMS:
        raise ServiceError("tenhou.platform", "platform", value=platform)
    if not files:
        raise ServiceError("tenhou.no_files", "files")
    if len(files) > MAX_LOGS:
        raise ServiceError("tenhou.too_many", "files", most=MAX_LOGS)
    if not 1 <= round_number <= 999:
        raise ServiceError("tenhou.round", "round", value=round_number)
    games = []
    for f in files:
        try:
            with engine_errors():
                log = read_log(f.raw)
        except ServiceError as exc:
            raise _in_file(f.name, exc) from None
        games.append((f.name, platform or log_platform(f.raw, event), log))
    # Who played first, then how: a nickname nobody has is what the organizer fixes first (the
    # walk of issue 48 met a refusal of a log's points, then of its names, on the next try).
    named = _named(event, games)
    seated = []
    for name, on, log in games:
        try:
            seated.append([_player_of(nick, named, on) for nick in log.players])
        except ServiceError as exc:
            raise _in_file(name, exc) from None
    roundings = []
    for name, _on, log in games:
        try:
            with engine_errors():
                played = check_log(event.rules, log)
        except ServiceError as exc:
            raise _in_file(name, exc) from None
        # A log of the platform's earlier years (Tenhou's whole points) keeps the points it
        # printed: the game carries that rounding (docs/rulesets.md, `rounding_earlier`).
        rounding = played.rules.rounding
        roundings.append({"rounding": rounding} if rounding != event.rules.rounding else {})
    recorded = []
    with transaction.atomic():
        event_lock(event.pk)
        stage_require_open(event, rounds=[round_number])
        last = Game.objects.filter(round__event=event, round__number=round_number).aggregate(
            last=Max("table")
        )["last"]
        table = last or 0
        for (name, _on, log), seats, rounding in zip(games, seated, roundings, strict=True):
            table += 1
            try:
                recorded.append(
                    game_record(
                        event=event,
                        data={"round": round_number, "table": table, "seats": seats,
                              **log.game_data(), **rounding},
                        user=user,
                    )
                )  # fmt: skip
            except ServiceError as exc:  # a player not entered, or at two tables of the round
                raise _in_file(name, exc) from None
    return recorded


def log_platform(raw: bytes, event: Event) -> str:
    """Whose nicknames a log holds: an mjlog is Tenhou's own file; tenhou.net/6 JSON is what
    Tenhou's viewer and the Mahjong Soul converters (tensoul) both write, so it is read as the
    event's platform — Mahjong Soul's for an event on a Mahjong Soul ruleset, else Tenhou's.
    `import_tenhou --platform` says it outright."""
    if raw.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return "tenhou"
    return "mahjongsoul" if event.rules.slug.startswith("mahjongsoul") else "tenhou"


def _key(nick: str) -> str:
    """A nickname in the one spelling names are kept in (as game_record reads the seats)."""
    try:
        return normalize_name(nick)
    except ScoringError:
        return nick  # game_record names what is wrong with it


def _named(event: Event, games: list[tuple[str, str, TenhouLog]]) -> dict[str, dict[str, str]]:
    """For the logs' nicknames, in one query: {platform: {online name: player}} and, under
    "", the event's players called by one of them."""
    nicks = {_key(nick) for _, _, log in games for nick in log.players}
    found = event.entries.filter(
        Q(player__name__in=nicks) | Q(tenhou_name__in=nicks) | Q(mahjongsoul_name__in=nicks)
    ).values_list("player__name", *PLATFORMS.values())
    named: dict[str, dict[str, str]] = {"": {}, **{p: {} for p in PLATFORMS}}
    for player, *online in found:
        named[""][player] = player
        for platform, name in zip(PLATFORMS, online, strict=True):
            if name:
                named[platform][name] = player
    return named


def _player_of(nick: str, named: dict[str, dict[str, str]], platform: str) -> str:
    """The player a log's nickname stands for: whoever has it as their name on the platform,
    else the player of that name. Neither: refused, naming it and where to add it."""
    key = _key(nick)
    player = named[platform].get(key) or named[""].get(key)
    if player is None:
        raise ServiceError(f"tenhou.unknown_{platform}", "seats", name=key)
    return player


def _in_file(name: str, exc: ServiceError) -> ServiceError:
    """The error as the uploader reads it: the file first, then what is wrong — the hand's
    label is in the engine's sentence already, so the inner path (`hands[3]`) is left out."""
    return ServiceError(
        "tenhou.file", "files", file=name, error=ServiceError(exc.code, "", **exc.params)
    )
