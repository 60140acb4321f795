"""The languages the server speaks (accounts/languages.py)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from grants.scopes import READ, scopes


class LanguageSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="For `me`'s `language`, and for `Accept-Language`")
    name = serializers.CharField(help_text="The language's name in itself (Español, हिन्दी)")
    bidi = serializers.BooleanField(help_text="Whether it is written right to left")


@scopes(GET=READ)
class LanguagesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses=LanguageSerializer(many=True),
        summary="The languages of the web client, the mails, the notices and the API's error details",
        description="English first, the server's default. A string a language lacks is given in English.",
    )
    def get(self, request: Request) -> Response:
        return Response(
            [
                {"code": code, "name": name, "bidi": translation.get_language_info(code)["bidi"]}
                for code, name in settings.LANGUAGES
            ]
        )
