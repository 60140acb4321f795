"""Matches played out through the services, by people and computer players."""

from __future__ import annotations

import random
from typing import Any

from accounts.models import User
from games import rules, selectors
from games.models import Room
from games.rules import templates
from games.services import lobby, play
from tests.rules.support import without_claim


def room_ready(
    game: str, options: dict[str, Any], people: list[User], bots: int = 0, teams: list[int] | None = None
) -> Room:
    """A started room: people in order (the first hosts), then computer players."""
    host = people[0]
    room = lobby.room_create(host=host, game=game, options=options)
    for i, user in enumerate(people[1:], start=1):
        lobby.room_join(code=room.code, user=user, team=teams[i] if teams else None)
    for j in range(bots):
        lobby.room_add_bot(code=room.code, user=host, team=teams[len(people) + j] if teams else None)
    lobby.room_start(code=room.code, user=host)
    room.refresh_from_db()
    return room


def play_out(room: Room, people: list[User], seed: int, max_moves: int = 4000) -> Room:
    """Random legal moves by the people until the match ends."""
    rng = random.Random(seed)
    game = rules.get(room.game)
    for _ in range(max_moves):
        room.refresh_from_db()
        if room.status != "playing":
            return room
        for user in people:
            view = selectors.view_by_code(code=room.code, user=user)
            if view["you"]["seat"] in view["to_act"] and view["you"]["legal_actions"]:
                legal = without_claim(view["you"]["legal_actions"])
                template = rng.choice(legal)
                action = templates.concrete(template, game.action_fields[template["type"]], rng)
                play.action_submit(code=room.code, user=user, version=view["version"], action=action)
                break
        else:
            raise AssertionError(f"nobody can act: {view['phase']} {view['to_act']}")
    raise AssertionError("the match did not end")
