"""Domain errors raised by services; views and commands show them next to the field.

Like the engine's (scoring.messages), every error has a code and params beside its English:
commands print the English `message`; pages show `tournament.i18n.error_text(exc)`, the same
sentence in the reader's language with seats and stages named as people know them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.utils.translation import gettext_noop

from scoring.errors import ScoringError
from scoring.messages import MESSAGES as ENGINE_MESSAGES


class StageName(str):
    """A stage's name ("qualifier") given to a message: pages show its label (予選)."""


class Tables(tuple):
    """Tables given to a message, each (round, table): "table 2 of round 2, table 3 of round
    2" — pages say them in the reader's language (i18n.py)."""

    def __str__(self) -> str:
        return ", ".join(f"table {t} of round {r}" for r, t in self)


MESSAGES: dict[str, str] = {
    # --- fixing a wrong seat (services/seat_fix.py) ---
    "swap.closed": gettext_noop(
        "round {round} table {table} has its result: correct the result instead"
    ),
    "swap.other_round": gettext_noop("the two seats are in different rounds"),
    "swap.same": gettext_noop("choose two different seats"),
    "swap.unknown": gettext_noop("choose two seats of this round's open tables"),
    # --- check-in (services/checkin.py) ---
    "checkin.closed": gettext_noop("this event does not take check-ins now"),
    "checkin.unknown": gettext_noop(
        "nobody called {name} plays in this event: type your name as the organizer registered it"
    ),
    "checkin.ambiguous": gettext_noop(
        "more than one player's name reads as {name}: type yours exactly as registered, "
        "spaces included, or ask the organizer"
    ),
    "checkin.withdrawn": gettext_noop("{name} is withdrawn from this event: ask the organizer"),
    "checkin.code_wrong": gettext_noop(
        "That is not the check-in code shown now. It changes every 5 minutes: type the one on "
        "the venue screen."
    ),
    "checkin.phone_taken": gettext_noop(
        "this phone has checked in {name} already: a phone checks in one player, its own. "
        "If that was wrong, ask the organizer to undo it"
    ),
    # --- sign-up and the waiting list (services/registration.py, CONTRACT §8) ---
    "signup.closed": gettext_noop("this event does not take sign-ups now"),
    "signup.email": gettext_noop("type your e-mail address, such as name@example.org"),
    "signup.name_taken": gettext_noop(
        "{name} is signed up for this event already: if that is someone else, add something "
        "that tells you apart, such as an initial"
    ),
    "signup.capacity": gettext_noop(
        "the capacity is a whole number of players, 1 or more, or empty for no limit"
    ),
    "signup.capacity_below": gettext_noop(
        "{count} players are registered: the capacity cannot be lower than that"
    ),
    "signup.not_refusable": gettext_noop(
        "{name} is not waiting: withdraw a registered player instead of refusing them"
    ),
    "signup.full_back": gettext_noop(
        "the event is full (capacity {capacity}): to take {name} back, raise the capacity on "
        "the sign-up list first, or withdraw another player"
    ),
    "signup.not_waiting": gettext_noop(
        "{name} is not on the waiting list: only a waiting sign-up moves on it"
    ),
    "signup.move": gettext_noop("move a sign-up to the top, one place up or one place down"),
    # --- Web Push subscriptions (services/push.py, CONTRACT §7) ---
    "push.json": gettext_noop("send the subscription as a JSON object"),
    "push.player": gettext_noop("choose a player of this event"),
    "push.endpoint": gettext_noop(
        "the subscription's endpoint must be the https address of a browser's push service"
    ),
    "push.keys": gettext_noop("the subscription needs both of its keys, p256dh and auth"),
    "push.key": gettext_noop(
        "this key is not one a browser makes: p256dh is a P-256 public key (65 bytes), auth "
        "16 bytes, each in base64url"
    ),
    "push.language": gettext_noop("language must be ja or en"),
    "push.off": gettext_noop("this site does not send notifications"),
    # --- the organizer's channels (services/channels.py, issue 49) ---
    "channel.unknown": gettext_noop(
        "line {line}: this is not a channel URL apprise knows — for example "
        "discord://webhook_id/webhook_token, tgram://bot_token/chat_id or "
        "mailtos://user:password@example.com"
    ),
    # A second URL apprise does not know, in the same box: the examples said once, above it.
    "channel.unknown_again": gettext_noop("line {line}: this is not a channel URL apprise knows"),
    "channel.service": gettext_noop(
        "line {line}: this site posts only to these services: {services}"
    ),
    "channel.long": gettext_noop("line {line}: a channel URL is at most {most} characters"),
    "channel.many": gettext_noop("at most {most} channels"),
    # A channel's host that is not a machine of the public internet (issue 63).
    "channel.address": gettext_noop(
        "line {line}: {host} is not on the public internet (it is this server, a local network "
        "or a cloud's internal service): the site posts only to public services — use the "
        "address the service gives you"
    ),
    "channel.resolves": gettext_noop(
        "line {line}: {host} leads to {address}, which is not on the public internet (this "
        "server, a local network or a cloud's internal service): the site posts only to "
        "public services — use the address the service gives you"
    ),
    "channel.no_address": gettext_noop(
        "line {line}: {host} has no address on the internet now: check the server's name"
    ),
    "channel.option": gettext_noop(
        "line {line}: this site does not take apprise's {option}= option (it would read a "
        "file of the server or fetch another address): remove it"
    ),
    # --- whole-day seating plans (services/plans.py) ---
    "plan.too_big": gettext_noop("the plan file is over {most} kB"),
    "plan.encoding": gettext_noop("the plan file is not UTF-8 text"),
    "plan.json": gettext_noop(
        "this is not a plan: a JSON plan is an object with its rounds, as python -m scoring "
        "seat writes it"
    ),
    "plan.deep": gettext_noop(
        "the plan file is nested too deeply ({path}): a plan is rounds of tables of names"
    ),
    "plan.round_shape": gettext_noop("round {round}: a round is an object with its tables"),
    "plan.csv_row": gettext_noop(
        "line {line}: a row is the round, the table (or bye), then the players East first"
    ),
    "plan.table_twice": gettext_noop("round {round} lists table {table} twice"),
    "plan.round_missing": gettext_noop("round {round} is missing from the plan"),
    "plan.empty": gettext_noop("the plan has no rounds"),
    "plan.table_size": gettext_noop(
        "round {round} table {table} seats {count} players; a table here seats {size}"
    ),
    "plan.player_missing": gettext_noop("round {round} does not seat {name}"),
    "plan.bad_name": gettext_noop("round {round} table {table}: a name is empty or not text"),
    "plan.bye_bad_name": gettext_noop("round {round}, byes: a name is empty or not text"),
    "plan.unknown": gettext_noop(
        "round {round} table {table}: {name} is not playing in this event"
    ),
    "plan.bye_unknown": gettext_noop("round {round}, byes: {name} is not playing in this event"),
    "plan.twice": gettext_noop("round {round}: {name} is at table {first} and at table {table}"),
    "plan.bye_twice": gettext_noop("round {round}: {name} is seated and has a bye as well"),
    "plan.none": gettext_noop("this event has no seating plan: make or upload one first"),
    "plan.no_round": gettext_noop("the plan has {rounds} rounds: it has no round {round}"),
    "plan.stale": gettext_noop(
        "the plan's round {round} does not fit the players in play now ({name}): make or "
        "upload the plan again"
    ),
    # --- events and players ---
    "event.listed_twice": gettext_noop("{name} is listed twice ({first} and {second})"),
    "event.slug_invalid": gettext_noop(
        "{slug!r} is not an address: use letters, digits, hyphens and underscores"
    ),
    "event.slug_reserved": gettext_noop("{slug!r} is taken by a page of the site; choose another"),
    "event.slug_taken": gettext_noop("an event called {slug!r} exists already"),
    "event.created_meanwhile": gettext_noop("An event at the address {slug} was created just now."),
    "event.name_taken": gettext_noop("An event named {name} exists already (/events/{slug}/)."),
    "player.name_taken": gettext_noop("another player is called {name} already"),
    # --- a player's profile (services/profiles.py, CONTRACT §2 `profiles`) ---
    "profile.ema": gettext_noop(
        "{value!r} is not an EMA number: an EMA number is 8 digits, leading zeros kept "
        '("04090012"); or leave it empty'
    ),
    "profile.ema_as_text": gettext_noop(
        "{value!r} is a number: give the EMA number as text in quotes, leading zeros kept "
        '("04090012")'
    ),
    "profile.country": gettext_noop(
        "{value!r} is not a country: give its two-letter ISO 3166-1 code (FR, JP, DE), or nothing"
    ),
    "profile.tenhou_taken": gettext_noop(
        "{name} has the Tenhou name {value} in this event already: one name is one player's"
    ),
    "profile.mahjongsoul_taken": gettext_noop(
        "{name} has the Mahjong Soul name {value} in this event already: one name is one player's"
    ),
    # --- one table's result ---
    "game.unregistered": gettext_noop("{name} is not registered for this event"),
    "game.plays_elsewhere": gettext_noop("{name} already plays round {round} at table {table}"),
    "game.recorded": gettext_noop("round {round} table {table} is recorded already"),
    "game.deleted": gettext_noop("This table was deleted meanwhile."),
    "game.conflict": gettext_noop(
        "someone else saved this game meanwhile; reload it and try again"
    ),
    "game.by_scores": gettext_noop(
        "this game was entered by its final scores; correct those instead"
    ),
    "game.no_hand": gettext_noop("there is no hand to undo"),
    "game.hands_replaced": gettext_noop(
        "saving final scores replaces the hands recorded: tick “Replace its hands with these "
        "final scores” to save them, or keep the hands"
    ),
    # --- the round clock ---
    "clock.minutes": gettext_noop("give the minutes a round lasts: 0 (no clock) to {most}"),
    "clock.no_minutes": gettext_noop("set the minutes a round lasts first"),
    "clock.extra": gettext_noop("give 1 to 120 extra minutes"),
    "clock.extra_total": gettext_noop(
        "table {table} has {given} extra minutes already; a table gets at most {most}"
    ),
    # --- penalties ---
    "penalty.player": gettext_noop("{name} is not registered for this event"),
    "penalty.points": gettext_noop(
        "{value!r} is not a number of points: give a non-zero number such as -10 or 5.5"
    ),
    "penalty.reason": gettext_noop("give the reason, for the players and the log"),
    "penalty.round": gettext_noop(
        "there is no round {round} yet: give a round that is seated, or leave it empty"
    ),
    # --- table links and confirmation ---
    "event.table_entry": gettext_noop("choose who enters results: organizers or tables"),
    "event.feature_other": gettext_noop("that table is not one of this event's"),
    "event.rules_seated": gettext_noop(
        "round {round} is seated already: the rules are fixed once a round is seated (its "
        "tables and results follow them). Take back its seating first to change them."
    ),
    "table.link_failed": gettext_noop("no new table link could be made; try again"),
    "table.closed": gettext_noop("table {table}'s game is over: its link is closed"),
    "table.not_waiting": gettext_noop("this table has no result waiting for confirmation"),
    "table.wrong_code": gettext_noop("that is not the code of a seat at this table"),
    "table.same_seat": gettext_noop(
        "the seat that entered the result cannot confirm it: another seat's code is needed"
    ),
    "table.same_phone": gettext_noop(
        "this phone entered the result: confirm it on another seat's own phone"
    ),
    "table.dispute_reason": gettext_noop("say what is wrong, for the organizer"),
    "table.nothing_to_confirm": gettext_noop("the game is not over: there is nothing to confirm"),
    "table.entered_by_organizers": gettext_noop(
        "results at this event are entered by the organizers"
    ),
    "table.disputed": gettext_noop("the result is disputed: the organizer settles it"),
    # --- rounds and stages ---
    "round.stage_open": gettext_noop(
        "close the {stage} (rounds {first}–{last}) before seating round {round}"
    ),
    "round.beyond": gettext_noop(
        "The event ends with round {last}: there is no round {round} to seat."
    ),
    "round.too_early": gettext_noop("Round {round} cannot be seated before round {next}."),
    "round.seated": gettext_noop("Round {round} is seated already."),
    "round.unfinished_ask": gettext_noop(
        "Not finished yet: {tables}. Seat round {round} anyway? Those tables stay open and "
        "can be finished later."
    ),
    "round.unfinished": gettext_noop(
        "round {round} table {table} is not finished; seating by standings needs every result"
    ),
    "round.too_few": gettext_noop(
        "{players} players cannot fill a table of {size}; register more players"
    ),
    "round.too_few_present": gettext_noop(
        "Only {players} checked in: a table of {size} needs more. Check players in (on their "
        "phones or ticked below), or seat everyone again, checked in or not."
    ),
    "round.shortfall": gettext_noop(
        "{players} players leave {extra} over at tables of {size}: choose byes "
        "({extra} sit out) or substitutes ({stand_ins} to fill the seats)"
    ),
    "round.has_results": gettext_noop(
        "table {table} of round {round} has results; delete them first"
    ),
    "round.not_last": gettext_noop("round {round} is not the last round"),
    "round.keep_none": gettext_noop(
        "round {round} is the first of its stage: there are no seats before it to keep; seat "
        "it another way (by standings or at random)"
    ),
    "round.keep_changed": gettext_noop(
        "round {previous}'s tables seated other players than those in play now ({name}): "
        "seat round {round} another way (by standings or at random)"
    ),
    "stage.closed_round": gettext_noop(
        "Round {round} belongs to the {stage}, which is closed: its results are final. "
        "Reopen the {stage} first to change them."
    ),
    "stage.closed_players": gettext_noop(
        "The {stage} is closed: its players are final. Reopen the {stage} first to change them."
    ),
    "stage.closed_penalty": gettext_noop(
        "The {stage} is closed: its standings are final, and a penalty without a round counts "
        "in every stage. Give it in a round of a stage still open, or reopen the {stage} first."
    ),
    "stage.closed_decision": gettext_noop(
        "The {stage} is closed: reopen it first to change its tie decision."
    ),
    "stage.closed_already": gettext_noop("the {stage} is closed already"),
    "stage.open_already": gettext_noop("The {stage} is open already."),
    "stage.no_players": gettext_noop("the {stage} has no players yet"),
    "stage.no_ranking": gettext_noop("this stage has no ranking yet"),
    "stage.no_tie": gettext_noop("nobody in the {stage} has a tie to settle"),
    "stage.tie_order": gettext_noop("give an order of exactly the tied players: {players}"),
    "stage.tie_first": gettext_noop("settle the tie at the cut first: {players}"),
    "stage.tie_top": gettext_noop("settle the tie for first place first: {players}"),
    "stage.round_unplayed": gettext_noop(
        "the {stage} cannot close yet: round {round} has not been played"
    ),
    "stage.table_open": gettext_noop(
        "the {stage} cannot close yet: round {round} table {table} is not finished"
    ),
    "stage.reopen_later": gettext_noop(
        "Round {round}, after the {stage}, is seated already: unseat it (and delete its "
        "results) before reopening the {stage}."
    ),
    "stage.early_open_end": gettext_noop(
        "the {stage} has no last round to end before: close it as it is"
    ),
    "stage.early_nothing": gettext_noop(
        "none of the {stage}'s rounds is seated yet: there is nothing to close"
    ),
    "stage.early_later": gettext_noop(
        "Round {round}, after the {stage}, is seated already: unseat it before closing the "
        "{stage} early."
    ),
    "stage.early_last": gettext_noop(
        "round {round} is the {stage}'s last already: close it as usual once it is played"
    ),
    # --- event files ---
    "file.large": gettext_noop(
        "{size} MB is over the {limit} MB limit for event files (EVENT_FILE_MAX_BYTES)"
    ),
    "file.missing": gettext_noop("no such file"),
    "file.folder": gettext_noop("is a folder, not an event file"),
    "file.encoding": gettext_noop("not UTF-8 text ({reason} at byte {byte})"),
    "file.json": gettext_noop("not a JSON event file ({error})"),
    "file.slug_taken": gettext_noop("an event called {slug!r} exists already (use --replace)"),
    "file.game": gettext_noop("{error}"),
    # --- series (seasons) ---
    "series.slug_taken": gettext_noop("a series called {slug!r} exists already"),
    "series.no_event": gettext_noop("there is no event at the address {slug!r}"),
    "series.event_twice": gettext_noop("{name} is in this series already"),
    # --- Tenhou game logs ---
    "tenhou.no_files": gettext_noop("choose one or more Tenhou game logs"),
    "tenhou.file": gettext_noop("{file}: {error}"),
    "tenhou.too_many": gettext_noop("at most {most} logs at once"),
    "tenhou.round": gettext_noop("{value!r} is not a round number (1–999)"),
    # A log's nickname that is neither a player's online name nor a player's name here.
    "tenhou.unknown_tenhou": gettext_noop(
        "{name} is no player of this event: give it as a player's Tenhou name on the "
        "organizer's player page, or as \"tenhou\" in that player's profiles in the event file"
    ),
    "tenhou.unknown_mahjongsoul": gettext_noop(
        "{name} is no player of this event: give it as a player's Mahjong Soul name on the "
        "organizer's player page, or as \"mahjongsoul\" in that player's profiles in the "
        "event file"
    ),
    "tenhou.platform": gettext_noop("{value!r} is not a platform: tenhou or mahjongsoul"),
    # An engine error made without a code (none should be): its English, as it is.
    "error.text": gettext_noop("{text}"),
}


