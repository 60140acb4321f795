"""The API's errors in each language it speaks (#45): the same refusal answers with the
same code and status in English, Spanish, Hindi and Gujarati, its detail the sentence
the language's catalogue (locale/) has for it, with its parameters filled in. The
refusals of the rules engines (their templates, games/rules/errors.py), of the services,
and DRF's and Django's own messages (core/framework_messages.py) alike."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polib
import pytest
import time_machine
from django.apps import apps
from django.conf import settings
from django.contrib.auth.password_validation import get_default_password_validators
from django.core.cache import cache
from django.urls import get_resolver
from django.utils import translation
from rest_framework import exceptions, pagination, serializers
from rest_framework.test import APIClient
from rest_framework.throttling import UserRateThrottle

from accounts.models import User
from games import rules
from games.errors import from_rule
from games.rules.cards import deck
from games.rules.errors import Plural, RuleError, gettext_noop, ngettext_lazy
from games.rules.kali_tidi.engine import KaliTidi
from tests.api.helpers import act, state

LOCALE = Path(settings.LOCALE_PATHS[0])
SHIPPED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
LANGUAGES = [settings.LANGUAGE_CODE, *SHIPPED]
RULES_DIR = Path(rules.__file__).parent
MARKERS = {"gettext_noop", "ngettext_lazy"}

pytestmark = pytest.mark.django_db


def catalogue(code: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / code / "LC_MESSAGES" / "django.po"))


CATALOGUES = {code: catalogue(code) for code in SHIPPED}


def sentence(code: str, msgid: str, plural: str | None = None, n: int = 1) -> str:
    """What the catalogue of `code` says for `msgid` (English: the msgid itself); the
    form for `n` of a plural entry (every shipped language has two forms, `n != 1`)."""
    if code == settings.LANGUAGE_CODE:
        return msgid if plural is None or n == 1 else plural
    entry = CATALOGUES[code].find(msgid)
    assert entry is not None and entry.translated() and "fuzzy" not in entry.flags, (code, msgid)
    if plural is None:
        assert not entry.msgid_plural, msgid
        return entry.msgstr
    assert entry.msgid_plural == plural, (msgid, entry.msgid_plural)
    return entry.msgstr_plural[0 if n == 1 else 1]


def the_error(res: Any) -> dict[str, Any]:
    body = res.json()
    assert set(body) == {"type", "errors"} and len(body["errors"]) == 1, body
    error: dict[str, Any] = body["errors"][0]
    return error


def answered(send: Any, status: int, code: str, attr: str | None, expected: Any) -> None:
    """`send(language)` answers the same error in every language, its detail what
    `expected(language)` says, and in every shipped language not the English."""
    details = {}
    for language in LANGUAGES:
        res = send(language)
        error = the_error(res)
        assert (res.status_code, error["code"], error["attr"]) == (status, code, attr), (language, error)
        assert res["Content-Language"] == language
        assert error["detail"] == expected(language), language
        details[language] = error["detail"]
    english = details[settings.LANGUAGE_CODE]
    assert all(details[code] != english for code in SHIPPED), details


# -- through the API -------------------------------------------------------------------


@pytest.fixture
def passing_table(api_client, make_user) -> tuple[str, dict[int, Any]]:
    """A started Hearts room of four people, in its passing phase: (code, {seat: client})."""
    users = [make_user() for _ in range(4)]
    clients = {seat: api_client(user) for seat, user in enumerate(users)}
    res = clients[0].post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json")
    assert res.status_code == 201, res.content
    code = res.json()["code"]
    for seat in (1, 2, 3):
        assert clients[seat].post(f"/api/v1/rooms/{code}/join", {}, format="json").json()["seat"] == seat
    assert clients[0].post(f"/api/v1/rooms/{code}/start").status_code == 200
    return code, clients


def test_a_rule_refusal_with_a_card_names_it_in_each_language(passing_table):
    code, clients = passing_table
    view = state(clients[0], code)
    hand = view["you"]["hand"]
    not_mine = next(c for c in deck() if c not in hand)
    pass_ = {"type": "pass_cards", "cards": [not_mine, hand[0], hand[1]]}
    answered(
        lambda language: act(clients[0], code, view["version"], pass_, HTTP_ACCEPT_LANGUAGE=language),
        400,
        "card_not_in_hand",
        "cards",
        lambda language: sentence(language, "You do not hold %(card)s.") % {"card": not_mine},
    )
    assert state(clients[0], code) == view


def test_not_your_turn_in_each_language(passing_table):
    code, clients = passing_table
    view = state(clients[0], code)
    passed = act(clients[0], code, view["version"], {"type": "pass_cards", "cards": view["you"]["hand"][:3]})
    assert passed.status_code == 200, passed.content
    # Seat 0 has passed; the others have not: it is not seat 0's turn.
    view = state(clients[0], code)
    again = {"type": "pass_cards", "cards": view["you"]["hand"][:3]}
    answered(
        lambda language: act(clients[0], code, view["version"], again, HTTP_ACCEPT_LANGUAGE=language),
        409,
        "not_your_turn",
        None,
        lambda language: sentence(language, "It is not your turn."),
    )


def test_a_refusal_that_names_the_game_names_it_in_each_language(passing_table):
    """The engine quotes its game's English name; the sentence names it as the language
    does (games/names.py)."""
    code, clients = passing_table
    view = state(clients[0], code)

    def hearts(language: str) -> str:
        if language == settings.LANGUAGE_CODE:
            return "Hearts"
        entry = CATALOGUES[language].find("Hearts", msgctxt="game")
        assert entry is not None and entry.msgstr, language
        return entry.msgstr

    bid = {"type": "bid", "bid": 7}  # Kali Tidi's, not Hearts'
    answered(
        lambda language: act(clients[0], code, view["version"], bid, HTTP_ACCEPT_LANGUAGE=language),
        400,
        "unknown_action",
        "type",
        lambda language: sentence(language, "%(game)s has no action of that type.") % {"game": hearts(language)},
    )


def test_a_service_refusal_fills_in_its_version_in_each_language(passing_table):
    code, clients = passing_table
    view = state(clients[1], code)
    pass_ = {"type": "pass_cards", "cards": view["you"]["hand"][:3]}
    answered(
        lambda language: act(clients[1], code, view["version"] - 1, pass_, HTTP_ACCEPT_LANGUAGE=language),
        409,
        "stale_version",
        None,
        lambda language: (
            sentence(language, "The room is at version %(version)s; fetch the state and retry.")
            % {"version": view["version"]}
        ),
    )


def test_a_missing_field_in_each_language(passing_table):
    code, clients = passing_table
    answered(
        lambda language: clients[0].post(
            f"/api/v1/rooms/{code}/actions",
            {"action": {"type": "next_round"}},
            format="json",
            HTTP_ACCEPT_LANGUAGE=language,
        ),
        400,
        "required",
        "version",
        lambda language: sentence(language, "This field is required."),
    )


def test_no_such_room_and_no_such_page_in_each_language(api_client, make_user):
    client = api_client(make_user())
    answered(
        lambda language: client.get("/api/v1/rooms/ZZZZZZ/state", HTTP_ACCEPT_LANGUAGE=language),
        404,
        "not_found",
        None,
        lambda language: sentence(language, "No such room."),
    )
    answered(
        lambda language: client.get("/api/v1/rooms/?page=999", HTTP_ACCEPT_LANGUAGE=language),
        404,
        "not_found",
        None,
        lambda language: sentence(language, "Invalid page."),
    )


def test_authentication_errors_in_each_language():
    client = APIClient()
    answered(
        lambda language: client.get("/api/v1/me", HTTP_ACCEPT_LANGUAGE=language),
        401,
        "not_authenticated",
        None,
        lambda language: sentence(language, "Authentication credentials were not provided."),
    )
    answered(
        lambda language: client.get("/api/v1/me", HTTP_AUTHORIZATION="Token", HTTP_ACCEPT_LANGUAGE=language),
        401,
        "authentication_failed",
        None,
        lambda language: sentence(language, "Invalid token header. No credentials provided."),
    )


def test_a_session_s_csrf_refusals_in_each_language(make_user):
    """DRF's "CSRF Failed: …" is Django's English reason: the API says each in the
    request's language, with the same code, and never quotes what the request sent."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(make_user())
    body = {"game": "hearts", "options": {}}

    def create(language: str, **headers: str) -> Any:
        return client.post("/api/v1/rooms/", body, format="json", HTTP_ACCEPT_LANGUAGE=language, **headers)

    no_cookie = (
        "Refused: a signed-in browser's request needs the CSRF cookie (csrftoken), which any page of the site sets."
    )
    answered(
        lambda language: create(language),
        403,
        "permission_denied",
        None,
        lambda language: sentence(language, no_cookie),
    )
    client.get("/admin/login/")  # a page of the site: the cookie is set
    missing = (
        "Refused: a signed-in browser's request needs its CSRF token, the csrftoken cookie's value, "
        "in the X-CSRFToken header."
    )
    answered(
        lambda language: create(language), 403, "permission_denied", None, lambda language: sentence(language, missing)
    )
    wrong = "Refused: the request's CSRF token is not the one its csrftoken cookie holds."
    answered(
        lambda language: create(language, HTTP_X_CSRFTOKEN="x" * 32),
        403,
        "permission_denied",
        None,
        lambda language: sentence(language, wrong),
    )
    elsewhere = "Refused: the request comes from a page of another site (its Origin or Referer is not this site's)."
    token = client.cookies["csrftoken"].value
    answered(
        lambda language: create(language, HTTP_X_CSRFTOKEN=token, HTTP_ORIGIN="https://evil.example"),
        403,
        "permission_denied",
        None,
        lambda language: sentence(language, elsewhere),
    )
    assert create("en", HTTP_X_CSRFTOKEN=token).status_code == 201


