"""A read log played through a ruleset, hand by hand, against what the log recorded."""

from __future__ import annotations

import json

from scoring.errors import LogPart, ScoringError
from scoring.flow import GameFlow
from scoring.hand_parse import parse_hand
from scoring.messages import fail
from scoring.rules import Ruleset
from scoring.tenhou.records import LogHand, TenhouLog


def check_log(rules: Ruleset, log: TenhouLog) -> GameFlow:
    """Play the log's hands through `rules`, hand by hand, and compare everything the log
    recorded: labels, dealers, honba, deposits, score changes, the end, final scores and
    points. Raises ScoringError naming the first hand (`hands[7]`, with its label) that
    differs; returns the finished flow."""
    n = log.size
    flow = GameFlow(rules, n)
    for i, logged in enumerate(log.hands):
        where = f"hands[{i}]"
        if flow.over:
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
        raise fail("log.not_over", "log", hand=log.hands[-1].label)
    if not log.final_scores:
        return flow  # a log without its end (a viewer's excerpt): nothing more to compare
    result = flow.settlement()
    scores = [p.score for p in result.players]
    points = [p.points for p in result.players]
    if scores != log.final_scores:
        raise fail("log.final", "log", what=LogPart("scores"), log=log.final_scores, ours=scores)
    if points != log.final_points:
        if _whole(log.final_points) and not _whole(points):
            # Tenhou's whole-point years (docs/rulesets.md, tenhou-sanma's rounding): say which
            # knob replays the log rather than only that the points differ.
            raise fail("log.final_whole", "log", log=log.final_points, ours=points)
        raise fail("log.final", "log", what=LogPart("points"), log=log.final_points, ours=points)
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


def _whole(points: list[float]) -> bool:
    return all(float(p).is_integer() for p in points)
