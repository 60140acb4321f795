"""The event log and the hand summaries, read a page at a time: following the `Link`
header from any position gives every item after it once, in order, for any page size;
what is appended while a reader is between pages comes on a later page; anything but a
whole number in range is refused with the same 400."""

from __future__ import annotations

import random
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from api.serializers import EVENTS_PAGE, EVENTS_PAGE_MAX

from .helpers import errors, play_one, play_to_end
from .test_kali_tidi_api import seat_table

pytestmark = pytest.mark.django_db

NEXT = re.compile(r'<(?P<url>[^>]+)>; rel="next"')
FIXTURE_EXAMPLES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def next_url(res: Any) -> str | None:
    link = res.headers.get("Link")
    if link is None:
        return None
    found = NEXT.fullmatch(link)
    assert found, link
    url = urlsplit(found["url"])
    assert url.scheme == "http" and url.netloc == "testserver", link
    return f"{url.path}?{url.query}"


def read_all(client: Any, url: str, limit: int) -> list[list[dict[str, Any]]]:
    """Every page from `url` on, following the links."""
    pages = []
    while url is not None:
        res = client.get(url)
        assert res.status_code == 200, res.content
        pages.append(res.json())
        url = next_url(res)
        assert len(pages) < 1000, "the links never end"
    for page in pages[:-1]:
        assert len(page) == limit, "only the last page may be short"
    assert len(pages[-1]) <= limit
    return pages


@pytest.fixture
def played(hearts_table) -> tuple[str, dict[int, Any]]:
    """A Hearts room four people play, through the passes (each with a private twin)
    into the first tricks: a log of public events and each seat's own."""
    code, clients, _ = hearts_table()
    rng = random.Random(7)
    for _ in range(12):
        play_one(clients, code, rng)
    return code, clients


@pytest.fixture
def spectator(api_client, make_user) -> Any:
    """A player with no seat in the room: they read its public events only."""
    return api_client(make_user())


def whole_log(client: Any, code: str) -> list[dict[str, Any]]:
    res = client.get(f"/api/v1/rooms/{code}/events?limit={EVENTS_PAGE_MAX}")
    assert res.status_code == 200 and "Link" not in res.headers
    return res.json()


@FIXTURE_EXAMPLES
@given(data=st.data())
def test_following_the_links_reads_every_event_after_the_cursor_once(played, spectator, data):
    code, clients = played
    reader = data.draw(st.sampled_from([clients[0], clients[2], spectator]), label="reader")
    log = whole_log(reader, code)
    last = log[-1]["seq"]
    after = data.draw(st.integers(0, last + 3), label="after")
    limit = data.draw(st.one_of(st.integers(1, 5), st.integers(1, EVENTS_PAGE_MAX)), label="limit")
    pages = read_all(reader, f"/api/v1/rooms/{code}/events?after={after}&limit={limit}", limit)
    read = [event for page in pages for event in page]
    assert read == [event for event in log if event["seq"] > after]


def test_each_reader_pages_through_their_own_log(played, spectator):
    code, clients = played
    public = {e["seq"] for e in whole_log(spectator, code)}
    own = {seat: whole_log(client, code) for seat, client in clients.items()}
    private = set().union(*({e["seq"] for e in log} - public for log in own.values()))
    # Every number of the room's log is public or some seat's own: a spectator sees the
    # private ones as gaps, which is all the room-wide seq of a notice tells them.
    assert private and not public & private
    assert public | private == set(range(1, max(public | private) + 1))
    for seat, log in own.items():
        assert [e for page in read_all(clients[seat], f"/api/v1/rooms/{code}/events?limit=2", 2) for e in page] == log


def test_the_default_page_is_the_one_clients_always_had(played):
    code, clients = played
    res = clients[0].get(f"/api/v1/rooms/{code}/events")
    assert res.status_code == 200 and "Link" not in res.headers
    assert len(res.json()) < EVENTS_PAGE
    assert res.json() == whole_log(clients[0], code)


def test_events_appended_between_pages_come_once_on_later_pages(played):
    code, clients = played
    before = whole_log(clients[0], code)
    first = clients[0].get(f"/api/v1/rooms/{code}/events?limit=3")
    url = next_url(first)
    assert url and first.json() == before[:3]
    # Moves while the reader is between pages.
    rng = random.Random(11)
    for _ in range(8):
        play_one(clients, code, rng)
    rest = [event for page in read_all(clients[0], url, 3) for event in page]
    after = whole_log(clients[0], code)
    assert len(after) > len(before)
    assert first.json() + rest == after


BAD_NUMBERS = st.one_of(
    st.sampled_from(["", "-1", "1.0", "1e3", "0x10", " 1", "1 ", "+1", "\u0661", "abc", "null", "99999999999"]),
    # Any other text, short of characters no parameter may hold (refused as `invalid_character`).
    st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12).filter(
        lambda t: not (t.isascii() and t.isdigit())
    ),
)


@FIXTURE_EXAMPLES
@given(
    name=st.sampled_from(["after", "limit"]),
    value=st.one_of(BAD_NUMBERS, st.integers(EVENTS_PAGE_MAX + 1, 10**9).map(str)),
    path=st.sampled_from(["events", "rounds"]),
)
def test_a_bad_cursor_or_page_size_is_refused_with_a_stable_code(played, name, value, path):
    code, clients = played
    # A whole number past the end is a cursor like any other (its page is empty).
    assume(not (name == "after" and value.isascii() and value.isdigit() and int(value) < 2**31))
    res = clients[0].get(f"/api/v1/rooms/{code}/{path}", {name: value})
    assert res.status_code == 400, res.content
    assert res.json()["type"] == "validation_error"
    assert errors(res) == [("invalid", name)]


@pytest.mark.parametrize("path", ["events", "rounds"])
def test_a_page_size_of_zero_and_a_repeated_cursor_are_refused(played, path):
    code, clients = played
    base = f"/api/v1/rooms/{code}/{path}"
    for query in ("limit=0", "after=1&after=2", "limit=2&limit=3"):
        res = clients[0].get(f"{base}?{query}")
        assert res.status_code == 400 and errors(res)[0][0] == "invalid", (query, res.content)


def test_the_hand_summaries_page_by_hand(api_client, make_user):
    code, clients = seat_table(api_client, make_user, humans=1, players=3, team_mode="cards", target=1000)
    final = play_to_end(clients, code, seed=5)
    assert final["status"] == "finished"
    res = clients[0].get(f"/api/v1/rooms/{code}/rounds")
    assert res.status_code == 200 and "Link" not in res.headers
    hands = res.json()
    assert len(hands) >= 3 and [h["round"] for h in hands] == list(range(1, len(hands) + 1))
    for limit in (1, 2):
        pages = read_all(clients[0], f"/api/v1/rooms/{code}/rounds?limit={limit}", limit)
        assert [hand for page in pages for hand in page] == hands
    later = clients[0].get(f"/api/v1/rooms/{code}/rounds?after=2").json()
    assert later == hands[2:]
