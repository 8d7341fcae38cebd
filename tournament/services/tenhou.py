"""Online games into an event: Tenhou game logs (mjlog XML or tenhou.net/6 JSON) recorded as
hand-by-hand games of a round. All or nothing: every log is read and checked by the engine
against the event's ruleset (scoring/tenhou/: each hand's score change, the end, the final
points as the log records them) before anything is written; then each becomes a game at the
round's next free table through `game_record`, players matched by name."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max

from scoring.tenhou import check_log, read_log
from tournament.models import Event, Game
from tournament.services.errors import ServiceError, engine_errors
from tournament.services.games import game_record
from tournament.services.locks import event_lock
from tournament.services.stages import stage_require_open

# One upload: a round of a large online qualifier — the site's limit on files in one form,
# so the form and Django's upload parser agree (settings.py).
MAX_LOGS: int = settings.DATA_UPLOAD_MAX_NUMBER_FILES


@dataclass(frozen=True)
class LogFile:
    name: str  # shown in errors: which upload the problem is in
    raw: bytes


def tenhou_import(
    *, event: Event, round_number: int, files: Sequence[LogFile], user: Any = None
) -> list[Game]:
    """Record each log as a game of round `round_number`, at the next free tables. Raises
    ServiceError naming the file (and, inside it, the hand) on the first problem; then nothing
    is written."""
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
                check_log(event.rules, log)
        except ServiceError as exc:
            raise _in_file(f.name, exc) from None
        games.append((f.name, {"seats": log.players, **log.game_data()}))
    recorded = []
    with transaction.atomic():
        event_lock(event.pk)
        stage_require_open(event, rounds=[round_number])
        last = Game.objects.filter(round__event=event, round__number=round_number).aggregate(
            last=Max("table")
        )["last"]
        table = last or 0
        for name, data in games:
            table += 1
            try:
                recorded.append(
                    game_record(
                        event=event,
                        data={"round": round_number, "table": table, **data},
                        user=user,
                    )
                )
            except ServiceError as exc:  # a player not entered, or at two tables of the round
                raise _in_file(name, exc) from None
    return recorded


def _in_file(name: str, exc: ServiceError) -> ServiceError:
    """The error as the uploader reads it: the file first, then what is wrong — the hand's
    label is in the engine's sentence already, so the inner path (`hands[3]`) is left out."""
    return ServiceError(
        "tenhou.file", "files", file=name, error=ServiceError(exc.code, "", **exc.params)
    )
