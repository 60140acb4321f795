"""The codes notifications answer: push subscriptions, the e-mail address and its
confirmation, quiet periods."""

from __future__ import annotations

from core.errors import Catalogue

CODES = Catalogue(
    "notifications",
    {
        "bad_push_endpoint": (
            400,
            "The push endpoint is not an https URL of a public host on port 443 (no credentials, no address of a "
            "private, loopback or link-local network), or too long.",
        ),
        "bad_push_key": (
            400,
            "keys.p256dh is not an uncompressed P-256 point (65 bytes) or keys.auth not 16 bytes.",
        ),
        "bad_email_address": (400, "The e-mail address is not one."),
        "email_domain_not_public": (
            400,
            "The e-mail address's domain is not a public DNS name: an IP literal, localhost, a single label or a "
            "special-use name (.local, .internal, .test, .invalid, .example and the like).",
        ),
        "bad_confirmation_token": (
            400,
            "The e-mail confirmation token does not work: tampered with, expired, or for an address the account no "
            "longer has (one answer for all).",
        ),
        "bad_time": (400, "A time of day is not HH:MM from 00:00 to 23:59 (attr names it)."),
        "bad_time_zone": (
            400,
            "The time zone is not an IANA name of a place such as Europe/Paris (not localtime, Factory or posixrules).",
        ),
        "quiet_period_empty": (400, "The quiet period ends when it starts."),
        "push_endpoint_taken": (
            409,
            "Another account registered this push endpoint, and the body's keys are not the subscription's: only "
            "the browser holding it (its p256dh and auth) can move it to another account.",
        ),
        "too_many_push_subscriptions": (
            409,
            "The account has as many push subscriptions as it may; remove one first.",
        ),
        "no_email_address": (409, "There is no e-mail address to confirm; set one first."),
        "email_unavailable": (409, "This server e-mails nobody (email_available is false): no link can be sent."),
        "already_confirmed": (409, "The e-mail address is confirmed already."),
        "confirmation_sent_recently": (
            429,
            "A confirmation link was sent to the account less than EMAIL_CONFIRMATION_RESEND_SECONDS ago, or "
            "EMAIL_CONFIRMATION_ADDRESS_MAX links went to the address (from any account) within "
            "EMAIL_CONFIRMATION_ADDRESS_SECONDS; ask again after the Retry-After header's seconds.",
        ),
        "address_of_banned_account": (
            403,
            "The address is the confirmed address of a banned account: another account cannot confirm it.",
        ),
        "reset_sent_recently": (
            429,
            "PASSWORD_RESET_ADDRESS_MAX password-reset links were asked for this address (by anyone, whether or not "
            "an account has it) within PASSWORD_RESET_ADDRESS_SECONDS; ask again after the Retry-After header's "
            "seconds.",
        ),
    },
)
