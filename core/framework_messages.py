"""The error messages of Django, DRF and their validators that the API answers, marked
with their exact English so that the project's catalogues hold them.

Neither framework speaks every language the server does: DRF ships no Hindi or Gujarati
catalogue, Django no Gujarati one and only part of these in Hindi, so these messages
would reach a person in English whatever the request asked. `makemessages` reads only
the project's own files; marking the messages here puts them in locale/, which Django
reads before its own catalogues and DRF's (LOCALE_PATHS), and the API answers them in
the request's language. Their Spanish here replaces DRF's and Django's own, and says the
same.

Nothing reads these tuples to answer: the frameworks translate their messages as they
raise them. tests/i18n/test_error_languages.py checks that every message the API's
serializers, DRF's exceptions and the password validators can answer is translated, so
a new field type or a framework's new wording shows up there.

Every DRF exception is here, though the API answers two of them in its own words (an
unsupported media type, a method not allowed: api/errors.py). Not here, because their
packages mark them for no catalogue, and the API answers them in its own words instead:
DRF's `CSRF Failed: …` (accounts.authentication.SessionAuthentication) and the OAuth
toolkit's refusals of an app's redirect URIs (grants.redirect_uris.refusal).
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

# rest_framework.exceptions: each exception's default detail.
DRF_EXCEPTIONS = (
    gettext_noop("A server error occurred."),
    gettext_noop("Invalid input."),
    gettext_noop("Malformed request."),
    gettext_noop("Incorrect authentication credentials."),
    gettext_noop("Authentication credentials were not provided."),
    gettext_noop("You do not have permission to perform this action."),
    gettext_noop("Not found."),
    # Translators: the method is the request's, such as PUT.
    gettext_noop('Method "{method}" not allowed.'),
    gettext_noop("Could not satisfy the request Accept header."),
    # Translators: the media type is the request's Content-Type, such as text/plain.
    gettext_noop('Unsupported media type "{media_type}" in request.'),
    gettext_noop("Request was throttled."),
    # DRF translates each form of the wait on its own (with the number filled in after),
    # then chooses between the two: two entries, not one plural entry.
    # Translators: said after "Request was throttled."; wait is a number of seconds.
    gettext_noop("Expected available in {wait} second."),
    gettext_noop("Expected available in {wait} seconds."),
)

# rest_framework.authentication: the `Authorization: Token …` header's refusals.
DRF_TOKEN_AUTHENTICATION = (
    gettext_noop("Invalid token header. No credentials provided."),
    gettext_noop("Invalid token header. Token string should not contain spaces."),
    gettext_noop("Invalid token header. Token string should not contain invalid characters."),
    gettext_noop("Invalid token."),
    gettext_noop("User inactive or deleted."),
)

# rest_framework.fields, serializers and validators: the refusals of the field types the
# API's serializers use.
DRF_FIELDS = (
    gettext_noop("This field is required."),
    gettext_noop("This field may not be null."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("Not a valid string."),
    gettext_noop("This field may not be blank."),
    gettext_noop("Ensure this field has no more than {max_length} characters."),
    gettext_noop("Ensure this field has at least {min_length} characters."),
    gettext_noop("This value does not match the required pattern."),
    gettext_noop("A valid integer is required."),
    gettext_noop("A valid biginteger is required."),
    gettext_noop("A valid number is required."),
    gettext_noop("Ensure this value is less than or equal to {max_value}."),
    gettext_noop("Ensure this value is greater than or equal to {min_value}."),
    gettext_noop("String value too large."),
    gettext_noop("Integer value too large to convert to float"),
    # Translators: the format is a pattern such as YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].
    gettext_noop("Datetime has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Expected a datetime but got a date."),
    # Translators: the timezone is its name, such as UTC.
    gettext_noop('Invalid datetime for the timezone "{timezone}".'),
    gettext_noop("Datetime value out of range."),
    # Translators: the input is the value the request sent.
    gettext_noop('"{input}" is not a valid choice.'),
    # Translators: the type is the name of the one sent, as Python writes it (str, dict, int).
    gettext_noop('Expected a list of items but got type "{input_type}".'),
    gettext_noop("This list may not be empty."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    # Translators: the type is the name of the one sent, as Python writes it (str, list, int).
    gettext_noop('Expected a dictionary of items but got type "{input_type}".'),
    gettext_noop("This dictionary may not be empty."),
    gettext_noop("Value must be valid JSON."),
    # Translators: the datatype is the name of the type sent, as Python writes it (str, list, int).
    gettext_noop("Invalid data. Expected a dictionary, but got {datatype}."),
    # Translators: the code point is a character's number in hexadecimal (U+D800).
    gettext_noop("Surrogate characters are not allowed: U+{code_point:X}."),
    # Django's, on every CharField of DRF.
    gettext_noop("Null characters are not allowed."),
)

# rest_framework.pagination: a page number past the last page.
DRF_PAGINATION = (gettext_noop("Invalid page."),)

# django.contrib.auth.password_validation (settings.AUTH_PASSWORD_VALIDATORS): the
# refusals of a new password at sign-up and at a change or reset.
PASSWORD_VALIDATION = (
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
    ),
    # Translators: the verbose name is one of the account's fields below (username, email address).
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    # The account's fields a password may be too like (the verbose names that sentence
    # quotes): UserAttributeSimilarityValidator's.
    gettext_noop("username"),
    gettext_noop("first name"),
    gettext_noop("last name"),
    gettext_noop("email address"),
)
