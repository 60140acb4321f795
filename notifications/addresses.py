"""E-mail addresses as the server takes and compares them.

An address is taken only when Django's validator takes it and its domain is a public
DNS name (notifications.public_names): not an IP literal (`a@[127.0.0.1]`), `localhost`,
a single label, or a special-use name (`.local`, `.internal`, `.test`, `.invalid`,
`.example`, ...), where a mail would go to a server inside a network or nowhere.

The domain is stored lowercased (DNS ignores case). The local part is stored as typed,
since RFC 5321 lets a mail server tell `Alice@` from `alice@`, but the server compares
whole addresses ignoring case (`same_address`, `address_key`): nearly every mail server
delivers both to one mailbox, so a confirmation holds for either spelling, and the cap
on links mailed to one address cannot be escaped by changing the case of a letter.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext

from core.errors import ServiceError

from .public_names import ascii_name, is_public_name

EMAIL_MAX = 254


def _is_address(value: str) -> bool:
    try:
        validate_email(value)
    except ValidationError:
        return False
    return True


def address_checked(value: str) -> str:
    """`value` as stored (its domain lowercased); `bad_email_address` when it is no
    address, `email_domain_not_public` when its domain is no public DNS name."""
    if len(value) > EMAIL_MAX or not _is_address(value):
        raise ServiceError("bad_email_address", gettext("That is not an e-mail address."), 400, "email_address")
    local, _, domain = value.rpartition("@")
    name = ascii_name(domain)
    if name is None or not is_public_name(name):
        raise ServiceError(
            "email_domain_not_public",
            gettext(
                "The address's domain must be a public DNS name (not an IP address, localhost, a single label or a "
                "special-use name such as .local, .internal, .test or .example)."
            ),
            400,
            "email_address",
        )
    return f"{local}@{domain.lower()}"


def address_key(address: str) -> str:
    """What two spellings of one address have in common: the whole address, case folded."""
    return address.casefold()


def same_address(first: str, second: str) -> bool:
    return address_key(first) == address_key(second)
