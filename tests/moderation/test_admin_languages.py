"""The moderation admin in the moderator's language (their account's), and a fixed
warning in the warned person's, whatever the moderator's: the mail, the push and `GET
me/sanctions` say it in the person's language, while the log keeps it in English. A
moderator's own words go as they wrote them."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst

import notifications.tasks  # noqa: F401  (registers the tasks, as the worker does)
from core.errors import ServiceError
from moderation import queue
from moderation.admin.queue import WarnForm
from moderation.canned import CANNED_WARNINGS
from moderation.models import Case, ModerationEntry, Warning
from tests.moderation.test_queue import report, table, with_confirmed_address
from tests.notifications.conftest import BASE_URL

pytestmark = pytest.mark.django_db

# The fixed warning about offensive language, and the sanction mail's subject, as a
# reader of each language reads them.
FRIENDLY = {
    "en": "Please keep table talk friendly: offensive language is not allowed here.",
    "es": "Mantén un tono amable en la charla de mesa: aquí no se permite el lenguaje ofensivo.",
    "hi": "कृपया टेबल की बातचीत में शालीनता रखें: यहाँ अपमानजनक भाषा की अनुमति नहीं है।",
    "gu": "કૃપા કરીને ટેબલ પરની વાતચીત મૈત્રીપૂર્ણ રાખો: અહીં અપમાનજનક ભાષાની મંજૂરી નથી.",
}
SUBJECT = {
    "en": "A moderator's warning",
    "es": "Advertencia de un moderador",
    "hi": "मॉडरेटर की चेतावनी",
    "gu": "મૉડરેટરની ચેતવણી",
}
# What the moderator reads on an open entry's page, and after claiming it.
ENTRY_PAGE = {
    "en": ("Open: 1 report since", "Claim", "Warn…", "Start from", "Claimed."),
    "es": ("Abierta: 1 reporte desde el", "Tomar", "Advertir…", "Partir de", "Tomada."),
    "hi": ("UTC से 1 रिपोर्ट।", "अपने पास लें", "चेतावनी दें…", "इससे शुरू करें", "आपके पास है।"),
    "gu": ("UTC થી 1 રિપોર્ટ.", "પોતાની પાસે લો", "ચેતવણી આપો…", "આનાથી શરૂ કરો", "તમારી પાસે છે."),
}


def moderator_speaking(make_user: Any, moderators_group: Any, language: str) -> Client:
    user = make_user(f"mod_{language}", is_staff=True, language=language)
    user.groups.add(moderators_group)
    client = Client()
    client.force_login(user)
    return client


def _open_case(make_user: Any, api_client: Any) -> tuple[Case, Any]:
    _code, (ana, bo, *_) = table(make_user)
    assert report(api_client(bo), username=ana.username, reason="offensive_language").status_code == 201
    return Case.objects.get(), ana


@pytest.mark.parametrize("language", sorted(ENTRY_PAGE))
def test_the_queue_speaks_the_moderator_s_language(make_user, api_client, moderators_group, language):
    case, _ana = _open_case(make_user, api_client)
    client = moderator_speaking(make_user, moderators_group, language)
    status, claim, warn, start_from, claimed = ENTRY_PAGE[language]
    page = client.get(reverse("admin:moderation_case_change", args=[case.pk])).content.decode()
    assert status in page and f">{claim}</button>" in page and f">{warn}</a>" in page
    form = client.get(reverse("admin:moderation_case_warn", args=[case.pk])).content.decode()
    assert start_from in form
    # The fixed warnings to start from, in the moderator's language.
    assert f">{FRIENDLY[language]}</option>" in form
    done = client.post(reverse("admin:moderation_case_claim", args=[case.pk]), follow=True).content.decode()
    assert claimed in done
    with translation.override(language):
        listed = capfirst(str(ModerationEntry._meta.verbose_name_plural))
    assert f">{listed}<" in client.get(reverse("admin:index")).content.decode()


@pytest.mark.parametrize("language", sorted(FRIENDLY))
def test_a_fixed_warning_reaches_the_person_in_their_language_and_the_log_keeps_english(
    make_user, api_client, moderators_group, queued, settings, django_capture_on_commit_callbacks, language
):
    settings.PUBLIC_BASE_URL = BASE_URL
    case, ana = _open_case(make_user, api_client)
    ana.language = language
    ana.save(update_fields=["language"])
    with_confirmed_address(ana, "ana@example.org")
    # The moderator reads the admin in Spanish, or in Hindi where the person reads Spanish.
    client = moderator_speaking(make_user, moderators_group, "hi" if language == "es" else "es")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        warned = client.post(
            reverse("admin:moderation_case_warn", args=[case.pk]), {"canned": "offensive_language", "text": ""}
        )
    assert warned.status_code == 302
    (warning,) = Warning.objects.filter(user=ana)
    assert (warning.canned, warning.text) == ("offensive_language", FRIENDLY["en"])
    assert ModerationEntry.objects.get(kind="warn").reason == FRIENDLY["en"]
    (sent,) = [m for m in mail.outbox if m.to == ["ana@example.org"]]
    assert sent.subject == SUBJECT[language] and FRIENDLY[language] in sent.body
    # The push notice's body is the warning, in the same words.
    pushed = [args for name, args in queued if name == "notifications.send_sanction"]
    assert pushed and pushed[0][2] == FRIENDLY[language]
    # Read over the API, it is in the language the request asks in.
    for asked in FRIENDLY:
        sanctions = api_client(ana).get("/api/v1/me/sanctions", HTTP_ACCEPT_LANGUAGE=asked).json()
        assert [w["text"] for w in sanctions["warnings"]] == [FRIENDLY[asked]]


def test_a_moderator_s_own_words_go_as_they_were_written(
    make_user, api_client, moderators_group, queued, settings, django_capture_on_commit_callbacks
):
    settings.PUBLIC_BASE_URL = BASE_URL
    case, ana = _open_case(make_user, api_client)
    ana.language = "hi"
    ana.save(update_fields=["language"])
    with_confirmed_address(ana, "ana@example.org")
    client = moderator_speaking(make_user, moderators_group, "en")
    words = "Calma, por favor: the table heard you."
    with django_capture_on_commit_callbacks(execute=True):
        # Written over a fixed warning chosen first: the words win.
        client.post(
            reverse("admin:moderation_case_warn", args=[case.pk]), {"canned": "offensive_language", "text": words}
        )
    (warning,) = Warning.objects.filter(user=ana)
    assert (warning.canned, warning.text) == ("", words)
    (sent,) = [m for m in mail.outbox if m.to == ["ana@example.org"]]
    assert words in sent.body and FRIENDLY["hi"] not in sent.body
    for asked in ("en", "hi"):
        sanctions = api_client(ana).get("/api/v1/me/sanctions", HTTP_ACCEPT_LANGUAGE=asked).json()
        assert [w["text"] for w in sanctions["warnings"]] == [words]


def test_a_timeout_s_fixed_warning_goes_by_its_key_too(
    make_user, api_client, moderators_group, queued, django_capture_on_commit_callbacks
):
    case, ana = _open_case(make_user, api_client)
    client = moderator_speaking(make_user, moderators_group, "en")
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            reverse("admin:moderation_case_timeout", args=[case.pk]),
            {"length": "1h", "room": "", "reason": "Insults", "canned": "stalling"},
        )
    assert done.status_code == 302
    (warning,) = Warning.objects.filter(user=ana)
    with translation.override("en"):
        assert (warning.canned, warning.text) == ("stalling", str(CANNED_WARNINGS["stalling"]))


def test_a_fixed_warning_that_does_not_exist_is_refused(make_user, api_client):
    case, _ana = _open_case(make_user, api_client)
    moderator = make_user("mod", is_staff=True)
    with pytest.raises(ServiceError) as refused:
        queue.case_warn(case_id=case.pk, moderator=moderator, text="", canned="no_such_warning", now=case.opened_at)
    assert (refused.value.code, refused.value.attr) == ("invalid", "canned")
    assert not Warning.objects.exists()
    # The admin's form offers only the fixed warnings there are.
    assert not WarnForm({"canned": "no_such_warning", "text": ""}).is_valid()