def test_a_weak_password_in_each_language(api_client, make_user):
    def sign_up(language: str) -> Any:
        body = {"username": f"newcomer-{language}", "password": "password123"}
        return APIClient().post("/api/v1/auth/register", body, format="json", HTTP_ACCEPT_LANGUAGE=language)

    answered(
        sign_up, 400, "weak_password", "password", lambda language: sentence(language, "This password is too common.")
    )
    assert not User.objects.filter(username__startswith="newcomer-").exists()
    # Django's validator counts the characters with a plural: the form for 8, filled in.
    short = "This password is too short. It must contain at least %d character."
    shorts = "This password is too short. It must contain at least %d characters."
    client = api_client(make_user())

    def change(language: str) -> Any:
        body = {"current_password": "correct-horse-9", "new_password": "Zq9#"}
        return client.post("/api/v1/me/password", body, format="json", HTTP_ACCEPT_LANGUAGE=language)

    answered(change, 400, "weak_password", "new_password", lambda language: sentence(language, short, shorts, 8) % 8)


def test_a_throttled_request_in_each_language(api_client, make_user, monkeypatch):
    cache.clear()
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {**UserRateThrottle.THROTTLE_RATES, "user": "2/min"})
    # One window of the per-minute limit for the whole test, 50 seconds from its end.
    with time_machine.travel(datetime(2026, 1, 1, 12, 0, 10, tzinfo=UTC), tick=False):
        client = api_client(make_user())
        assert [client.get("/api/v1/me").status_code for _ in range(2)] == [200, 200]
        wait = "Expected available in {wait} seconds."
        answered(
            lambda language: client.get("/api/v1/me", HTTP_ACCEPT_LANGUAGE=language),
            429,
            "throttled",
            None,
            lambda language: f"{sentence(language, 'Request was throttled.')} {sentence(language, wait)}".format(
                wait=50
            ),
        )
        assert client.get("/api/v1/me")["Retry-After"] == "50"
    cache.clear()