def template(code: str) -> str:
    """The English template of a service or engine error code."""
    return MESSAGES.get(code) or ENGINE_MESSAGES[code]


class ServiceError(Exception):
    """`ServiceError(code, field, **params)`; `message` is the English (for commands, logs)."""

    def __init__(self, code: str, field: str = "", **params: Any) -> None:
        self.code = code
        self.field = field
        self.params = params
        self.message = template(code).format(**params)
        super().__init__(f"{field}: {self.message}" if field else self.message)

    @classmethod
    def engine(cls, exc: ScoringError, field: str | None = None) -> ServiceError:
        """The engine's error as a service error: its code, params and (unless given) field."""
        field = exc.field if field is None else field
        if not exc.code:
            return cls("error.text", field, text=exc.message)
        return cls(exc.code, field, **exc.params)


@contextmanager
def engine_errors(field: str | None = None) -> Iterator[None]:
    """Inside: an engine error comes out as a service error (its code, params and field, or
    `field`), so a service calls the engine without a try block of its own."""
    try:
        yield
    except ScoringError as exc:
        raise ServiceError.engine(exc, field) from None


class ConflictError(ServiceError):
    """Someone else saved the same game since this one was loaded (optimistic locking)."""


@contextmanager
def fields_within(prefix: str) -> Iterator[None]:
    """Inside: an error about a field within `prefix` names it from there on — the whole game
    says `hands[3].result.wins[1].seat`, a form of that one hand `result.wins[1].seat`."""
    try:
        yield
    except ServiceError as exc:
        if exc.field != prefix and not exc.field.startswith(prefix + "."):
            raise
        raise type(exc)(exc.code, exc.field[len(prefix) + 1 :], **exc.params) from None
