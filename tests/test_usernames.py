"""What makes two names one name (accounts.usernames), and the model's own check."""

import pytest
from django.core.exceptions import ValidationError

from accounts import usernames

CYRILLIC_A, CYRILLIC_O = "\u0430", "\u043e"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("admin", f"{CYRILLIC_A}dmin"),
        ("ADMIN", f"{CYRILLIC_A.upper()}DMIN"),
        ("Admin", "\uff41dmin"),  # fullwidth a
        ("bob10", "bobl0"),  # 1 reads as l, 0 as o
        ("bob10", "boblO"),
        ("Ivan", "lvan"),  # a capital I reads as a small l
    ],
)
def test_lookalikes_share_a_skeleton(one, other):
    assert usernames.skeleton(one) == usernames.skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("admin", "admins"), ("anna", "anne"), ("rn", "m"), ("ivan", "lvan")])
def test_different_names_keep_different_skeletons(one, other):
    # rn and m: the table's multi-character lookalikes are left out, and a small i
    # with its dot is told from an l.
    assert usernames.skeleton(one) != usernames.skeleton(other)


def test_canonical_is_nfkc_case_folded():
    assert usernames.canonical("\uff21LICE") == usernames.canonical("alice") == "alice"
    assert usernames.canonical("Stra\u00dfe") == "strasse"


@pytest.mark.parametrize("char", ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2069", "\u200f"])
def test_every_bidirectional_control_is_found(char):
    assert usernames.has_bidi_control(f"ab{char}cd")
    assert not usernames.has_bidi_control("abcd \u05e9\u05dc\u05d5\u05dd")  # Hebrew letters are fine


@pytest.mark.parametrize(
    ("name", "reserved"),
    [
        ("Computer 2", True),
        (f"C{CYRILLIC_O}mputer 1", True),
        ("computer_12", True),
        ("Seat 4", True),
        ("YOU", True),
        ("Computerised", False),
        ("My computer 2", False),
        ("Seattle", False),
    ],
)
def test_server_labels(name, reserved):
    assert usernames.impersonates_server(name) is reserved


@pytest.mark.django_db
def test_the_model_refuses_a_colliding_rename_as_the_admin_would_ask(make_user):
    from accounts.models import User

    make_user("admin")
    for name, code in (("ADMIN", "username_taken"), (f"{CYRILLIC_A}dmin", "username_confusable")):
        user = make_user("zed")
        user.username = name
        with pytest.raises(ValidationError) as refused:
            user.full_clean()
        assert refused.value.error_dict["username"][0].code == code
        User.objects.filter(pk=user.pk).delete()
    # Keeping one's own name is no collision.
    make_user("yara").full_clean()