# -- the rules' templates ----------------------------------------------------------------


def test_a_rule_s_parameters_are_filled_into_the_translated_sentence():
    with pytest.raises(RuleError) as refused:
        KaliTidi._picked({"cards": []}, 2)
    err = refused.value
    assert err.detail == "Choose exactly 2 cards."
    assert err.template == Plural("Choose exactly %(count)s card.", "Choose exactly %(count)s cards.", 2)
    for language in LANGUAGES:
        with translation.override(language):
            detail = from_rule(err).detail
        expected = sentence(language, "Choose exactly %(count)s card.", "Choose exactly %(count)s cards.", 2)
        assert detail == expected % {"count": 2}
        assert "2" in detail and "%(" not in detail, detail


def test_the_engine_s_english_stays_the_engine_s_own():
    """`str(err)` and `detail` are English, whatever language is active: the engines know none."""
    with translation.override("hi"):
        err = RuleError("bid_too_low", gettext_noop("Bid at least %(lowest)s."), "value", lowest=25)
        assert (str(err), err.detail, err.params) == ("Bid at least 25.", "Bid at least 25.", {"lowest": 25})
        one = RuleError("wrong_count", ngettext_lazy("Choose %(n)s card.", "Choose %(n)s cards.", 1), n=1)
        assert one.detail == "Choose 1 card."


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _assigned(scope: ast.AST, name: str) -> list[ast.expr]:
    """The values `name` is given in `scope` (a function's body, or a module's top level)."""
    body = ast.walk(scope) if not isinstance(scope, ast.Module) else iter(scope.body)
    values: list[ast.expr] = []
    for node in body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            values.append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            assert node.value is not None
            values.append(node.value)
    return values


