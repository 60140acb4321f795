"""Shapes of the ratings' answers: profiles, the leaderboard, a player's matches."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from .serializers import GameKeyField, QuerySerializer


class RatingSerializer(serializers.Serializer[Any]):
    mu = serializers.FloatField(help_text="The rating's mean")
    sigma = serializers.FloatField(help_text="Its uncertainty")
    shown = serializers.FloatField(help_text="mu - 3 sigma: the conservative rating shown and ranked")
    matches = serializers.IntegerField(help_text="Rated matches in this game")


class MatchCountsSerializer(serializers.Serializer[Any]):
    played = serializers.IntegerField(help_text="Finished matches, rated or not")
    won = serializers.IntegerField(help_text="Finished matches won (shared wins count)")
    abandoned = serializers.IntegerField(help_text="Matches abandoned while the player sat in them")


class ProfileSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    display_name = serializers.CharField()
    ratings = serializers.DictField(child=RatingSerializer(), help_text="By game key; games never rated are absent")
    matches = MatchCountsSerializer()


class LeaderboardQuerySerializer(QuerySerializer):
    game = GameKeyField(max_length=20, help_text="The game's key (`hearts`, `moon`, `kali_tidi`)")


class LeaderboardRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="1 for the best shown rating")
    username = serializers.CharField()
    display_name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    shown = serializers.FloatField()
    matches = serializers.IntegerField()


class MatchPlayerSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    display_name = serializers.CharField()
    username = serializers.CharField(allow_null=True, help_text="null for a computer player")
    score = serializers.IntegerField(help_text="The final total")


class RatingChangeSerializer(serializers.Serializer[Any]):
    mu_before = serializers.FloatField()
    mu_after = serializers.FloatField()
    shown_before = serializers.FloatField()
    shown_after = serializers.FloatField()


class MatchSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    game = serializers.CharField()
    name = serializers.CharField()
    finished_at = serializers.DateTimeField()
    rated = serializers.BooleanField()
    seat = serializers.IntegerField(help_text="The player's seat")
    place = serializers.IntegerField(help_text="1 is first; sides that tie share a place")
    score = serializers.IntegerField(help_text="The player's final total")
    players = MatchPlayerSerializer(many=True)
    rating_change = RatingChangeSerializer(allow_null=True, help_text="null when the match was not rated")
