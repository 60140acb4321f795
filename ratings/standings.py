"""Where each seat finished a match: its side and its place, from the engine's result
of the hand that ended it. Plain Python, so the live update and the rebuild share it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import rules


@dataclass(frozen=True)
class Side:
    seats: tuple[int, ...]
    place: int  # 1 is first; sides that tie share a place


def sides_of(game: str, result: dict[str, Any], players: int) -> list[tuple[int, ...]]:
    """The sides that played the match out, as the game says of its result
    (`Game.result_sides`: partnerships, or each player alone). Every seat must be in
    exactly one: a seat left out would have no place."""
    sides = [tuple(sorted(side)) for side in rules.get(game).result_sides(result)]
    seated = sorted(seat for side in sides for seat in side)
    if seated != list(range(players)):
        raise ValueError(f"The sides of a {game} result, {sides}, do not hold each of its {players} seats once.")
    return sides


def standings(game: str, result: dict[str, Any], players: int) -> list[Side]:
    """The sides in order of finish. The engine's winners come first (Moon's bidder
    side may win without the highest total); the rest by their best member's total, the
    lowest first where the game counts penalty points (`Game.lowest_wins`)."""
    scores: list[int] = list(result["scores"])
    winners = set(result.get("winners") or ())
    sign = 1 if rules.get(game).lowest_wins else -1

    def key(side: tuple[int, ...]) -> tuple[int, int]:
        best = min(sign * scores[s] for s in side)
        return (0 if winners & set(side) else 1, best)

    ordered = sorted(sides_of(game, result, players), key=key)
    out: list[Side] = []
    for i, side in enumerate(ordered):
        place = out[-1].place if out and key(side) == key(ordered[i - 1]) else i + 1
        out.append(Side(side, place))
    return out
