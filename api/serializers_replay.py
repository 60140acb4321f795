"""The replay of a finished match, as the OpenAPI document describes it (the answer is
built by games.replay; these serializers only document it)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from .serializers_chat import ChatLineSerializer


class ReplayPlayerSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    display_name = serializers.CharField()
    username = serializers.CharField(allow_null=True, help_text="null for a computer player's seat")
    is_bot = serializers.BooleanField(help_text="A computer player held the seat when the match ended")


class ReplayDealSerializer(serializers.Serializer[Any]):
    hands = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Each seat's hand as first dealt, in seat order (Kali Tidi: once the left-out cards are removed)",
    )
    widow = serializers.ListField(child=serializers.CharField(), help_text="Moon's widow; empty in the other games")


class ReplayPlaySerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    card = serializers.CharField(required=False, help_text="Hearts and Kali Tidi")
    tile = serializers.CharField(required=False, help_text="Moon")


class ReplayActionSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(help_text="The action's order within the hand, from 1")
    seat = serializers.IntegerField()
    action = serializers.DictField(help_text="The action as the engine applied it (the shapes of the actions endpoint)")
    automatic = serializers.BooleanField(
        help_text="The server acted for the seat: its time ran out, a forced play, or a claim played out"
    )
    by_bot = serializers.BooleanField(help_text="A computer player chose it")
    claimed = serializers.BooleanField(
        help_text="A play the server made to play out an accepted claim: the claim is the step before the "
        "first of them, and all share its `seq`"
    )
    phase = serializers.CharField(help_text="The hand's phase after the action")
    hands = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Every seat's hand after the action, face up",
    )
    trick = ReplayPlaySerializer(
        many=True, help_text="The cards or tiles on the table after the action; a trick just completed stays whole"
    )
    trick_winner = serializers.IntegerField(
        allow_null=True, help_text="The seat that took the trick this action completed, else null"
    )
    trump = serializers.JSONField(
        allow_null=True, help_text="The trumps named so far (a suit, or Moon's number), as in the game view"
    )


class ReplayHandSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    deal = ReplayDealSerializer()
    actions = ReplayActionSerializer(many=True)
    result = serializers.DictField(help_text="The hand's result, as `rounds` gives it")


REPLAY_CHAT_MAX = 1000


class ReplaySerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    game = serializers.CharField()
    name = serializers.CharField(help_text="The room's name, possibly empty")
    options = serializers.DictField(help_text="The room's options, complete")
    finished_at = serializers.DateTimeField(allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="The match totals, in seat order")
    players = ReplayPlayerSerializer(many=True)
    hands = ReplayHandSerializer(many=True, help_text="Every hand played, in order")
    chat = ChatLineSerializer(
        many=True,
        help_text=f"The table talk the caller reads (as `GET chat` shows it: a player never reads a spectator's "
        f"line said during a hand), oldest first, at most {REPLAY_CHAT_MAX} lines (`GET chat` pages through all)",
    )
