"""What an e-mail address must be, how two spellings of one compare, and the cap on the
confirmation links one address gets from all accounts together (a stranger's address
typed into many fresh accounts)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st

from core.errors import ServiceError
from notifications.addresses import address_checked, same_address
from notifications.models import NotificationSettings
from notifications.public_names import SPECIAL_USE_TOP_LEVEL
from tests.api.helpers import errors

from .test_email_confirmation import LOCMEM, SETTINGS, patch, resend, token_in

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("address", "code"),
    [
        ("a@[127.0.0.1]", "email_domain_not_public"),
        ("a@[::1]", "email_domain_not_public"),
        ("a@localhost", "email_domain_not_public"),
        ("a@printer.local", "email_domain_not_public"),
        ("a@metadata.google.internal", "email_domain_not_public"),
        ("a@mail.test", "email_domain_not_public"),
        ("a@mail.invalid", "email_domain_not_public"),
        ("a@mail.example", "email_domain_not_public"),
        ("a@x.onion", "email_domain_not_public"),
        ("a@router.home.arpa", "email_domain_not_public"),
        ("a@nas.lan", "email_domain_not_public"),
        ("a@intranet", "bad_email_address"),  # one label: Django's validator refuses it already
        ("a@b", "bad_email_address"),
        ("not an address", "bad_email_address"),
    ],
)
def test_addresses_whose_domain_is_no_public_name_are_refused(api_client, make_user, address, code):
    client = api_client(make_user())
    before = client.get(SETTINGS).json()
    res = client.patch(SETTINGS, {"email_address": address, "push": False}, format="json")
    assert res.status_code == 400, res.content
    assert errors(res) == [(code, "email_address")]
    assert client.get(SETTINGS).json() == before  # nothing half-applied: push is still on


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Someone@Example.ORG", "Someone@example.org"),
        ("a@bücher.de", "a@bücher.de"),
        ("a@BÜCHER.de", "a@bücher.de"),
        ("first.last+tag@sub.example.com", "first.last+tag@sub.example.com"),
    ],
)
def test_the_domain_is_stored_lowercased_and_the_local_part_as_typed(api_client, make_user, typed, stored):
    res = api_client(make_user()).patch(SETTINGS, {"email_address": typed}, format="json")
    assert res.status_code == 200, res.content
    assert res.json()["email_address"] == stored


def test_a_confirmed_address_stays_confirmed_under_another_case(
    api_client, make_user, queued, django_capture_on_commit_callbacks, settings
):
    settings.MAILERS = {"default": {"BACKEND": LOCMEM}}
    player = make_user()
    client = api_client(player)
    patch(client, django_capture_on_commit_callbacks, {"email_address": "Me@example.org"})
    [message] = mail.outbox
    assert (
        api_client().post("/api/v1/email-confirmations", {"token": token_in(message)}, format="json").status_code == 200
    )
    # The same mailbox spelt otherwise: still confirmed, and no new link is mailed.
    res = patch(client, django_capture_on_commit_callbacks, {"email_address": "ME@EXAMPLE.ORG"})
    assert res.json()["email_address"] == "ME@example.org" and res.json()["email_confirmed"] is True
    assert len(mail.outbox) == 1
    assert errors(resend(client, django_capture_on_commit_callbacks)) == [("already_confirmed", None)]


@pytest.fixture
def address_cap(settings: Any) -> int:
    cache.clear()
    settings.EMAIL_CONFIRMATION_ADDRESS_MAX = 2
    settings.MAILERS = {"default": {"BACKEND": LOCMEM}}
    yield 2
    cache.clear()


def test_one_address_gets_a_bounded_number_of_links_from_all_accounts(
    api_client, make_user, queued, django_capture_on_commit_callbacks, address_cap
):
    stranger = ["stranger@example.org", "Stranger@example.org", "STRANGER@Example.Org", "stranger@EXAMPLE.org"]
    clients = [api_client(make_user()) for _ in stranger]
    for client, spelling in zip(clients, stranger, strict=True):
        res = patch(client, django_capture_on_commit_callbacks, {"email_address": spelling})
        # The address is saved all the same, unconfirmed.
        assert res.json()["email_address"].lower() == "stranger@example.org"
        assert res.json()["email_confirmed"] is False
    # However it is spelt, two links went, from the first two accounts; no more.
    assert len(mail.outbox) == address_cap
    assert {message.to[0].lower() for message in mail.outbox} == {"stranger@example.org"}
    # Asking again from a third account is refused with the wait, and mails nothing.
    res = resend(clients[2], django_capture_on_commit_callbacks)
    assert res.status_code == 429 and errors(res) == [("confirmation_sent_recently", None)]
    assert 1 <= int(res["Retry-After"]) <= 24 * 3600
    assert len(mail.outbox) == address_cap
    assert NotificationSettings.objects.filter(email_confirmation_sent_at__isnull=False).count() == address_cap
    # Another address is not held back by it.
    res = patch(clients[3], django_capture_on_commit_callbacks, {"email_address": "mine@example.org"})
    assert len(mail.outbox) == address_cap + 1 and mail.outbox[-1].to == ["mine@example.org"]


def test_a_link_queued_for_an_address_is_not_mailed_to_the_next(
    api_client, make_user, queued, django_capture_on_commit_callbacks, address_cap, monkeypatch
):
    from notifications.services import confirmation

    client = api_client(make_user())
    # The worker runs the task only after the address has changed again.
    held: list[tuple[Any, ...]] = []
    monkeypatch.setattr(confirmation, "_queue", lambda *args: held.append(args))
    patch(client, django_capture_on_commit_callbacks, {"email_address": "first@example.org"})
    patch(client, django_capture_on_commit_callbacks, {"email_address": "second@example.org"})
    assert held == [(held[0][0], "first@example.org")]  # the second waits for the account's own cap
    assert confirmation.confirmation_mail_send(user_id=held[0][0], address="first@example.org") is False
    assert mail.outbox == []


LABEL = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)


@examples(max_examples=200, deadline=None)
@given(
    local=st.from_regex(r"[A-Za-z0-9._+-]{1,20}", fullmatch=True).filter(
        lambda s: not s.startswith(".") and not s.endswith(".") and ".." not in s
    ),
    labels=st.lists(LABEL, min_size=0, max_size=3),
    special=st.sampled_from(sorted(SPECIAL_USE_TOP_LEVEL)),
    case=st.sampled_from([str.lower, str.upper, str.title]),
)
def test_a_special_use_top_level_name_is_refused_under_any_labels(local, labels, special, case):
    domain = case(".".join([*labels, "mail", special]))
    with pytest.raises(ServiceError) as refused:
        address_checked(f"{local}@{domain}")
    assert refused.value.code == "email_domain_not_public"


@examples(max_examples=200, deadline=None)
@given(
    octets=st.lists(st.integers(0, 255), min_size=4, max_size=4),
    local=st.sampled_from(["a", "Someone", "x.y+z"]),
)
def test_an_ip_literal_is_refused_whatever_address_it_is(octets, local):
    with pytest.raises(ServiceError) as refused:
        address_checked(f"{local}@[{'.'.join(map(str, octets))}]")
    assert refused.value.code == "email_domain_not_public"


@examples(max_examples=200, deadline=None)
@given(
    local=st.sampled_from(["a", "Someone", "x.y+z"]),
    labels=st.lists(LABEL, min_size=1, max_size=3),
    top=st.sampled_from(["org", "com", "de", "io", "example.com", "co.uk"]),
    case=st.sampled_from([str.lower, str.upper, str.title]),
)
def test_public_names_are_taken_with_the_domain_lowercased(local, labels, top, case):
    domain = case(".".join([*labels, top]))
    stored = address_checked(f"{local}@{domain}")
    assert stored == f"{local}@{domain.lower()}"
    assert same_address(stored, f"{local.upper()}@{domain}")
