"""The rating model (OpenSkill's Plackett-Luce) and one match's update."""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from .standings import Side

MODEL = PlackettLuce()
# A computer player is an opponent of this rating, the model's starting one; it never
# changes, so a match against computers measures people against a fixed yardstick.
BOT_MU = MODEL.mu
BOT_SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """Conservative: the player is very likely at least this good."""
        return self.mu - 3 * self.sigma


START = Skill(MODEL.mu, MODEL.sigma)


def rate(sides: list[Side], skills: dict[int, Skill]) -> dict[int, Skill]:
    """New skills of the seats in `skills` (the people); the other seats are
    computer players. Sides are rated as OpenSkill teams by their places."""
    teams = [
        [
            MODEL.rating(mu=skills[s].mu, sigma=skills[s].sigma) if s in skills else MODEL.rating(BOT_MU, BOT_SIGMA)
            for s in side.seats
        ]
        for side in sides
    ]
    rated = MODEL.rate(teams, ranks=[float(side.place) for side in sides])
    out: dict[int, Skill] = {}
    for side, team in zip(sides, rated, strict=True):
        for seat, r in zip(side.seats, team, strict=True):
            if seat in skills:
                out[seat] = Skill(float(r.mu), float(r.sigma))
    return out
