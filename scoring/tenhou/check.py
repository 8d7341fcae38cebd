"""A read log played through a ruleset, hand by hand, against what the log recorded."""

from __future__ import annotations

import json

from scoring.errors import LogPart, ScoringError
from scoring.flow import GameFlow
from scoring.hand_parse import parse_hand
from scoring.messages import fail
from scoring.rules import Ruleset
from scoring.settlement import settle
from scoring.tenhou.records import LogHand, TenhouLog


def check_log(rules: Ruleset, log: TenhouLog) -> GameFlow:
    """Play the log's hands through `rules`, hand by hand, and compare everything the log
    recorded: labels, dealers, honba, deposits, score changes, the end, final scores and
    points. Raises ScoringError naming the first hand (`hands[7]`, with its label) that
    differs; returns the finished flow.

    A log whose points are printed in the platform's earlier rounding (`rules.rounding_earlier`:
    Tenhou's whole points until 2020–22) and not in today's is that era's game: it is checked
    with that rounding, and the flow returned plays under it (`flow.rules.rounding` says which
    rounding the log's game keeps)."""
    flow = _replay(rules, log)
    if not log.final_scores:
        return flow  # a log without its end (a viewer's excerpt): nothing more to compare
    scores = [p.score for p in flow.settlement().players]
    if scores != log.final_scores:
        raise fail("log.final", "log", what=LogPart("scores"), log=log.final_scores, ours=scores)
    points = _points(rules, flow)
    if points == log.final_points:
        return flow
    earlier = rules.rounding_earlier
    if earlier is not None and earlier != rules.rounding:
        then = rules.replace(rounding=earlier)
        if _points(then, flow) == log.final_points:
            return _replay(then, log)
    # Printed in another rounding than any this ruleset has: name the knob that replays it.
    if _whole(log.final_points) and not _whole(points):
        raise fail("log.final_whole", "log", log=log.final_points, ours=points)
    if _whole(points) and not _whole(log.final_points):
        raise fail("log.final_tenths", "log", log=log.final_points, ours=points)
    raise fail("log.final", "log", what=LogPart("points"), log=log.final_points, ours=points)


def _replay(rules: Ruleset, log: TenhouLog) -> GameFlow:
    """The log's hands played through `rules` and compared hand by hand, to the game's end."""
    n = log.size
    flow = GameFlow(rules, n)
    for i, logged in enumerate(log.hands):
        where = f"hands[{i}]"
        if flow.over:
            if log.east_south and rules.winds < 2:
                # An East-South log under East-only rules: name the knob, not only the hand.
                raise fail("log.east_south", where, hand=logged.label)
            raise fail("log.after_end", where, hand=logged.label)
        state = (flow.label, flow.dealer, flow.honba, flow.deposits, list(flow.scores))
        wanted = (logged.label, logged.dealer, logged.honba, logged.deposits, logged.before)
        for what, ours, theirs in zip(
            ("label", "dealer", "honba", "deposits", "scores"), state, wanted, strict=True
        ):
            if ours != theirs:
                raise fail(
                    "log.differs",
                    where,
                    hand=logged.label,
                    what=LogPart(what),
                    log=theirs,
                    ours=ours,
                )
        try:
            record = flow.play(parse_hand(logged.hand, rules, n, where))
        except ScoringError as exc:
            raise fail(
                "log.refused", where, hand=logged.label, reason=f"{exc.field}: {exc.message}"
            ) from None
        if record.deltas != logged.deltas:
            raise fail(
                "log.differs",
                where,
                hand=logged.label,
                what=LogPart("deltas"),
                log=logged.deltas,
                ours=record.deltas,
            )
        _double_yakuman(rules, logged, where)
    if not flow.over:
        last = log.hands[-1].label
        if not log.east_south and rules.winds > 1:
            # The reader saw 東 in the log's rule (or the GO type's East-only flag).
            raise fail("log.east_only", "log", hand=last)
        raise fail("log.not_over", "log", hand=last)
    return flow


def _double_yakuman(rules: Ruleset, logged: LogHand, where: str) -> None:
    """The log read each yakuman win's count from what it paid (64000 to a non-dealer: 2); a
    ruleset that counts those yakuman otherwise (`double_yakuman`) would not have paid it so.
    The deltas agree by then, so the knob is the one difference: the refusal names it."""
    for win in logged.yakuman:
        ours = win.count_under(rules.double_yakuman)
        if win.kinds and ours != win.count:
            raise fail(
                "log.double_yakuman",
                where,
                hand=logged.label,
                yaku=", ".join(win.kinds),
                log=win.count,
                ours=ours,
                double=json.dumps(list(rules.double_yakuman)),
            )


def _points(rules: Ruleset, flow: GameFlow) -> list[float]:
    """The final points `rules` gives the game `flow` played to its end (the rounding may
    differ from the flow's own: the hands, and so the end, are the same)."""
    result = settle(rules, flow.scores, flow.deposits, flow.busts, flow.yakuman, flow.penalties)
    return [p.points for p in result.players]


def _whole(points: list[float]) -> bool:
    return all(float(p).is_integer() for p in points)
