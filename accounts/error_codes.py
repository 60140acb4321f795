"""The codes accounts answer: a username or password refused, a banned account, a
password change or reset refused, a display name changed too soon."""

from __future__ import annotations

from core.errors import Catalogue

CODES = Catalogue(
    "accounts",
    {
        "username_taken": (400, "An account has that username already (names compare in NFKC, ignoring case)."),
        "username_confusable": (400, "The username looks like an existing account's (Unicode confusables)."),
        "reserved_name": (
            400,
            "Reserved: the name starts with guest- or reads as a seat label (Computer 2, Seat 3, You).",
        ),
        "bidi_control": (
            400,
            "The name (or table-talk line) holds a bidirectional control character (such as U+202E), which could "
            "make it read otherwise than it is written.",
        ),
        "invisible_character": (
            400,
            "The name holds a character shown as nothing (a zero-width space or joiner, a soft hyphen, a "
            "variation selector after a letter...), which could make it read as another name or as none.",
        ),
        "weak_password": (400, "The password is too short, too common or too like the username."),
        "wrong_password": (400, "The current password given to change it is not the account's."),
        "bad_reset_token": (
            400,
            "The password-reset link does not work: mistyped, used already, too old, or the account's password "
            "or sign-in changed since it was sent.",
        ),
        "wrong_code": (400, "The code is not the authenticator app's code of now (or it was used already)."),
        "no_totp_setup": (409, "No authenticator app is being set up: start with `POST me/factors/totp`."),
        "totp_on_already": (409, "Two-step sign-in is on already: turn it off to set up another app."),
        "totp_off": (409, "Two-step sign-in is off: there are no recovery codes."),
        "second_factor_required": (
            401,
            "The account signs in with a second step: send `code` (the authenticator app's 6 digits, or a "
            "recovery code) or `passkey` (an answer to `auth/passkey/options`) with the username and password.",
        ),
        "wrong_second_factor": (
            401,
            "The `code` is neither the authenticator app's code of now nor an unused recovery code; or the "
            "`passkey` answer is not the account's own passkey's answer to a ceremony under way.",
        ),
        "bad_passkey_answer": (
            400,
            "The authenticator's answer does not hold (its shape, challenge, origin, site or signature), or its "
            "ceremony is used already, too old or another account's: start again from the options.",
        ),
        "passkey_added_already": (409, "That passkey is an account's already."),
        "passkey_refused": (
            401,
            "The passkey's answer signs in nobody: no account has that passkey, its signature or its person's "
            "verification does not hold, or its ceremony is used already or too old.",
        ),
        "block_self": (400, "Nobody can block themselves."),
        "not_a_guest": (409, "Only a guest's account becomes an account with a username and password."),
        "no_password": (409, "The account has no password to change: a guest's (it can become an account)."),
        "display_name_too_soon": (
            409,
            "The display name was changed less than a week ago; `me` says when it can change again "
            "(`display_name_changeable_at`).",
        ),
        "banned": (
            401,
            "The account is banned: it cannot sign in and its tokens were revoked (both answer this); "
            "detail gives the moderator's reason.",
        ),
    },
)
