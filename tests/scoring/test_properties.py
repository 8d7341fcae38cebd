"""Property tests: random valid hands, games and final scores keep the books balanced."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.emperor import DYNASTY_CARDS
from scoring.errors import ScoringError
from scoring.flow import GameFlow
from scoring.hands import YakumanWin, is_bust, parse_hand, price_hand
from scoring.presets import PRESETS
from scoring.rules import Ruleset
from scoring.settlement import Bust, settle
from tests.scoring.support import rules as ruleset

VARIANTS = [
    *PRESETS.values(),
    # Venues' own rules: every knob family exercised at least once.
    ruleset({"preset": "baba", "tie": "split", "leftover_deposits": "lost"}),
    ruleset({"preset": "jan-niki", "nagashi_multiple": "all", "multiple_ron_honba": "nearest"}),
    ruleset({"preset": "hyper", "tie": "split", "uma": [20, 10, -10, -20]}),
    ruleset(
        {
            "preset": "free-sanma",
            "bust_prize": 5,
            "yakuman_chips_tsumo": 5,
            "yakuman_chips_ron": 10,
            "uma": [10, 0, -10],
        }
    ),
    ruleset(
        {
            "preset": "emperor",
            "uma": {"3": [20, 0, -20], "4": [30, 10, -10, -30], "5": [30, 10, 0, -10, -30]},
        }
    ),
]
IDS = [f"{r.slug}-{i}" for i, r in enumerate(VARIANTS)]

FU = [30, 40, 50, 60, 70, 80, 90, 100, 110]


def riichi_win(draw: Any, r: Ruleset, seat: int, *, tsumo: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if draw(st.integers(0, 9)) == 0:
        steps = [1, 1.5, 2, 2.5, 3] if r.yakuman_half_steps else [1, 2, 3]
        most = r.yakuman_max if r.yakuman_max is not None else steps[-1]
        out["yakuman"] = draw(st.sampled_from([k for k in steps if k <= most]))
    else:
        han = draw(st.integers(1, 16))
        out["han"] = han
        if r.fu:
            options = list(FU)
            if han >= 2:
                options.append(25)
                if tsumo:
                    options.append(20)
            out["fu"] = draw(st.sampled_from(options))
    return out


def riichi_result(draw: Any, r: Ruleset, n: int, dealer: int) -> dict[str, Any]:
    kinds = ["ron", "tsumo", "draw", "chombo"]
    if r.nagashi:
        kinds.append("nagashi")
    if r.aborts:
        kinds.append("abort")
    kind = draw(st.sampled_from(kinds))
    seats = list(range(n))
    if kind == "ron":
        discarder = draw(st.sampled_from(seats))
        others = [s for s in seats if s != discarder]
        count = draw(st.integers(1, min(r.max_ron_winners, len(others))))
        winners = draw(st.permutations(others))[:count]
        wins = []
        for seat in winners:
            w = {"seat": seat, **riichi_win(draw, r, seat, tsumo=False)}
            if "yakuman" in w and draw(st.booleans()):
                w["pao"] = draw(st.sampled_from([s for s in seats if s != seat]))
            wins.append(w)
        return {"type": "ron", "discarder": discarder, "wins": wins}
    if kind == "tsumo":
        winner = draw(st.sampled_from(seats))
        w = {"type": "tsumo", "winner": winner, **riichi_win(draw, r, winner, tsumo=True)}
        if draw(st.integers(0, 4)) == 0:
            w["pao"] = draw(st.sampled_from([s for s in seats if s != winner]))
            if "yakuman" in w and w["yakuman"] >= 2 and draw(st.booleans()):
                w["pao_yakuman"] = 1
        return w
    if kind == "draw":
        return {"type": "draw", "tenpai": sorted(draw(st.sets(st.sampled_from(seats))))}
    if kind == "nagashi":
        return {
            "type": "nagashi",
            "winners": sorted(draw(st.sets(st.sampled_from(seats), min_size=1))),
        }
    if kind == "abort":
        return {"type": "abort", "reason": draw(st.sampled_from(sorted(r.aborts)))}
    return {"type": "chombo", "offender": draw(st.sampled_from(seats))}


def emperor_result(draw: Any, r: Ruleset, n: int, dealer: int) -> dict[str, Any]:
    kind = draw(st.sampled_from(["tsumo", "ron", "draw", "chombo"]))
    seats = list(range(n))
    if kind == "draw":
        return {"type": "draw", "tenpai": sorted(draw(st.sets(st.sampled_from(seats))))}
    if kind == "chombo":
        return {"type": "chombo", "offender": draw(st.sampled_from(seats))}
    winner = draw(st.sampled_from(seats))
    calls = draw(st.integers(0, 2))
    out: dict[str, Any] = {
        "type": kind,
        "winner": winner,
        "calls": calls,
        "bonus": draw(st.integers(0, 8)),
        "virtue": draw(st.integers(0, 7)),
    }
    specials = [None, "sansou"]
    if kind == "tsumo":
        specials.append("tenhou" if winner == dealer else "chiihou")
    special = draw(st.sampled_from(specials))
    if special:
        out["special"] = special
        if special != "sansou":
            out["calls"] = 0
        out["yaku"] = 0 if special == "sansou" else draw(st.integers(0, 10))
    else:
        out["yaku"] = draw(st.integers(min(10, r.emperor_min_yaku[n] + calls), 10))
        if out["yaku"] < r.emperor_min_yaku[n] + calls:
            out["calls"] = 0
    if kind == "ron":
        out["discarder"] = draw(st.sampled_from([s for s in seats if s != winner]))
    return out


def random_hand(
    draw: Any, r: Ruleset, n: int, dealer: int, scores: list[int] | None, last_hand: bool = False
) -> dict[str, Any]:
    if r.game == "emperor":
        return {"result": emperor_result(draw, r, n, dealer)}
    result = riichi_result(draw, r, n, dealer)
    able = [
        s
        for s in range(n)
        if scores is None or r.riichi_min_score is None or scores[s] >= r.riichi_min_score
    ]
    riichi = sorted(draw(st.sets(st.sampled_from(able)))) if able and r.riichi_stick else []
    if result["type"] == "draw":
        result["tenpai"] = sorted(set(result["tenpai"]) | set(riichi))
    hand: dict[str, Any] = {"riichi": riichi, "result": result}
    if r.penalty and draw(st.integers(0, 9)) == 0:
        hand["penalties"] = [draw(st.sampled_from(range(n)))]
    return hand


@pytest.mark.parametrize("r", VARIANTS, ids=IDS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_valid_hand_moves_points_without_creating_or_losing_any(r, data):
    draw = data.draw
    n = draw(st.sampled_from(r.player_counts))
    dealer = draw(st.integers(0, n - 1))
    honba = draw(st.integers(0, 6)) if r.honba else 0
    deposits = draw(st.integers(0, 5)) * 1000 if r.riichi_stick else 0
    emperor = draw(st.sampled_from([None, *range(n)])) if r.game == "emperor" else None
    if emperor is not None:
        dealer = emperor
    raw = random_hand(draw, r, n, dealer, None)
    hand = parse_hand(raw, r, n)
    out = price_hand(
        r, hand, players=n, dealer=dealer, honba=honba, deposits=deposits, emperor=emperor
    )
    assert sum(out.deltas) + (out.deposits - deposits) == 0
    assert out.deposits >= 0
    assert sum(p.amount for p in out.payments if p.payee == 0) - sum(
        p.amount for p in out.payments if p.payer == 0
    ) == out.deltas[0] + out.sticks[0] - sum(
        d.get("deposits", 0) for d in out.details if d["seat"] == 0
    )


@st.composite
def final_scores(draw: Any, r: Ruleset) -> tuple[int, list[int], int]:
    """Scores in 100s that sum to the table's total, some below zero, some far above."""
    n = draw(st.sampled_from(r.player_counts))
    deposits = draw(st.integers(0, 4)) * 1000 if r.riichi_stick else 0
    total = (n * r.start - deposits) // 100
    others = draw(st.lists(st.integers(-150, 2 * total // n), min_size=n - 1, max_size=n - 1))
    hundreds = [total - sum(others), *others]
    order = draw(st.permutations(range(n)))
    return n, [hundreds[i] * 100 for i in order], deposits


@pytest.mark.parametrize("r", VARIANTS, ids=IDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_tables_points_sum_to_zero_unless_deposits_were_lost(r, data):
    n, scores, deposits = data.draw(final_scores(r))
    busts = []
    for seat in range(n):
        if is_bust(r, scores[seat]):
            others = [s for s in range(n) if s != seat]
            busts.append(Bust(seat, tuple(data.draw(st.sets(st.sampled_from(others))))))
    wins = []
    for _ in range(data.draw(st.integers(0, 2))):
        winner = data.draw(st.integers(0, n - 1))
        others = [s for s in range(n) if s != winner]
        kind = data.draw(st.sampled_from(["tsumo", "ron"]))
        pao = data.draw(st.sampled_from([None, *others]))
        wins.append(
            YakumanWin(
                winner,
                kind,
                data.draw(st.sampled_from([1, 2])),
                data.draw(st.sampled_from(others)) if kind == "ron" else None,
                pao,
                1 if pao is not None else 0,
            )
        )
    result = settle(r, scores, deposits, busts, wins)
    total = sum(p.points for p in result.players)
    # Lost: every deposit, or (tied first places splitting them) less than 100 a tied seat.
    lost = result.deposits_lost
    assert lost == deposits if r.leftover_deposits == "lost" else 0 <= lost < 100 * n
    assert total == pytest.approx(-lost / r.point_value, abs=1e-6)
    assert sum(p.chips for p in result.players) == 0
    assert sorted(p.rank for p in result.players) == (
        list(range(1, n + 1)) if r.tie == "seat" else sorted(p.rank for p in result.players)
    )
    assert sum(p.score for p in result.players) == n * r.start - lost
    for p in result.players:  # one decimal at most
        assert round(p.points, 1) == p.points


LABEL = re.compile(r"^[ESWN][1-5]-\d+$|^\d+局目・(戦国時代|第\d+王朝 \d+代)$")


@pytest.mark.parametrize("r", VARIANTS, ids=IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_random_valid_game_never_reaches_an_impossible_state(r, data):
    draw = data.draw
    n = draw(st.sampled_from(r.player_counts))
    flow = GameFlow(r, n)
    for _ in range(40):
        if flow.over:
            break
        raw = random_hand(draw, r, n, flow.dealer, flow.scores)
        try:
            flow.play(parse_hand(raw, r, n))
        except ScoringError as exc:
            # Only a riichi the player cannot afford is refused, and nothing changes.
            assert exc.field == "riichi", exc
            continue
        assert sum(flow.scores) + flow.deposits == n * r.start
        assert 0 <= flow.dealer < n and flow.honba >= 0 and flow.deposits >= 0
        assert LABEL.match(flow.label), flow.label
        if r.game == "emperor":
            assert flow.dealer == (flow.emperor if flow.emperor is not None else 0)
            assert flow.counted <= (r.hands_per_game or 0)
            if flow.dynasty:
                assert flow.next() is None or flow.next()["dynasty_card"] in DYNASTY_CARDS
        else:
            assert flow.passes < flow.limit or flow.over
            assert flow.dealer == flow.passes % n
        if any(is_bust(r, s) for s in flow.scores):
            assert flow.over
        if flow.over:
            assert flow.next() is None
        else:
            assert flow.next()["dealer"] == flow.dealer
    if flow.over:
        with pytest.raises(ScoringError, match="over"):
            flow.play(parse_hand({"result": {"type": "draw", "tenpai": []}}, r, n))
    result = flow.settlement()
    lost = flow.deposits / r.point_value if r.leftover_deposits == "lost" else 0
    penalties = sum(p.points for p in flow.penalties)  # taken off, given to nobody
    assert sum(p.points for p in result.players) == pytest.approx(penalties - lost, abs=1e-6)
