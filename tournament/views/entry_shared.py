"""What the organizer's result entry (manage/games.py) and a table's own phone (table/) share:
the scores form's start and preview, a hand saved and said, a result entered and waiting,
and the conflict screen when another phone or person saved the table meanwhile."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.contrib import messages
from django.http import HttpRequest, QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.forms.games import ScoresForm
from tournament.forms.hands import HandForm
from tournament.i18n import hand_label, hand_summary, seat_label, seat_marked
from tournament.models import Event, Game, Hand
from tournament.selectors.games import Sheet
from tournament.selectors.sheets import last_hand, last_hand_said
from tournament.selectors.tables import round_clock
from tournament.services.confirmation import AtTable
from tournament.services.errors import ServiceError
from tournament.services.game_data import (
    Evaluated,
    game_evaluate,
    game_to_data,
)
from tournament.services.hands import game_hand_add, game_hand_replace

CONFLICT = gettext_lazy(
    "Someone else saved this table while you were typing. What they saved is shown above; "
    "your entry is kept below — check it and save again to replace theirs."
)


def rebased(form_class: type, post: QueryDict, version: int, **kwargs: Any) -> Any:
    """After a conflict: the form as typed, now based on the version saved meanwhile (so a
    deliberate second save replaces it), with the conflict explained at the top."""
    data = post.copy()
    data["version"] = str(version)
    form = form_class(data, **kwargs)
    form.is_valid()
    form.add_error(None, CONFLICT)
    return form


@dataclass(frozen=True)
class HandConflict:
    """What the conflict screen shows when another phone saved the table while this one was
    typing a hand: the hand they saved (`theirs`, when it is the one this form was for, and
    `theirs_text`), this phone's hand as typed (`mine_text`, and `fields` to send again), and
    whether "replace the last hand with mine" is offered (`replaceable`; `version` and
    `number`: what it is checked against)."""

    theirs: Hand | None
    theirs_text: str
    mine_text: str
    fields: list[tuple[str, str]]
    version: int
    number: int
    replaceable: bool


# What "replace" sends again of a hand form: everything typed but the hidden fields it renews.
_RENEWED = {"csrfmiddlewaretoken", "version", "number", "do", "replace"}


def hand_conflict(post: QueryDict, form: HandForm, game: Game, sheet: Sheet) -> HandConflict:
    """After a refused hand (the game moved on since the form was loaded): never a hand of its
    own. If the other phone saved the very hand this one was for, the choice is theirs or
    mine in its place; if the table has moved further, only theirs (a fresh form below)."""
    number = form.cleaned_data.get("number")
    last = sheet.hands[-1] if sheet.hands else None
    theirs = last if last is not None and number is not None and last.number == number else None
    return HandConflict(
        theirs=theirs,
        theirs_text=hand_summary(theirs.data, sheet.names) if theirs is not None else "",
        mine_text=hand_summary(form.to_hand(), sheet.names),
        fields=[(k, v) for k, values in post.lists() if k not in _RENEWED for v in values],
        version=game.version,
        number=number or 0,
        replaceable=theirs is not None and not game.confirmation,
    )


def hand_save(
    *,
    game: Game,
    form: HandForm,
    sheet: Sheet,
    replace: bool,
    user: Any = None,
    at: AtTable | None = None,
    entry_id: UUID | None = None,
) -> str:
    """A valid hand form saved: the next hand, played on the flow the page replayed (`sheet`);
    or, the conflict screen's "replace the last hand with mine", in place of the hand the
    form was for (`entry_id`: the id a table's phone gave its hand, kept on it). Returns what
    was recorded, as the page says it (recorded_text). Raises what the services raise (a
    ConflictError when the game moved on)."""
    saved = {
        "game": game,
        "hand": form.to_hand(),
        "expected_version": form.cleaned_data["version"] or 0,
        "user": user,
        "at": at,
    }
    if replace:
        game_hand_replace(**saved, number=form.cleaned_data["number"] or 0, entry_id=entry_id)
    else:
        # The hands replayed for the page: the engine goes on from them.
        game_hand_add(**saved, played=sheet.flow)
    return recorded_text(game, sheet.names)


def recorded_text(game: Game, names: list[str]) -> str:
    """What Record wrote, said on the page it returns to (issue 32: after Record only the label
    and the scores changed): the hand, and who gained what — 東2局 0本場 を記録しました：山田 ロン
    ← 佐藤 3翻30符（南 山田 +3,900）. The page offers Undo beside it."""
    hand = last_hand_said(game)
    if hand is None:  # the game's last hand ended it and was replaced by final scores
        return ""
    gains = [
        f"{seat_label(i, names[i])} {delta:+,}"
        for i, delta in enumerate(hand["deltas"])
        if delta > 0
    ]
    values = {"label": hand_label(hand["label"]), "hand": hand_summary(hand["data"], names)}
    if not gains:
        return _("%(label)s recorded: %(hand)s.") % values
    return _("%(label)s recorded: %(hand)s (%(gains)s).") % {**values, "gains": _(", ").join(gains)}


def say_recorded(request: HttpRequest, text: str) -> None:
    """The recorded hand's sentence, marked so the page puts Undo beside it."""
    if text:
        messages.success(request, text, extra_tags="recorded")


def taken_back_text(hand: dict[str, Any], names: list[str]) -> str:
    """What an undo took back, said on the page it returns to."""
    return _("Hand %(number)d (%(label)s: %(hand)s) is taken back.") % {
        "number": hand["number"],
        "label": hand_label(hand["label"]),
        "hand": hand_summary(hand["hand"], names),
    }


def scores_initial(game: Game) -> dict[str, Any]:
    """What the form starts from: the scores entered (final, or a table's waiting for
    confirmation or disputed), or — for a game kept hand by hand — the scores its hands
    produced (a correction starts where the table is, never at zero). All of a result or
    none of it: never one table's deposits beside empty scores."""
    seats = list(game.seats.all())
    initial: dict[str, Any] = {"version": game.version}
    last = last_hand(game) if game.mode == "hands" else None
    if last is not None:
        initial["deposits"] = last.deposits
        for position, score in enumerate(last.scores):
            initial[f"score_{position}"] = score
    entered = game.mode == "scores" and bool(seats) and all(s.score is not None for s in seats)
    if game.finished or entered:
        if game.mode == "scores":
            initial["deposits"] = game.deposits
            for s in seats:
                initial[f"score_{s.position}"] = s.score
        for b in game.busts:
            initial[f"bust_{b['seat']}"] = [str(j) for j in b.get("by", [])]
        for k, y in enumerate(game.yakuman[: ScoresForm.YAKUMAN_ROWS]):
            initial.update(
                {
                    f"yk{k}_winner": str(y["winner"]),
                    f"yk{k}_kind": y.get("kind", "tsumo"),
                    f"yk{k}_from": "" if y.get("from") is None else str(y["from"]),
                    f"yk{k}_count": y.get("count", 1),
                    f"yk{k}_pao": "" if y.get("pao") is None else str(y["pao"]),
                }
            )
    return initial


@dataclass(frozen=True)
class SeatPreview:
    """One seat of a game as the engine settles it, as the scores preview and a table's entered
    result show it."""

    position: int  # the seat, 0 the starting dealer
    seat: str  # its wind and player, as the page says them
    score: int  # the final score, leftover deposits included
    rank: int
    points: float
    chips: int
    breakdown: dict[str, float]
    entered: int | None = None  # an entered result's score as typed (the deposits said apart)


@dataclass(frozen=True)
class EnteredResult:
    """A result a table entered, waiting for confirmation or disputed, as it would settle."""

    rows: list[SeatPreview]  # by wind, as the table sits
    deposits: int  # left on the table
    deposits_to_top: bool  # the leftover deposits go to the top (else they are lost)
    busts: list[str]  # each said once (bust_lines)


def scores_preview(event: Event, data: dict[str, Any]) -> list[SeatPreview]:
    return _settled(game_evaluate(event.rules, data))


def _settled(ev: Evaluated, *, entered: bool = False) -> list[SeatPreview]:
    """Each seat of an evaluated game as the preview and the entered result show it;
    `entered`: with each score as the table typed it."""
    return [
        SeatPreview(
            position=p.seat,
            seat=seat_label(p.seat, ev.seats[p.seat]),
            score=p.score,
            rank=p.rank,
            points=p.points,
            chips=p.chips,
            breakdown=p.breakdown,
            entered=ev.scores[p.seat] if entered else None,
        )
        for p in ev.settlement.players
    ]


def entered_result(event: Event, game: Game) -> EnteredResult | None:
    """A result a table entered that waits for confirmation or is disputed, as the engine
    settles it — each seat's final score, rank and points, the deposits left, the busts —
    for the table's phones and the organizer to read before it counts (its seats hold the
    scores alone until then). None for any other game."""
    if not game.confirmation:
        return None
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    names = [s.player.name for s in seats]
    try:
        ev = game_evaluate(event.rules, game_to_data(game, seats))
    except ServiceError:  # checked when written; the event's rules have not changed since
        return None
    return EnteredResult(
        rows=sorted(_settled(ev, entered=True), key=lambda row: row.position),
        deposits=ev.deposits,
        deposits_to_top=event.rules.leftover_deposits == "top",
        busts=bust_lines(ev.busts, names),
    )


def hand_form_kwargs(event: Event, game: Game, sheet: Sheet) -> dict[str, Any]:
    """What a hand form needs beyond the post: the rules, the names, and whether this hand
    may end the game (アガリ止め at the last hand; the round's time up)."""
    clock = round_clock(game.round, game)
    return {
        "rules": event.rules,
        "names": sheet.names,
        "can_stop": sheet.can_stop,
        "time_up": clock is not None and clock.up,
        "clock_running": clock is not None,
    }


def waiting_by(game: Game, names: list[str]) -> str:
    """The seat that entered a result waiting for confirmation, as the table says it."""
    seat = game.submitted_seat
    return seat_marked(seat, names[seat]) if seat is not None and seat < len(names) else ""


def bust_lines(busts: list[dict[str, Any]], names: list[str]) -> list[str]:
    """Each bust said once: 南 佐藤 busted (by 西 鈴木)."""
    return [
        _("%(seat)s busted (by %(by)s)")
        % {
            "seat": seat_label(b["seat"], names[b["seat"]]),
            "by": _(", ").join(seat_label(j, names[j]) for j in b.get("by", [])) or "—",
        }
        for b in busts
    ]
