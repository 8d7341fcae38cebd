"""Game flow: from the hands played, who deals, honba, deposits, labels and the end (RULES.md §2).

`GameFlow` is fed one hand at a time (the table's score sheet) or a whole list (`replay`). It
refuses a hand after the game is over, and collects what settlement needs — busts and who
caused them, every yakuman — so a game recorded hand by hand settles with no extra input.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring import emperor as emp
from scoring.busts import busts_after
from scoring.errors import ScoringError
from scoring.game_types import game_type
from scoring.hand_types import Abort, Chombo, Draw, Hand, HandOutcome, Nagashi, YakumanWin
from scoring.knobs import WINDS
from scoring.messages import fail
from scoring.payments import price_hand
from scoring.rules import Ruleset
from scoring.settlement import Bust, Penalty, Settlement, rank_order, settle


@dataclass
class HandRecord:
    label: str
    dealer: int
    honba: int
    deltas: list[int]
    scores: list[int]  # after the hand
    deposits: int  # on the table after the hand
    outcome: HandOutcome
    busts: list[Bust] = field(default_factory=list)
    emperor: int | None = None  # emperor game: the emperor during the hand

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label,
            "dealer": self.dealer,
            "honba": self.honba,
            "scores": self.scores,
            **self.outcome.to_json(),
        }
        if self.busts:
            out["busts"] = [b.to_json() for b in self.busts]
        if self.emperor is not None:
            out["emperor"] = self.emperor
        return out


class GameFlow:
    """The state of one game between hands."""

    def __init__(self, rules: Ruleset, players: int) -> None:
        if players not in rules.player_counts:
            counts = " or ".join(str(c) for c in rules.player_counts)
            raise fail("players.count", "players", venue=rules.slug, counts=counts, players=players)
        self.rules = rules
        self.game = game_type(rules)
        self.n = players
        self.scores = [rules.start] * players
        self.dealer = 0
        self.honba = 0
        self.deposits = 0
        self.over = False
        self.records: list[HandRecord] = []
        self.busts: list[Bust] = []
        self.yakuman: list[YakumanWin] = []
        self.penalties: list[Penalty] = []  # chombo as a penalty on the result (EMA)
        # Riichi: how many times the deal has passed, and how many it may pass before the end.
        self.passes = 0
        self.limit = rules.winds * players
        self.extended = False
        # Emperor: counted hands, the emperor and the dynasty.
        self.counted = 0
        self.emperor: int | None = None
        self.dynasty = 0
        self.generation = 0

    # --- what comes next ----------------------------------------------------------------------

    @property
    def label(self) -> str:
        if not self.game.rotating_deal:
            return emp.label(self.counted + 1, self.dynasty, self.generation)
        wind = WINDS[self.passes // self.n]
        return f"{wind}{self.passes % self.n + 1}-{self.honba}"

    @property
    def wind(self) -> str:
        return WINDS[min(self.passes // self.n, len(WINDS) - 1)]

    def next(self) -> dict[str, Any] | None:
        if self.over:
            return None
        out: dict[str, Any] = {"label": self.label, "dealer": self.dealer, "honba": self.honba}
        if not self.game.rotating_deal:
            out["emperor"] = self.emperor
            if self.dynasty:
                out["dynasty_card"] = emp.dynasty_card(self.dynasty)
        return out

    @property
    def is_last_hand(self) -> bool:
        """The hand to play is the game's last if the deal passes (オーラス), or — in the emperor
        game — the last counted hand."""
        if not self.game.rotating_deal:
            return self.counted == (self.rules.hands_per_game or 0) - 1
        return self.passes == self.limit - 1

    @classmethod
    def at_last_hand(
        cls,
        rules: Ruleset,
        scores: Sequence[int],
        *,
        dealer: int,
        honba: int = 0,
        deposits: int = 0,
        extended: bool = False,
        emperor: int | None = None,
    ) -> GameFlow:
        """A game about to play its last hand with these scores (CONTRACT §6: the table's
        state is all a caller knows). `extended`: the hand is the extension's last (West 4).
        Emperor game: its last counted hand, `emperor` reigning (or none yet)."""
        flow = cls(rules, len(scores))
        flow.scores = list(scores)
        flow.honba = honba
        flow.deposits = deposits
        if flow.game.rotating_deal:
            if extended:
                flow.extended = True
                flow.limit += rules.extension_winds * flow.n
            flow.passes = flow.limit - 1
            flow.dealer = dealer
        else:
            flow.counted = (rules.hands_per_game or 1) - 1
            flow.emperor = emperor
            if emperor is not None:
                flow.dynasty = flow.generation = 1
            flow.dealer = emperor if emperor is not None else dealer
        return flow

    def fork(self) -> GameFlow:
        """An independent copy to play a hand on (what-if: conditions try every win)."""
        other = copy.copy(self)
        other.scores = list(self.scores)
        other.records = list(self.records)
        other.busts = list(self.busts)
        other.yakuman = list(self.yakuman)
        other.penalties = list(self.penalties)
        return other

    # --- playing a hand -----------------------------------------------------------------------

    def play(self, hand: Hand) -> HandRecord:
        if self.over:
            last = self.records[-1].label if self.records else "the start"
            raise fail("game.over", "", last=last)
        rules = self.rules
        outcome = price_hand(
            rules,
            hand,
            players=self.n,
            dealer=self.dealer,
            honba=self.honba,
            deposits=self.deposits,
            scores=self.scores,
            emperor=self.emperor,
        )
        before = self.scores
        scores = [a + b for a, b in zip(before, outcome.deltas, strict=True)]
        record = HandRecord(
            self.label,
            self.dealer,
            self.honba,
            outcome.deltas,
            scores,
            outcome.deposits,
            outcome,
            emperor=None if self.game.rotating_deal else self.emperor,
        )
        record.busts = busts_after(rules, outcome, before)
        if not self.game.rotating_deal:
            if hand.stop:
                raise fail("stop.emperor", "stop")
            self._advance_emperor(hand, outcome)
        else:
            self._advance_riichi(hand, outcome, scores, bool(record.busts))
        if hand.time_up:
            # The round's time ran out during this hand: the game ends with it, settled as it
            # stands (a venue playing on to the end of a wind does not mark it).
            self.over = True
        self.scores = scores
        self.deposits = outcome.deposits
        self.records.append(record)
        self.busts.extend(record.busts)
        self.yakuman.extend(outcome.yakuman)
        if isinstance(hand.result, Chombo) and rules.chombo == "result_penalty":
            self.penalties.append(Penalty(hand.result.offender, -rules.chombo_points))
        return record

    def _advance_riichi(
        self, hand: Hand, outcome: HandOutcome, scores: list[int], busted: bool
    ) -> None:
        rules = self.rules
        result = hand.result
        dealer_tenpai = False
        if isinstance(result, Chombo):
            keeps, honba = True, self.honba  # the same hand is replayed
            if hand.stop:
                raise fail("stop.chombo", "stop")
        elif isinstance(result, Nagashi) and rules.nagashi_flow == "draw":
            dealer_tenpai = self.dealer in result.tenpai  # an exhaustive draw for the deal
            keeps, honba = self._draw_keeps(dealer_tenpai), self.honba + 1
        elif outcome.winners:
            keeps = self.dealer in outcome.winners
            honba = self.honba + 1 if keeps else 0
        else:
            honba = self.honba + 1
            if isinstance(result, Abort):
                rule = rules.aborts[result.reason]
                keeps = rule == "repeat" or (rule == "draw" and self._draw_keeps(False))
            else:
                assert isinstance(result, Draw)
                dealer_tenpai = self.dealer in result.tenpai
                keeps = self._draw_keeps(dealer_tenpai)
        if hand.stop:
            self._check_stop(outcome, scores)
            keeps = False  # the dealer ends the last hand here
        passes = self.passes + (0 if keeps else 1)
        over = busted or (keeps and self._stops_by_itself(outcome, scores, dealer_tenpai))
        if not over and passes >= self.limit:
            top = max(scores)
            if (
                not self.extended
                and rules.extension_below is not None
                and top < rules.extension_below
            ):
                self.extended = True
                self.limit += rules.extension_winds * self.n
            else:
                over = True
        if (
            not over
            and self.extended
            and rules.extension_sudden_death
            and rules.extension_below is not None
            and max(scores) >= rules.extension_below
        ):
            over = True
        if not over:
            self.passes = passes
            self.honba = honba
            self.dealer = passes % self.n
        self.over = over

    def _draw_keeps(self, dealer_tenpai: bool) -> bool:
        rule = self.rules.renchan_on_draw[self.wind]
        return rule == "always" or (rule == "tenpai" and dealer_tenpai)

    def _stops_by_itself(
        self, outcome: HandOutcome, scores: list[int], dealer_tenpai: bool
    ) -> bool:
        """Tenhou's アガリやめ / テンパイやめ: the last hand's dealer, having won it or been tenpai
        at its draw, is first (and has reached the score an extension waits for)."""
        rules = self.rules
        if rules.agari_yame != "auto" or not self.is_last_hand:
            return False
        if self.dealer not in outcome.winners and not dealer_tenpai:
            return False
        target = rules.extension_below
        return rank_order(rules, scores)[0] == self.dealer and (
            target is None or scores[self.dealer] >= target
        )

    def _check_stop(self, outcome: HandOutcome, scores: list[int]) -> None:
        rules = self.rules
        if not rules.table_marks_stop:
            raise fail("stop.never", "stop", venue=rules.slug)
        if self.dealer not in outcome.winners:
            raise fail("stop.not_won", "stop")
        if not self.is_last_hand:
            raise fail("stop.not_last", "stop", hand=self.label)
        if rules.agari_yame == "if_top" and rank_order(rules, scores)[0] != self.dealer:
            raise fail("stop.not_top", "stop")

    def _advance_emperor(self, hand: Hand, outcome: HandOutcome) -> None:
        if isinstance(hand.result, Chombo):
            return  # replayed; it does not count
        self.counted += 1
        details = outcome.details[0] if outcome.details else None
        if details and details["virtuous"] and details["seat"] != self.emperor:
            self.emperor = details["seat"]  # a new dynasty
            self.dynasty += 1
            self.generation = 1
        elif self.emperor is not None:
            self.generation += 1
        if self.emperor is not None:
            self.dealer = self.emperor
        self.over = self.counted >= (self.rules.hands_per_game or 0)

    # --- the end ------------------------------------------------------------------------------

    def settlement(self, penalties: Sequence[Penalty] = ()) -> Settlement:
        """The result as the game stands; `penalties` are added to the game's own (chombo)."""
        return settle(
            self.rules,
            self.scores,
            self.deposits,
            self.busts,
            self.yakuman,
            [*self.penalties, *penalties],
        )


def replay(
    rules: Ruleset, players: int, hands: Sequence[Hand], played: GameFlow | None = None
) -> GameFlow:
    """Play every hand in order; an error names the hand (`hands[7].result.fu: …`).
    `played`: a flow that has played the game's first hands already — `hands` are the ones
    after them, played on it (it is the flow returned: the caller gives it up)."""
    flow = played if played is not None else GameFlow(rules, players)
    for i, hand in enumerate(hands, len(flow.records)):
        try:
            flow.play(hand)
        except ScoringError as exc:
            raise exc.within(f"hands[{i}]") from None
    return flow
