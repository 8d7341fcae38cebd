"""Reads for rounds and games, each a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, JSONField, OuterRef, Prefetch, QuerySet, Subquery

from scoring import GameFlow, parse_hand, replay
from scoring.settlement import settle
from tournament.models import AuditEntry, Event, Game, Hand, Round, Seat, SitOut
from tournament.selectors.sheets import last_first, seats_prefetch


def with_live_scores(games: QuerySet[Game]) -> QuerySet[Game]:
    """Each game with `live_scores`: the scores after its last hand (None before any). A game
    still played hand by hand writes one row a hand; its seats get their scores at the end."""
    last = last_first(Hand.objects.filter(game=OuterRef("pk"))).values("scores")[:1]
    return games.annotate(live_scores=Subquery(last, output_field=JSONField()))


def seat_score(seat: Seat, game: Game) -> int | None:
    """A seat's score: as stored, or — for a game still played hand by hand, whose seats get
    their scores when it ends — after its last hand (`with_live_scores`)."""
    if seat.score is not None:
        return seat.score
    live = getattr(game, "live_scores", None)
    return live[seat.position] if live and seat.position < len(live) else None


def _games_shown(games: QuerySet[Game]) -> QuerySet[Game]:
    """Games by table with their live scores, the label of their last hand (`last_hand`: a
    round's page says how far a table has played) and their seats with players, as a round's
    pages show them."""
    last = last_first(Hand.objects.filter(game=OuterRef("pk"))).values("label")[:1]
    shown = with_live_scores(games.order_by("table")).annotate(last_hand=Subquery(last))
    return shown.prefetch_related(seats_prefetch())


def round_games(rnd: Round) -> list[Game]:
    """A round's games as shown (two queries): a round's public page, made once per version
    of the event (round_detail.html)."""
    return list(_games_shown(Game.objects.filter(round=rnd)))


def round_list(event: Event) -> QuerySet[Round]:
    """Rounds with their games and seats (three queries), for the dashboard and round sheets."""
    return (
        Round.objects.filter(event=event)
        .order_by("number")
        .prefetch_related(
            Prefetch("games", _games_shown(Game.objects.all())),
            Prefetch("sit_outs", SitOut.objects.select_related("player")),
        )
    )


def round_listed(event: Event, number: int) -> Round | None:
    """One round as `round_list` reads it (three queries): a round's sheet to print."""
    try:
        return round_list(event).get(number=number)
    except Round.DoesNotExist:
        return None


def round_tables(event: Event) -> QuerySet[Round]:
    """Rounds with how many tables each (`tables`), for the dashboard's list of rounds. One
    query: `round_list`'s games and seats with their players (a thousand rows at 256 players,
    80 ms of the dashboard) were read there only to be counted."""
    return Round.objects.filter(event=event).order_by("number").annotate(tables=Count("games"))


def game_for_entry(event: Event, game_id: int, live_scores: bool = False) -> Game:
    """One game of the event with its round (and the round's event: the round clock reads its
    minutes), seats and players — and, asked for, its live scores (`with_live_scores`: the
    delete confirmation shows a game in play with them). Raises Game.DoesNotExist."""
    games = Game.objects.select_related("round__event").prefetch_related(seats_prefetch())
    return (with_live_scores(games) if live_scores else games).get(pk=game_id, round__event=event)


@dataclass
class Sheet:
    """A table's score sheet: the hands so far and the flow's state for the next hand."""

    game: Game
    names: list[str]
    hands: list[Hand]
    flow: GameFlow

    @property
    def next(self) -> dict[str, Any] | None:
        return self.flow.next()

    @property
    def can_stop(self) -> bool:
        return self.flow.rules.table_marks_stop and self.flow.is_last_hand

    def running(self) -> list[tuple[str, int]]:
        return list(zip(self.names, self.flow.scores, strict=True))

    def log(self) -> list[tuple[Hand, list[tuple[int, int]]]]:
        return hand_log(self.hands)


def hand_log(hands: list[Hand]) -> list[tuple[Hand, list[tuple[int, int]]]]:
    """Each hand with (change, score after) per seat, as the sheets show them."""
    return [(h, list(zip(h.deltas, h.scores, strict=True))) for h in hands]


def game_sheet(event: Event, game: Game) -> Sheet:
    """Replays the stored hands through the engine (they were checked when written)."""
    names = [s.player.name for s in game.seats.all()]
    hands = list(game.hands.order_by("number")) if game.mode == "hands" else []
    rules = event.rules
    flow = replay(
        rules,
        len(names),
        [parse_hand(h.data, rules, len(names), f"hands[{i}]") for i, h in enumerate(hands)],
    )
    return Sheet(game, names, hands, flow)


def game_was_removed(event: Event, game_id: int) -> bool:
    """Whether the event's log has this game's removal (a second tap on Delete), as against
    an id it never had. One query."""
    removed = AuditEntry.objects.filter(event=event, action="game.remove", after__game=game_id)
    return removed.exists()


def round_was_taken_back(event: Event, number: int) -> bool:
    """Whether the event's log has this round's seating taken back. One query."""
    taken = AuditEntry.objects.filter(event=event, action="round.unseat", before__round=number)
    return taken.exists()


def audit_list(event: Event, limit: int = 200) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(event=event).select_related("user")[:limit]


def game_detail(event: Event, game_id: int) -> Game:
    """A game for its public sheet: round, seats with players, hands (three queries)."""
    return (
        with_live_scores(Game.objects.select_related("round"))
        .prefetch_related(
            seats_prefetch(),
            Prefetch("hands", Hand.objects.order_by("number")),
        )
        .get(pk=game_id, round__event=event)
    )


def deposits_lost(event: Event, game: Game) -> int:
    """The deposits a finished game's settlement gives to nobody (a `wrc` table's leftover
    sticks), as the engine settles its stored scores and the deposits left at its end (the
    last hand's, for a game kept hand by hand); 0 while it is played. Reads the game's seats
    and hands as prefetched (`game_detail`): no query of its own."""
    seats = list(game.seats.all())
    if not game.finished or any(s.score is None for s in seats):
        return 0
    if game.mode == "hands":
        hands = list(game.hands.all())
        left = hands[-1].deposits if hands else 0
    else:
        left = game.deposits
    return settle(event.rules, [s.score for s in seats], deposits=left).deposits_lost
