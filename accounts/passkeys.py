"""Passkeys (WebAuthn, through py_webauthn) as options and checks, nothing stored: the
options a browser or app hands to `navigator.credentials.create()` / `.get()` (or a
platform's passkey API), and the checks of what the authenticator answers.

Every passkey is a discoverable credential ("resident key"), so that it signs in with no
username typed; signing in with it alone asks the authenticator to verify its person
(a PIN, a fingerprint): a passkey is then two factors in one. As the second step after a
password, presence is enough, as a security key's touch.

The relying party is the site the page is served from (WEBAUTHN_RP_ID, else the host
the request named); the origins an answer may come from are that site's own, the
frontends CORS lets in, and WEBAUTHN_ORIGINS (an app's `android:apk-key-hash:…`). The
browser itself refuses an origin whose host is not the relying party's or under it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import webauthn
from django.utils.translation import gettext as _
from webauthn.helpers import parse_authentication_credential_json, parse_client_data_json
from webauthn.helpers.exceptions import (
    InvalidAuthenticationResponse,
    InvalidCBORData,
    InvalidJSONStructure,
    InvalidRegistrationResponse,
)
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .factors import ISSUER

# How long a browser shows its passkey prompt (a hint; the ceremony itself lasts
# WEBAUTHN_CEREMONY_SECONDS on the server).
TIMEOUT_MS = 120_000
_BAD_ANSWER = (
    InvalidAuthenticationResponse,
    InvalidRegistrationResponse,
    InvalidJSONStructure,
    InvalidCBORData,
    ValueError,
    KeyError,
    TypeError,
)


class BadPasskeyAnswer(Exception):
    """What the authenticator answered does not hold: its shape, challenge, origin,
    relying party, signature or flags."""


@dataclass(frozen=True)
class RelyingParty:
    id: str
    origins: tuple[str, ...]


def relying_party(*, host: str, secure: bool, rp_id: str, origins: list[str]) -> RelyingParty:
    """The relying party of a request to `host` (`example.com:8000`), served over TLS
    when `secure`: `rp_id` when set, else the host's name; the origins are the host's
    own and `origins`."""
    own = f"{'https' if secure else 'http'}://{host}"
    name = rp_id or (urlsplit(own).hostname or host)
    return RelyingParty(id=name, origins=tuple(dict.fromkeys([own, *origins])))


@dataclass(frozen=True)
class NewPasskey:
    credential_id: bytes
    public_key: bytes
    sign_count: int
    transports: list[str]
    aaguid: str
    backed_up: bool


@dataclass(frozen=True)
class Assertion:
    credential_id: bytes
    new_sign_count: int
    user_verified: bool
    backed_up: bool


def challenge_digest(challenge: bytes) -> str:
    """How a ceremony is found again: the digest of its challenge, which the answer's
    client data holds."""
    return hashlib.sha256(challenge).hexdigest()


def challenge_of(credential: dict[str, Any]) -> bytes:
    """The challenge an answer was made for (its client data), before any check."""
    try:
        client_data = credential["response"]["clientDataJSON"]
        return parse_client_data_json(webauthn.base64url_to_bytes(client_data)).challenge
    except _BAD_ANSWER as err:
        raise BadPasskeyAnswer(_("The passkey's answer holds no readable client data.")) from err


def credential_id_of(credential: dict[str, Any]) -> bytes:
    """The credential an assertion names, before any check."""
    try:
        return parse_authentication_credential_json(json.dumps(credential)).raw_id
    except _BAD_ANSWER as err:
        raise BadPasskeyAnswer("The passkey's answer names no credential.") from err


def user_handle_of(credential: dict[str, Any]) -> bytes | None:
    """The user handle an assertion names (a discoverable passkey's), before any check."""
    handle = credential.get("response", {}).get("userHandle")
    try:
        return webauthn.base64url_to_bytes(handle) if handle else None
    except _BAD_ANSWER as err:
        raise BadPasskeyAnswer("The passkey's answer holds no readable user handle.") from err


def creation_options(
    *,
    rp: RelyingParty,
    challenge: bytes,
    user_handle: bytes,
    username: str,
    display_name: str,
    existing: list[bytes],
) -> dict[str, Any]:
    """`PublicKeyCredentialCreationOptionsJSON` for a new passkey of the account whose
    WebAuthn user handle is `user_handle`; its `existing` passkeys are excluded, so the
    same authenticator is not added twice."""
    options = webauthn.generate_registration_options(
        rp_id=rp.id,
        rp_name=ISSUER,
        user_id=user_handle,
        user_name=username,
        user_display_name=display_name or username,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        attestation=AttestationConveyancePreference.NONE,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=c) for c in existing],
    )
    result: dict[str, Any] = json.loads(webauthn.options_to_json(options))
    return result


def request_options(*, rp: RelyingParty, challenge: bytes, user_verification: bool) -> dict[str, Any]:
    """`PublicKeyCredentialRequestOptionsJSON` for any passkey of this site (none is
    named: the person picks theirs)."""
    options = webauthn.generate_authentication_options(
        rp_id=rp.id,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        # As the second step only presence counts: "discouraged", so that a key that
        # cannot verify its person (no PIN set) still answers; "preferred" would make a
        # browser refuse it.
        user_verification=(
            UserVerificationRequirement.REQUIRED if user_verification else UserVerificationRequirement.DISCOURAGED
        ),
    )
    result: dict[str, Any] = json.loads(webauthn.options_to_json(options))
    return result


def registration_check(*, credential: dict[str, Any], rp: RelyingParty, challenge: bytes) -> NewPasskey:
    """The passkey an authenticator made for these options, once its answer holds."""
    try:
        verified = webauthn.verify_registration_response(
            credential=json.dumps(credential),
            expected_challenge=challenge,
            expected_rp_id=rp.id,
            expected_origin=list(rp.origins),
            require_user_verification=False,
        )
    except _BAD_ANSWER as err:
        raise BadPasskeyAnswer(str(err)) from err
    transports = credential.get("response", {}).get("transports") or []
    known = {t.value for t in AuthenticatorTransport}
    return NewPasskey(
        credential_id=verified.credential_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        transports=[t for t in transports if isinstance(t, str) and t in known],
        aaguid=verified.aaguid,
        backed_up=verified.credential_backed_up,
    )


def assertion_check(
    *,
    credential: dict[str, Any],
    rp: RelyingParty,
    challenge: bytes,
    public_key: bytes,
    sign_count: int,
    user_verification: bool,
) -> Assertion:
    """The passkey's signature over this challenge, once it holds. A signature counter
    that did not grow, where the authenticator keeps one, is a cloned key: refused."""
    try:
        verified = webauthn.verify_authentication_response(
            credential=json.dumps(credential),
            expected_challenge=challenge,
            expected_rp_id=rp.id,
            expected_origin=list(rp.origins),
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
            require_user_verification=user_verification,
        )
    except _BAD_ANSWER as err:
        raise BadPasskeyAnswer(str(err)) from err
    return Assertion(
        credential_id=verified.credential_id,
        new_sign_count=verified.new_sign_count,
        user_verified=verified.user_verified,
        backed_up=verified.credential_backed_up,
    )
