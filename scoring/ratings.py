"""Ratings across events (issue 34, CONTRACT §4): each player's skill, updated once per finished
game in the order the games were played, by openskill's Plackett–Luce model with its default
parameters (Weng & Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12, 2011).
Plackett–Luce models a placing of several players directly — a hanchan's 1st to 4th (or 3rd)
is one observation, not six pairwise results as Elo would need.

A skill is a mean `mu` (25 for a newcomer) and an uncertainty `sigma` (25/3). What the site
shows is the model's ordinal, mu − 3·sigma (a skill the player has with 99.7 % confidence),
on the site's scale: `SCALE_TARGET + SCALE_ALPHA × ordinal` — a newcomer shows 1000, and each
point of mu is 40. The ordinal rises with games played as sigma shrinks: "the most active
player" is not simply on top, but one game is not enough to be either.

Pure data: the app stores skills and calls `rate` per game (tournament/services/ratings.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
SCALE_ALPHA = 40.0  # rating points per point of the ordinal
SCALE_TARGET = 1000.0  # what a newcomer (ordinal 0) shows


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float
    games: int = 0

    @property
    def rating(self) -> float:
        """What the site shows: the ordinal on the site's scale, to one decimal."""
        return shown(self.mu, self.sigma)


NEW = Skill(MODEL.mu, MODEL.sigma, 0)


def shown(mu: float, sigma: float) -> float:
    ordinal = MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=SCALE_ALPHA, target=SCALE_TARGET)
    return round(ordinal, 1)


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Every player's skill after one game: `skills` in seat order, `places` their places at
    the table (1 best; equal places are a shared place)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        Skill(team[0].mu, team[0].sigma, s.games + 1) for team, s in zip(after, skills, strict=True)
    ]