def _templates(node: ast.expr, scopes: list[ast.AST], where: str) -> list[tuple[str, ...]]:
    """The templates an engine's detail can be: the literal English of each marked
    template it can come from (through a name, a dict, a choice)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS:
        literal = node.args[:1] if node.func.id == "gettext_noop" else node.args[:2]
        texts = [a.value for a in literal if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        assert len(texts) == len(literal), f"{where}: a template is written out, as one literal"
        return [tuple(texts)]
    if isinstance(node, ast.IfExp):
        return _templates(node.body, scopes, where) + _templates(node.orelse, scopes, where)
    if isinstance(node, ast.Subscript):
        return _templates(node.value, scopes, where)
    if isinstance(node, ast.Dict):
        return [t for value in node.values for t in _templates(value, scopes, where)]
    if isinstance(node, ast.Name):
        for scope in scopes:
            if values := _assigned(scope, node.id):
                return [t for value in values for t in _templates(value, scopes, where)]
    raise AssertionError(f"{where}: a RuleError's detail that is no template marked for the catalogues")


def rule_templates() -> Iterator[tuple[str, tuple[str, ...]]]:
    """(where, template) for every RuleError the engines build, read from their source."""
    for path in sorted(RULES_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = _parents(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError"):
                continue
            where = f"{path.relative_to(RULES_DIR)}:{node.lineno}"
            scopes: list[ast.AST] = []
            up: ast.AST | None = node
            while up is not None:
                if isinstance(up, ast.FunctionDef | ast.Module):
                    scopes.append(up)
                up = parents.get(up)
            for template in _templates(node.args[1], scopes, where):
                yield where, template


def test_every_rule_refusal_s_template_is_in_every_catalogue():
    found = list(rule_templates())
    sites = {where for where, _ in found}
    templates = {template for _, template in found}
    # Every engine and shared module refuses something; a walk that found little missed them.
    assert len(sites) >= 80 and {("It is not your turn.",), ("You must follow spades.",)} <= templates
    for code in SHIPPED:
        missing = []
        for template in sorted(templates):
            entry = CATALOGUES[code].find(template[0])
            if (
                entry is None
                or (entry.msgid_plural or None) != (template[1] if len(template) > 1 else None)
                or not entry.translated()
                or "fuzzy" in entry.flags
                or template[0] in (entry.msgstr, *entry.msgstr_plural.values())
            ):
                missing.append(template[0])
        assert missing == [], f"{code}: {len(missing)} rule templates untranslated, e.g. {missing[:5]}"


# -- DRF's and Django's own messages ---------------------------------------------------


def _project_serializers() -> Iterator[type[serializers.BaseSerializer[Any]]]:
    assert get_resolver().url_patterns  # every view imported, and with them every serializer they use
    ours = {
        app.name.split(".")[0]
        for app in apps.get_app_configs()
        if Path(app.path).is_relative_to(settings.BASE_DIR) and "site-packages" not in Path(app.path).parts
    }
    seen: set[type] = set()
    todo = [serializers.BaseSerializer]
    while todo:
        for cls in todo.pop().__subclasses__():
            if cls not in seen:
                seen.add(cls)
                todo.append(cls)
                if cls.__module__.split(".")[0] in ours:
                    yield cls


def _messages_of(field: Any) -> Iterator[tuple[str, Any]]:
    """(where, message) for everything a field (a serializer's, recursively) can refuse with."""
    name = type(field).__name__
    for key, message in field.error_messages.items():
        yield f"{name}.{key}", message
    for validator in getattr(field, "validators", []):
        if (message := getattr(validator, "message", None)) is not None:
            yield f"{name}:{type(validator).__name__}", message
    if isinstance(field, serializers.ListSerializer):
        yield from _messages_of(field.child)
    elif isinstance(field, serializers.BaseSerializer):
        for child in field.fields.values():
            yield from _messages_of(child)
    elif getattr(field, "child", None) is not None:
        yield from _messages_of(field.child)


def _untranslated(messages: Callable[[], list[tuple[str, Any]]]) -> dict[str, list[str]]:
    """Per shipped language, the messages that read there as they do in English.

    `messages()` makes them anew for each language, as a request does: a field's
    validators format their sentence once, in the language of the first reading."""

    def read(code: str) -> list[tuple[str, str]]:
        with translation.override(code):
            return [(where, str(message)) for where, message in messages()]

    english = read(settings.LANGUAGE_CODE)
    out = {}
    for code in SHIPPED:
        there = read(code)
        assert [where for where, _ in there] == [where for where, _ in english]
        out[code] = sorted(
            {f"{where}: {text}" for (where, text), (_, said) in zip(english, there, strict=True) if said == text}
        )
    return out


def _serializers_messages() -> list[tuple[str, Any]]:
    return [m for cls in _project_serializers() for m in _messages_of(cls())]


def test_every_message_of_the_api_s_serializers_is_translated():
    messages = _serializers_messages()
    assert len(messages) > 200 and any(where == "CharField.blank" for where, _ in messages)
    assert _untranslated(_serializers_messages) == {code: [] for code in SHIPPED}


def _framework_messages() -> list[tuple[str, Any]]:
    """DRF's exceptions' details, its throttle's and pagination's words, the password
    validators' refusals and the account field they may name."""
    messages: list[tuple[str, Any]] = [
        (name, cls.default_detail)
        for name, cls in vars(exceptions).items()
        if isinstance(cls, type) and issubclass(cls, exceptions.APIException)
    ]
    messages += [
        ("Throttled.singular", exceptions.Throttled.extra_detail_singular),
        ("Throttled.plural", exceptions.Throttled.extra_detail_plural),
        ("PageNumberPagination", pagination.PageNumberPagination.invalid_page_message),
        ("username", User._meta.get_field("username").verbose_name),
    ]
    messages += [(type(v).__name__, v.get_error_message()) for v in get_default_password_validators()]
    return messages


def test_every_exception_of_drf_and_password_refusal_is_translated():
    read = {where for where, _ in _framework_messages()}
    assert {"NotAuthenticated", "Throttled", "Throttled.plural", "MinimumLengthValidator", "username"} <= read
    assert _untranslated(_framework_messages) == {code: [] for code in SHIPPED}
