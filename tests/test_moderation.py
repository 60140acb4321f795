"""Moderation through the admin, as a member of the "Moderators" group (staff, no
superuser): finding players and rooms, bans and what they do to the banned person's
seats and sign-in, closing rooms, seats to computer players, the replay check, the
read-only log, and who may do any of it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

from accounts.models import BannedToken, SignIn, User
from games import selectors
from games.models import Room, Round
from games.replay import round_replay
from games.services import lobby, play
from moderation.models import ModerationEntry

pytestmark = pytest.mark.django_db

# What moderating needs, and all the group holds.
MODERATOR_PERMISSIONS = {
    "accounts.view_user",
    "games.view_room",
    "games.view_seat",
    "games.view_round",
    "games.view_action",
    "games.view_event",
    "moderation.view_moderationentry",
    "moderation.ban_user",
    "moderation.moderate_room",
    # Apps registered for OAuth2 and players' personal tokens: seen and revoked (deleted).
    "grants.view_personaltoken",
    "grants.delete_personaltoken",
    # The reports' queue, table talk and what a moderator gives from it.
    "moderation.work_reports",
    "moderation.view_case",
    "moderation.view_report",
    "moderation.view_warning",
    "talk.view_chatmessage",
    "talk.view_chattimeout",
    "talk.view_shadowmute",
    *(
        f"oauth2_provider.{verb}_{model}"
        for model in ("application", "accesstoken", "refreshtoken", "grant", "idtoken", "devicegrant")
        for verb in ("view", "delete")
    ),
}
PASSWORD = "correct-horse-9"


def grant(user, perms):
    for perm in perms:
        app, codename = perm.split(".")
        user.user_permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))


@pytest.fixture
def moderator(make_user, moderators_group):
    user = make_user("mod", is_staff=True)
    user.groups.add(moderators_group)
    return user


def started_table(make_user, game="hearts", humans=4):
    users = [make_user() for _ in range(humans)]
    room = lobby.room_create(host=users[0], game=game, options={})
    for user in users[1:]:
        lobby.room_join(code=room.code, user=user)
    for _ in range(room.seats.count() - humans):
        lobby.room_add_bot(code=room.code, user=users[0])
    lobby.room_start(code=room.code, user=users[0])
    room.refresh_from_db()
    return room, users


@pytest.fixture
def table(make_user):
    return started_table(make_user)


def login(api_client, username, password=PASSWORD):
    return api_client().post("/api/v1/auth/token", {"username": username, "password": password}, format="json")


def error(res):
    body = res.json()
    assert body["type"] == "client_error", body
    return body["errors"][0]


def test_the_group_holds_what_moderating_needs_and_nothing_more(moderators_group, moderator):
    held = {f"{p.content_type.app_label}.{p.codename}" for p in moderators_group.permissions.all()}
    assert held == MODERATOR_PERMISSIONS
    assert moderator.get_all_permissions() == MODERATOR_PERMISSIONS


def test_a_moderator_finds_a_player_and_bans_them_from_the_top_of_their_page(client, moderator, make_user):
    player = make_user("cheater", email="cheater@example.com")
    client.force_login(moderator)
    index = client.get(reverse("admin:index")).content.decode()
    assert "permission to view or edit anything" not in index
    for model in ("Users", "Rooms", "Rounds", "Actions", "Events", "Moderation log"):
        assert f">{model}<" in index, model
    assert ">Groups<" not in index and "Tokens" not in index
    listing = client.get(reverse("admin:accounts_user_changelist") + "?q=cheat").content.decode()
    assert reverse("admin:accounts_user_change", args=[player.pk]) in listing
    page = client.get(reverse("admin:accounts_user_change", args=[player.pk])).content.decode()
    ban_url = reverse("admin:accounts_user_ban", args=[player.pk])
    # The Ban button comes before the page's first field, not under the whole form.
    assert page.index(ban_url) < page.index('class="form-row')
    # A moderator sees standing and play, not e-mail, password hash or permissions.
    assert "cheater@example.com" not in page and "pbkdf2" not in page.lower() and "user_permissions" not in page
    assert "Delete" not in page and 'name="_save"' not in page
    form = client.get(ban_url).content.decode()
    assert "reason" in form
    res = client.post(ban_url, {"reason": "abusive chat"})
    assert res.status_code == 302 and res["Location"] == reverse("admin:accounts_user_change", args=[player.pk])
    page = client.get(res["Location"]).content.decode()
    assert "Banned since" in page and "abusive chat" in page
    assert reverse("admin:accounts_user_unban", args=[player.pk]) in page
    log = client.get(reverse("admin:moderation_moderationentry_changelist")).content.decode()
    assert "abusive chat" in log and "cheater" in log


def test_a_ban_answers_the_banned_person_with_the_reason_and_unban_restores(client, api_client, moderator, make_user):
    player = make_user("cheater")
    api = api_client(player)
    assert api.get("/api/v1/me").status_code == 200
    client.force_login(moderator)
    client.post(reverse("admin:accounts_user_ban", args=[player.pk]), {"reason": "abusive chat"})
    player.refresh_from_db()
    assert not player.is_active and player.ban_reason == "abusive chat"
    assert not SignIn.objects.filter(user=player).exists()
    # The revoked token: not "Invalid token", but the ban and its reason.
    res = api.get("/api/v1/me")
    assert res.status_code == 401
    assert error(res)["code"] == "banned" and "abusive chat" in error(res)["detail"]
    res = login(api_client, "cheater")
    assert res.status_code == 401
    assert error(res)["code"] == "banned" and "abusive chat" in error(res)["detail"]
    # Only the right password learns the reason.
    res = login(api_client, "cheater", "a-wrong-guess-1")
    assert error(res)["code"] == "authentication_failed" and "abusive" not in error(res)["detail"]
    res = api_client().get("/api/v1/me", HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert error(res)["code"] == "authentication_failed"
    entry = ModerationEntry.objects.get(kind="ban")
    assert (entry.moderator, entry.target_user, entry.reason) == (moderator, player, "abusive chat")

    client.post(reverse("admin:accounts_user_unban", args=[player.pk]), {"reason": "appeal accepted"})
    assert not BannedToken.objects.filter(user=player).exists()
    assert error(api.get("/api/v1/me"))["code"] == "authentication_failed"  # old sign-ins stay signed out
    res = login(api_client, "cheater")
    assert res.status_code == 200
    assert api_client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Token {res.json()['token']}").status_code == 200
    assert list(ModerationEntry.objects.values_list("kind", flat=True)) == ["unban", "ban"]


def test_a_browser_the_banned_person_used_cannot_start_a_guest_session_or_sign_up_until_the_unban(
    client, api_client, moderator, make_user
):
    player = make_user("cheater")
    api = api_client(player)
    client.force_login(moderator)
    client.post(reverse("admin:accounts_user_ban", args=[player.pk]), {"reason": "abusive chat"})
    # The banned answer marks the browser: signed, unreadable to scripts.
    res = api.get("/api/v1/me")
    assert error(res)["code"] == "banned"
    cookie = res.cookies["banned"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie.value
    guest = {"display_name": "Not A Cheater"}
    res = api.post("/api/v1/auth/guest", guest, format="json")
    assert res.status_code == 401
    assert error(res)["code"] == "banned" and "abusive chat" in error(res)["detail"]
    # The right password's answer marks a browser too.
    fresh = api_client()
    login_answer = fresh.post("/api/v1/auth/token", {"username": "cheater", "password": PASSWORD}, format="json")
    assert error(login_answer)["code"] == "banned" and "banned" in login_answer.cookies
    assert error(fresh.post("/api/v1/auth/guest", guest, format="json"))["code"] == "banned"
    # Nor does it sign up anew: the same answer, with the reason, and no account made.
    sign_up = {"username": "not-a-cheater", "password": "s3cret-enough"}
    res = api.post("/api/v1/auth/register", sign_up, format="json")
    assert res.status_code == 401 and "abusive chat" in error(res)["detail"]
    assert not User.objects.filter(username="not-a-cheater").exists()
    # A forged or foreign marker counts for nothing; neither does an unmarked browser.
    forged = api_client()
    forged.cookies["banned"] = "1:forged"
    assert forged.post("/api/v1/auth/guest", guest, format="json").status_code == 201
    assert api_client().post("/api/v1/auth/guest", guest, format="json").status_code == 201
    # Unbanned: the marked browser may play as a guest again.
    client.post(reverse("admin:accounts_user_unban", args=[player.pk]), {"reason": "appeal accepted"})
    assert api.post("/api/v1/auth/guest", guest, format="json").status_code == 201
    assert api.post("/api/v1/auth/register", sign_up, format="json").status_code == 201


def test_the_banned_error_code_is_documented(api_client):
    schema = api_client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "| `banned` | 401 |" in schema["info"]["description"]


def test_a_ban_hands_seats_in_play_to_computers_frees_lobby_seats_and_closes_lonely_rooms(
    client, api_client, moderator, make_user
):
    playing, users = started_table(make_user)
    cheater, other = users[2], users[1]
    waiting = lobby.room_create(host=other, game="hearts", options={})
    lobby.room_join(code=waiting.code, user=cheater)
    hosted = lobby.room_create(host=cheater, game="hearts", options={})
    lobby.room_join(code=hosted.code, user=other)  # the host is banned: `other` hosts now
    alone = lobby.room_create(host=cheater, game="hearts", options={})
    for _ in range(3):
        lobby.room_add_bot(code=alone.code, user=cheater)
    lobby.room_start(code=alone.code, user=cheater)
    client.force_login(moderator)
    form = client.get(reverse("admin:accounts_user_ban", args=[cheater.pk])).content.decode()
    for room in (playing, waiting, hosted, alone):
        assert room.code in form  # the form says which rooms the ban empties a seat in

    client.post(reverse("admin:accounts_user_ban", args=[cheater.pk]), {"reason": "card sharing"})

    seat = playing.seats.get(index=2)
    assert seat.is_bot and seat.user is None
    assert Round.objects.get(room=playing).state["passes"][2] is not None  # the computer passed at once
    events = api_client(other).get(f"/api/v1/rooms/{playing.code}/events").json()
    taken = [e for e in events if e["type"] == "seat_to_bot"]
    assert taken == [taken[0]] and taken[0]["seat"] == 2 and taken[0]["reason"] == "card sharing"
    assert taken[0]["banned"] is True and taken[0]["name"] == cheater.shown_name
    waiting.refresh_from_db()
    assert waiting.status == "lobby" and not waiting.seats.filter(user=cheater).exists()
    removed = api_client(other).get(f"/api/v1/rooms/{waiting.code}/events").json()[-1]
    assert removed["type"] == "removed" and removed["reason"] == "card sharing" and removed["banned"] is True
    hosted.refresh_from_db()
    assert hosted.status == "lobby" and hosted.host == other
    alone.refresh_from_db()
    assert alone.status == "closed" and "card sharing" in alone.status_reason
    detail = ModerationEntry.objects.get(kind="ban").shown_detail
    assert f"{playing.code} seat 3 given to a computer player" in detail
    assert f"{waiting.code} seat 2 freed" in detail and f"{alone.code} closed" in detail


def test_a_finished_room_keeps_the_banned_players_seat(client, moderator, make_user):
    room, users = started_table(make_user)
    Room.objects.filter(id=room.id).update(status="finished")
    client.force_login(moderator)
    client.post(reverse("admin:accounts_user_ban", args=[users[1].pk]), {"reason": "cheating"})
    assert room.seats.get(index=1).user == users[1]
    entry = ModerationEntry.objects.get(kind="ban")
    assert entry.facts == [{"what": "no_open_rooms"}] and entry.shown_detail == "No open rooms."


def test_moderators_cannot_ban_staff_or_themselves(client, moderator, make_user):
    other_moderator = make_user("mod2", is_staff=True)
    client.force_login(moderator)
    for target in (other_moderator, moderator):
        res = client.post(reverse("admin:accounts_user_ban", args=[target.pk]), {"reason": "a test"}, follow=True)
        assert res.status_code == 200
        target.refresh_from_db()
        assert target.is_active and target.banned_at is None
    assert not ModerationEntry.objects.exists()


def test_a_reason_is_required(client, moderator, make_user):
    player = make_user()
    client.force_login(moderator)
    for reason in ("", "   "):
        res = client.post(reverse("admin:accounts_user_ban", args=[player.pk]), {"reason": reason})
        assert res.status_code == 200  # the form again, with its error
    player.refresh_from_db()
    assert player.is_active and not ModerationEntry.objects.exists()


def test_shutting_down_a_room_tells_everyone_why(client, api_client, moderator, table):
    room, users = table
    client.force_login(moderator)
    page = client.get(reverse("admin:games_room_change", args=[room.id])).content.decode()
    close_url = reverse("admin:games_room_close", args=[room.id])
    # The moderator's action sits in the box at the top, far from the form's grey Close.
    assert "Shut down this room" in page and "Close the room" not in page
    assert page.index(close_url) < page.index('class="form-row')
    res = client.post(close_url, {"reason": "collusion"})
    assert res.status_code == 302
    view = api_client(users[1]).get(f"/api/v1/rooms/{room.code}/state").json()
    assert view["status"] == "closed" and "collusion" in view["status_reason"]
    assert view["you"]["legal_actions"] == []
    events = api_client(users[2]).get(f"/api/v1/rooms/{room.code}/events").json()
    assert events[-1]["type"] == "closed" and "collusion" in events[-1]["reason"]
    res = api_client(users[0]).post(
        f"/api/v1/rooms/{room.code}/actions",
        {"version": view["version"], "action": {"type": "next_round"}},
        format="json",
    )
    assert res.status_code == 409 and res.json()["errors"][0]["code"] == "room_closed"
    assert ModerationEntry.objects.get(kind="close_room").room_id == room.id
    page = client.get(reverse("admin:games_room_change", args=[room.id])).content.decode()
    assert close_url not in page and "This room is closed" in page


def test_a_seat_given_to_a_computer_tells_its_former_player_why(client, api_client, moderator, table):
    room, users = table
    client.force_login(moderator)
    page = client.get(reverse("admin:games_room_change", args=[room.id])).content.decode()
    # Seat index 2 is the third seat: "Seat 3" wherever people read it.
    assert f"Give Seat 3 ({users[2].shown_name}) to a computer player" in page
    assert "Seat 0" not in page
    res = client.post(reverse("admin:games_room_seat_to_bot", args=[room.id, 2]), {"reason": "left the table"})
    assert res.status_code == 302
    seat = room.seats.get(index=2)
    assert seat.is_bot and seat.user is None
    former = api_client(users[2])
    view = former.get(f"/api/v1/rooms/{room.code}/state").json()
    assert "you" not in view
    events = former.get(f"/api/v1/rooms/{room.code}/events").json()
    [event] = [e for e in events if e["type"] == "seat_to_bot"]
    assert event["seat"] == 2 and event["reason"] == "left the table" and "banned" not in event
    res = former.post(
        f"/api/v1/rooms/{room.code}/actions",
        {"version": view["version"], "action": {"type": "next_round"}},
        format="json",
    )
    assert res.status_code == 403 and res.json()["errors"][0]["code"] == "not_seated"
    entry = ModerationEntry.objects.get(kind="seat_to_bot")
    assert entry.target_user == users[2] and entry.facts == [{"what": "seat", "seat": 3}]
    log = client.get(reverse("admin:moderation_moderationentry_changelist")).content.decode()
    assert "left the table" in log and "seat 3" in log


def test_a_players_page_still_finds_the_rooms_they_played_in_after_losing_the_seat(client, moderator, table):
    room, users = table
    pass_all(room, users)
    client.force_login(moderator)
    client.post(reverse("admin:games_room_seat_to_bot", args=[room.id, 2]), {"reason": "left the table"})
    page = client.get(reverse("admin:accounts_user_change", args=[users[2].pk])).content.decode()
    assert reverse("admin:games_room_change", args=[room.id]) in page
    assert f"{room.code} hand 1 #3 seat 3: pass_cards" in page  # their own pass, seat numbered from 1


def pass_all(room, users):
    for user in users:
        view = selectors.view_by_code(code=room.code, user=user)
        room.refresh_from_db()
        template = view["you"]["legal_actions"][0]
        play.action_submit(
            code=room.code,
            user=user,
            version=room.version,
            action={"type": "pass_cards", "cards": template["choices"][:3]},
        )


def test_the_replay_check_reports_tampering_and_is_not_logged(client, moderator, table):
    room, users = table
    pass_all(room, users)
    round_ = Round.objects.get(room=room)
    client.force_login(moderator)
    page = client.get(reverse("admin:games_round_replay", args=[round_.id])).content.decode()
    assert "Consistent:" in page and "4 actions" in page
    # A moderator reading in Hindi reads the verdict in Hindi.
    with translation.override("hi"):
        said = round_replay(round_=round_).detail
        rebuilt = ngettext(
            "The %(count)s action rebuilds the stored state exactly.",
            "The %(count)s actions rebuild the stored state exactly.",
            4,
        )
    assert said == rebuilt % {"count": 4} and "actions" not in said
    hands = round_.state["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    Round.objects.filter(id=round_.id).update(state=round_.state)
    page = client.get(reverse("admin:games_round_replay", args=[round_.id])).content.decode()
    assert "Inconsistent:" in page and "hands" in page
    # Looking changes nothing, so the moderation log has nothing to record.
    assert not ModerationEntry.objects.exists()


def test_a_hands_page_shows_its_state_as_tables(client, moderator, table):
    room, users = table
    pass_all(room, users)
    round_ = Round.objects.get(room=room)
    client.force_login(moderator)
    page = client.get(reverse("admin:games_round_change", args=[round_.id])).content.decode()
    # Every hand, hidden cards included, in its seat's row, cards with their suits.
    for index, hand in enumerate(round_.state["hands"]):
        row = re.search(rf"<tr><th>Seat {index + 1} \({users[index].shown_name}\)</th>(.*?)</tr>", page)
        assert row, index
        shown = re.sub(r"<.*?>", " ", row[1]).split()
        suits = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
        assert {("10" if c[0] == "T" else c[0]) + suits[c[1]] for c in hand} <= set(shown)
    assert "<th>phase</th><td>play</td>" in page
    assert f"<th>turn</th><td>Seat {round_.state['turn'] + 1} (" in page
    # The raw JSON is there for what tables cannot say, folded away.
    assert "<summary>Raw JSON</summary>" in page


def test_the_moderation_log_is_read_only(client, moderator, make_user):
    superuser = make_user("root", is_staff=True, is_superuser=True)
    ModerationEntry.objects.create(moderator=moderator, kind="ban", reason="x", target_user=moderator)
    entry = ModerationEntry.objects.get()
    for user in (moderator, superuser):
        client.force_login(user)
        assert client.get(reverse("admin:moderation_moderationentry_changelist")).status_code == 200
        assert client.get(reverse("admin:moderation_moderationentry_add")).status_code == 403
        assert client.post(reverse("admin:moderation_moderationentry_delete", args=[entry.id])).status_code == 403
        page = client.get(reverse("admin:moderation_moderationentry_change", args=[entry.id])).content.decode()
        assert 'name="_save"' not in page and "x" in page


def test_nobody_removes_or_silences_a_player_or_room_without_a_reason(client, make_user, table):
    """Deleting, or switching an account off, would bypass the log: the admin offers neither."""
    room, users = table
    player = users[1]
    superuser = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(superuser)
    page = client.get(reverse("admin:accounts_user_change", args=[player.pk])).content.decode()
    assert 'name="is_active"' not in page and reverse("admin:accounts_user_delete", args=[player.pk]) not in page
    listing = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert "delete_selected" not in listing
    assert client.post(reverse("admin:accounts_user_delete", args=[player.pk]), {"post": "yes"}).status_code == 403
    # A superuser still edits an account, but whatever the form says, it stays active.
    form = {
        "username": player.username,
        "display_name": "Renamed",
        "is_active": "",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
    }
    res = client.post(reverse("admin:accounts_user_change", args=[player.pk]), form)
    assert res.status_code == 302, res.content.decode()[:2000]
    player.refresh_from_db()
    assert player.display_name == "Renamed" and player.is_active
    page = client.get(reverse("admin:games_room_change", args=[room.id])).content.decode()
    assert reverse("admin:games_room_delete", args=[room.id]) not in page
    assert client.post(reverse("admin:games_room_delete", args=[room.id]), {"post": "yes"}).status_code == 403
    round_ = Round.objects.get(room=room)
    assert client.post(reverse("admin:games_round_delete", args=[round_.id]), {"post": "yes"}).status_code == 403
    assert Room.objects.filter(id=room.id).exists() and Round.objects.filter(id=round_.id).exists()


def test_staff_without_the_permissions_are_refused(client, make_user, table):
    room, users = table
    staff = make_user("helper", is_staff=True)
    grant(staff, ["games.view_room", "accounts.view_user"])
    client.force_login(staff)
    for url in (
        reverse("admin:accounts_user_ban", args=[users[1].pk]),
        reverse("admin:games_room_close", args=[room.id]),
        reverse("admin:games_room_seat_to_bot", args=[room.id, 1]),
        reverse("admin:games_round_replay", args=[Round.objects.get(room=room).id]),
    ):
        assert client.get(url).status_code == 403, url
        assert client.post(url, {"reason": "x"}).status_code == 403, url
    assert client.get(reverse("admin:moderation_moderationentry_changelist")).status_code == 403
    page = client.get(reverse("admin:games_room_change", args=[room.id])).content.decode()
    assert "Shut down this room" not in page and "to a computer player" not in page
    room.refresh_from_db()
    assert room.status == "playing"


def test_normal_users_are_refused_everywhere_in_the_admin(client, table):
    room, users = table
    client.force_login(users[0])
    for url in (
        reverse("admin:index"),
        reverse("admin:games_room_changelist"),
        reverse("admin:games_room_change", args=[room.id]),
        reverse("admin:games_room_close", args=[room.id]),
        reverse("admin:accounts_user_ban", args=[users[1].pk]),
        reverse("admin:moderation_moderationentry_changelist"),
    ):
        res = client.get(url)
        assert res.status_code == 302 and "/admin/login/" in res["Location"], url


def test_game_data_reads_with_seats_from_1_and_suits():
    from moderation.display import action_text, text

    funky = {"type": "pass_cards", "to": {"1": "QS", "3": "TD"}}
    assert action_text(funky) == "pass_cards: to: Seat 2: Q♠, Seat 4: 10♦"
    funky = {"type": "pass_cards", "cards": ["QS", "TD", "2C"], "to": [1, 3, 2]}
    assert action_text(funky) == "pass_cards: cards: Q♠ 10♦ 2♣, to: Seat 2, Seat 4, Seat 3"
    assert action_text({"type": "next_round"}) == "next_round"
    trick = [{"seat": 0, "card": "2C"}, {"seat": 1, "tile": "6-6"}]
    assert text(trick, "trick", ["Ann", "Bob"]) == "Seat 1 (Ann): 2♣; Seat 2 (Bob): 6-6"
    assert text(2, "dealer") == "Seat 3" and text(2, "round") == "2"
    assert text([0, 2], "ready", ["Ann", "Bob", "Cy"]) == "Seat 1 (Ann), Seat 3 (Cy)"
