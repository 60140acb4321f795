"""No words of the project's Python reach a person unmarked for translation, read from
the source with `ast`: an error's detail (a ServiceError's, DRF's and Django's
exceptions', an APIException's `default_detail`), a mail's subject and text and a push
notice's title and body (notifications/), what the admin tells a moderator
(`message_user`, `messages.*`), and the moderation admin's labels (verbose names,
choices, form labels and help, list columns, action descriptions, the moderator's pages).

A string with words (letters and a space) in one of those places must be made by a
gettext-family call; a string made elsewhere and passed in by name is that place's to
mark, and is not followed. The check is shown to catch an unmarked sample, so that it
cannot pass by looking at nothing."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# The project's own packages (pyproject.toml's import contracts name the same).
PACKAGES = (
    "accounts",
    "api",
    "config",
    "core",
    "games",
    "grants",
    "moderation",
    "notifications",
    "operations",
    "privacy",
    "ratings",
    "talk",
    "uptime",
    "web",
)
# The engines are plain Python that marks its refusals itself (games/errors.py
# translates them); migrations keep the labels of their day.
SKIPPED = ("games/rules/", "/migrations/")

# The calls that translate (from django.utils.translation). gettext_noop only marks:
# what it gives is English until something translates it.
TRANSLATING = frozenset(
    {
        "gettext",
        "gettext_lazy",
        "ngettext",
        "ngettext_lazy",
        "pgettext",
        "pgettext_lazy",
        "npgettext",
        "npgettext_lazy",
    }
)
WORDS = re.compile(r"[^\W\d_]{2}")

# Exceptions whose first argument (or `detail=`/`message=`) a person reads: DRF's, and
# Django's (a form's ValidationError shows in the admin).
DETAIL_FIRST = frozenset({"ValidationError", "PermissionDenied", "NotFound", "AuthenticationFailed", "ParseError"})
DETAIL_KEYWORDS = frozenset({"detail", "message"})
# The admin's messages to the moderator: the position of the message after `request`.
MESSAGE_FUNCTIONS = {"debug": 1, "info": 1, "success": 1, "warning": 1, "error": 1, "add_message": 2}
# What a moderator reads on the moderation admin's pages (moderation/admin_views.py's
# form_page and reason_page, the boxes at the top of a change page), and its forms'.
MODERATION_KEYWORDS = frozenset(
    {"verbose_name", "verbose_name_plural", "label", "help_text", "description", "title", "question", "submit", "done"}
)
MODERATION_KEYS = frozenset({"status", "label", "none", "title"})


def _translating_names(tree: ast.Module) -> set[str]:
    """The names a module calls the translating functions by (`_` for gettext)."""
    names = set(TRANSLATING)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            names |= {alias.asname or alias.name for alias in node.names if alias.name in TRANSLATING}
    return names


def _called(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _has_words(text: str) -> bool:
    return bool(WORDS.search(text)) and any(c.isspace() for c in text.strip())


class _Module:
    def __init__(self, tree: ast.Module, path: str) -> None:
        self.translating = _translating_names(tree)
        self.path = path
        self.found: list[tuple[int, str]] = []

    def check(self, node: ast.AST | None) -> None:
        """Flag the words in `node`, an expression a person reads, that no translating
        call makes: a literal, an f-string, and what `%`, `+`, a conditional, `str()` or
        a list, tuple or dict literal build of them (`gettext_noop` marks, but gives
        English)."""
        if node is None:
            return
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _has_words(node.value):
                self.found.append((node.lineno, node.value))
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            if _has_words(text):
                self.found.append((node.lineno, text))
        elif isinstance(node, ast.BinOp):
            self.check(node.left)
            self.check(node.right)
        elif isinstance(node, ast.IfExp):
            self.check(node.body)
            self.check(node.orelse)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                self.check(value)
        elif isinstance(node, ast.List | ast.Tuple | ast.Set):
            for element in node.elts:
                self.check(element)
        elif isinstance(node, ast.Dict):
            for value in node.values:
                self.check(value)
        elif isinstance(node, ast.Call) and _called(node) in ("str", "gettext_noop"):
            for arg in node.args:
                self.check(arg)

    def argument(self, call: ast.Call, position: int | None, keywords: frozenset[str]) -> None:
        if position is not None and len(call.args) > position:
            self.check(call.args[position])
        for keyword in call.keywords:
            if keyword.arg in keywords:
                self.check(keyword.value)

    @property
    def moderation(self) -> bool:
        return self.path.startswith("moderation/")

    @property
    def notifications(self) -> bool:
        return self.path.startswith("notifications/")

    def call(self, call: ast.Call) -> None:
        name = _called(call)
        if name in self.translating:
            return
        if name == "ServiceError":
            self.argument(call, 1, frozenset({"detail"}))
        elif name == "several" and isinstance(call.func, ast.Attribute):
            self.argument(call, 1, frozenset({"details"}))
        elif name in DETAIL_FIRST:
            self.argument(call, 0, DETAIL_KEYWORDS)
        elif name == "Throttled":
            self.argument(call, 1, frozenset({"detail"}))
        elif name == "message_user":
            self.argument(call, 1, frozenset({"message"}))
        elif name in MESSAGE_FUNCTIONS and isinstance(call.func, ast.Attribute) and _is_messages(call.func.value):
            self.argument(call, MESSAGE_FUNCTIONS[name], frozenset({"message"}))
        elif name in ("send_mail", "_sent"):
            self.argument(call, 0, frozenset({"subject"}))
            self.argument(call, 1, frozenset({"message", "text"}))
        elif name == "plain_send":
            self.argument(call, None, frozenset({"subject", "text"}))
        elif name == "Notice":
            self.argument(call, 0, frozenset({"title"}))
            self.argument(call, 1, frozenset({"body"}))
        elif name == "_text" and self.notifications:
            # A mail's text, paragraph by paragraph (notifications/mail.py).
            for arg in call.args:
                self.check(arg)
        if self.moderation:
            self.argument(call, None, MODERATION_KEYWORDS)
            if name.endswith("Field") and isinstance(call.func, ast.Attribute):
                # A model field's first argument is its verbose name.
                self.argument(call, 0, frozenset())
            self._choices(call)

    def _choices(self, call: ast.Call) -> None:
        for keyword in call.keywords:
            if keyword.arg == "choices" and isinstance(keyword.value, ast.List | ast.Tuple):
                for choice in keyword.value.elts:
                    if isinstance(choice, ast.Tuple) and len(choice.elts) == 2:
                        self.check(choice.elts[1])

    def assignment(self, node: ast.Assign | ast.AnnAssign, in_class: ast.ClassDef | None) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        if in_class is not None and "default_detail" in names:
            self.check(node.value)
        if not self.moderation or in_class is None:
            return
        if names & {"verbose_name", "verbose_name_plural", "title"}:
            self.check(node.value)
        if _is_choices(in_class) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
            # A TextChoices member: its code, then its label.
            self.check(node.value.elts[1])

    def dictionary(self, node: ast.Dict) -> None:
        keys = [k.value if isinstance(k, ast.Constant) else None for k in node.keys]
        watched = {"title", "body"} if self.notifications else MODERATION_KEYS if self.moderation else set()
        for key, value in zip(keys, node.values, strict=True):
            if key in watched:
                self.check(value)


def _is_messages(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "messages"


def _is_choices(cls: ast.ClassDef) -> bool:
    return any(_base_name(b).endswith("Choices") for b in cls.bases)


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def unmarked(source: str, path: str) -> list[tuple[int, str]]:
    """The words of one module (`path` from the repository's root) shown to a person
    without a translating call: (line, the words)."""
    tree = ast.parse(source)
    module = _Module(tree, path)

    def visit(node: ast.AST, in_class: ast.ClassDef | None) -> None:
        if isinstance(node, ast.Call):
            module.call(node)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            module.assignment(node, in_class)
        elif isinstance(node, ast.Dict):
            module.dictionary(node)
        for child in ast.iter_child_nodes(node):
            visit(child, node if isinstance(node, ast.ClassDef) else in_class if not _is_function(node) else None)

    visit(tree, None)
    return sorted(set(module.found))


def _is_function(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)


def _modules() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if not any(skipped in f"/{relative}" or relative.startswith(skipped) for skipped in SKIPPED):
                yield path


SAMPLE = """
from django.contrib import admin, messages
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext
from rest_framework import exceptions, serializers


class Busy(exceptions.APIException):
    default_detail = "The server is busy."


class Calm(exceptions.APIException):
    default_detail = _("The server is calm.")


def refuse(count, name):
    raise ServiceError("invalid", "That is not allowed.", 400)
    raise ServiceError("invalid", _("That is not allowed."), 400)
    raise ServiceError("invalid", f"{name} is not here.", 404)
    raise ServiceError("invalid", detail=_("%(name)s is not here.") % {"name": name})
    raise ServiceError("invalid", detail=gettext_noop("Only marked, never translated."))
    raise ServiceError("not_found", "not_found")
    raise serializers.ValidationError({"name": ["Give this parameter once."]})
    raise serializers.ValidationError({"name": [_("Give this parameter once.")]})
    raise exceptions.Throttled(5, "Slow down a little.")
    raise exceptions.NotFound(ngettext("%(n)s thing is gone.", "%(n)s things are gone.", count) % {"n": count})


def tell(self, request, count):
    self.message_user(request, f"Revoked {count} app(s).")
    messages.success(request, _("Claimed."))
    messages.error(request, "Could not do " + "that now.")
    messages.add_message(request, messages.INFO, "Done at last.")
    _sent(_("Your turn"), "It is your turn now.", "a@example.org", "a notice for the log")
    Notice(_("Your turn"), _("Hearts — 2 hours left"), "/rooms/ABC", [], "tag", [], None, 1)
"""

MODERATION_SAMPLE = """
from django.db import models
from django.utils.translation import gettext_lazy as _


class Entry(models.Model):
    class Kind(models.TextChoices):
        BAN = "ban", "Ban for good"
        WARN = "warn", _("A warning")

    reason = models.TextField("the reason")
    note = models.TextField(_("the note"))
    room = models.ForeignKey("games.Room", on_delete=models.CASCADE, verbose_name="the room")

    class Meta:
        verbose_name_plural = "moderation log"


@admin.display(description="reason, and what it did")
def column(entry):
    return {"status": f"Open since {entry.created_at}.", "label": _("Claim it"), "url": "/a b"}
"""


def _lines(found: list[tuple[int, str]]) -> list[int]:
    return sorted({line for line, _ in found})


def test_the_check_flags_unmarked_words_and_passes_marked_ones():
    assert _lines(unmarked(SAMPLE, "api/sample.py")) == [10, 18, 20, 22, 24, 26, 31, 33, 34, 35]
    # The moderation admin's labels, in moderation/ only.
    assert _lines(unmarked(MODERATION_SAMPLE, "moderation/sample.py")) == [8, 11, 13, 16, 19, 21]
    assert unmarked(MODERATION_SAMPLE, "accounts/sample.py") == []


def test_the_check_reads_every_module_of_the_project():
    read = {path.relative_to(ROOT).as_posix() for path in _modules()}
    # The places it watches are among them; the engines and the migrations are not.
    for expected in ("core/errors.py", "moderation/admin/queue.py", "notifications/mail.py", "api/errors.py"):
        assert expected in read
    assert not any(p.startswith("games/rules/") or "/migrations/" in p for p in read)


def test_every_string_shown_to_a_person_is_marked():
    found = {
        relative: lines
        for path in _modules()
        if (lines := unmarked(path.read_text(encoding="utf-8"), relative := path.relative_to(ROOT).as_posix()))
    }
    assert found == {}
