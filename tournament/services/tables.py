"""Writes for table links (CONTRACT §3) and for results a table enters itself: a link per
seated table, revoked and issued again by the organizer; a result entered through it waits for
another seat's code (confirm or dispute), or the organizer's approval."""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournament.models import Game, TableLink
from tournament.models.games import CODE_ALPHABET
from tournament.services.confirmation import AtTable
from tournament.services.errors import ServiceError
from tournament.services.game_change import GameChange, game_change
from tournament.services.game_data import game_evaluate, game_to_data
from tournament.services.games import game_replace

CODE_LENGTH = 6
TOKEN_BYTES = 24  # 192 bits (CONTRACT §3 asks at least 128), 32 characters in the link


def _code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _seat_codes(seats: int) -> list[str]:
    """One code per seat, all different (a code names its seat)."""
    codes: list[str] = []
    while len(codes) < seats:
        code = _code()
        if code not in codes:
            codes.append(code)
    return codes


def normalize_code(text: str) -> str:
    """A code as typed: any case, any width (a Japanese keyboard's ＹＴＨＦ is YTHF), spaces and
    dashes ignored."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).upper() if c.isalnum())


def table_link_issue(game: Game) -> TableLink:
    """A new live link for a game (the caller has revoked the old one). Codes are random; a
    clash with an existing code (one in 10⁸) draws again."""
    seats = game.seats.count()
    for _ in range(5):
        try:
            with transaction.atomic():  # a savepoint: a clashing code leaves nothing behind
                return TableLink.objects.create(
                    game=game,
                    token=secrets.token_urlsafe(TOKEN_BYTES),
                    code=_code(),
                    seat_codes=_seat_codes(seats),
                )
        except IntegrityError:
            continue
    raise ServiceError("table.link_failed", "")


def table_links_for_round(games: list[Game]) -> None:
    """Every seated table of a new round gets its link (round_seat calls this)."""
    for game in games:
        table_link_issue(game)


def table_link_renew(*, game: Game, user: Any = None) -> TableLink:
    """Revoke the table's link (a lost sheet, a photo shared) and issue another."""
    with game_change(game, None, user=user, results=False) as change:
        locked = change.game
        if locked.finished:
            raise ServiceError("table.closed", "", table=locked.table)
        locked.links.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        link = table_link_issue(locked)
        after = {"round": locked.round.number, "table": locked.table}
        change.note("table.link", detail="new link", after=after)
        return link


def _finish(change: GameChange, *, action: str) -> Game:
    """Write the result the game holds as final: ranks and points, into the standings."""
    locked = change.game
    data = game_to_data(locked)
    ev = game_evaluate(locked.round.event.rules, data)
    if not ev.finished:  # a hand game reopened since: nothing to confirm
        raise ServiceError("table.nothing_to_confirm", "")
    before = {"confirmation": locked.confirmation, "dispute": locked.dispute}
    after = {"round": ev.round, "table": ev.table, "seats": ev.seats, "scores": ev.scores}
    return game_replace(change, ev, data, action=action, logged=(before, after), hold=False)


def table_seat_prove(*, link: TableLink, code: str) -> int:
    """The seat whose code this is (typed, or in the seat's own QR): a phone acts for a seat
    only after this. Raises `table.wrong_code`."""
    code = normalize_code(code).encode()
    found = None
    for position, seat_code in enumerate(link.seat_codes):
        # Every code compared, in constant time: the answer's timing names no seat.
        if secrets.compare_digest(seat_code.encode(), code):
            found = position
    if found is None:
        raise ServiceError("table.wrong_code", "code")
    return found


def game_confirm(*, link: TableLink, phone: str, code: str = "", seat: int | None = None) -> Game:
    """Another seat than the one that entered the result confirms it — by its `code` typed
    now, or as the `seat` this phone proved with its code before (one tap) — on another phone
    than the one that entered it: one person holding one seat's code (and the table's link,
    and two phones) cannot make a result final alone."""
    with game_change(link.game, None) as change:
        locked = change.game
        if locked.confirmation != "waiting":
            raise ServiceError("table.not_waiting", "code")
        if seat is None:
            seat = table_seat_prove(link=link, code=code)
        elif not 0 <= seat < len(link.seat_codes):
            raise ServiceError("table.wrong_code", "code")
        if seat == locked.submitted_seat:
            raise ServiceError("table.same_seat", "code")
        if not phone or phone == locked.submitted_phone:
            raise ServiceError("table.same_phone", "code")
        change.at = AtTable(locked.table, seat, phone)
        return _finish(change, action="game.confirm")


def game_dispute(*, link: TableLink, code: str, reason: str) -> Game:
    """Any seat, with its code, says the result is wrong: the organizer settles it."""
    with game_change(link.game, None, results=False) as change:
        locked = change.game
        if locked.confirmation not in ("waiting", "disputed"):
            raise ServiceError("table.not_waiting", "code")
        seat = table_seat_prove(link=link, code=code)
        reason = " ".join(reason.split())[:300]
        if not reason:
            raise ServiceError("table.dispute_reason", "reason")
        locked.confirmation, locked.dispute = "disputed", reason
        change.save("confirmation", "dispute")
        change.at = AtTable(locked.table, seat)
        after = {"round": locked.round.number, "table": locked.table, "reason": reason}
        change.note("game.dispute", after=after)
        return locked


def game_approve(*, game: Game, user: Any, expected_version: int | None = None) -> Game:
    """The organizer approves a result waiting for confirmation, or settles a dispute by
    keeping it (to change it instead: correct it, or undo its last hand, as any game).
    `expected_version`: the version the organizer's page showed — a result disputed or
    changed since is refused (ConflictError), never approved unseen."""
    with game_change(game, None, user=user) as change:
        if change.game.confirmation not in ("waiting", "disputed"):
            raise ServiceError("table.not_waiting", "")
        if expected_version is not None:
            change.check_version(expected_version)
        return _finish(change, action="game.approve")
