#!/usr/bin/env python3
"""Check the deals of a room's finished hands (`hmac-sha256-fisher-yates-v2`, and v1 before it).

Standard library only, and independent of the server's code: it repeats the public
algorithm from the answer of `GET /api/v1/rooms/{code}/rounds`.

    tools/verify_deals.py rounds.json
    curl -s $API/rooms/$CODE/rounds -H "$H" | tools/verify_deals.py -
    tools/verify_deals.py https://example.org/api/v1/rooms/ABC234/rounds [--token T]

For each hand it checks that the revealed server seed matches the commitment, and that
every deal is the canonical deck shuffled by the seeds and dealt round-robin. Exit
status 0 when every hand checks out, 1 otherwise (or when there is nothing to check).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import re
import sys
import urllib.request
from collections import Counter
from typing import Any

# v2 writes the client seeds in the message as a JSON array without spaces; v1, the
# hands dealt before it, joined them with commas.
SEEDS_TEXT = {
    "hmac-sha256-fisher-yates-v1": lambda seeds: ",".join(seeds),
    "hmac-sha256-fisher-yates-v2": lambda seeds: json.dumps(seeds, separators=(",", ":")),
}
RANKS = "23456789TJQKA"
SUITS = "CDHS"
WORD = 2**32


def commitment(server_seed: str) -> str:
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()


def stream(server_seed: str, code: str, hand: int, redeal: int, seeds: str) -> Any:
    key = bytes.fromhex(server_seed)
    counter = 0
    while True:
        message = f"{code}:{hand}:{redeal}:{seeds}:{counter}"
        yield from hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()
        counter += 1


def shuffled(deck: list[str], bytes_: Any) -> list[str]:
    out = list(deck)
    for i in range(len(out) - 1, 0, -1):
        limit = WORD - WORD % (i + 1)
        x = int.from_bytes(bytes(next(bytes_) for _ in range(4)), "big")
        while x >= limit:
            x = int.from_bytes(bytes(next(bytes_) for _ in range(4)), "big")
        j = x % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def card_deck(copies: int) -> list[str]:
    return [r + s for _ in range(copies) for s in SUITS for r in RANKS]


def canonical_deck(game: str, dealt: list[str]) -> list[str]:
    """The game's canonical deck, given what one deal held (it tells how many players
    and which cards were removed for the match)."""
    if game == "moon":
        full = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
        # Three players play the cut deck (no blanks but 0-0), four the whole set.
        return full if len(dealt) == 28 else [t for t in full if t == "0-0" or not t.endswith("-0")]
    copies = -(-len(dealt) // 52)
    deck = card_deck(copies)
    for card in (Counter(deck) - Counter(dealt)).elements():
        deck.remove(card)
    return deck


def check_hand(entry: dict[str, Any]) -> list[str]:
    """What is wrong with one hand's revealed fairness; [] when it checks out."""
    fair = entry.get("fairness")
    if not isinstance(fair, dict):
        return ["no fairness record (a hand dealt before deals were provable)"]
    problems = []
    if fair.get("algorithm") not in SEEDS_TEXT:
        return [f"unknown algorithm {fair.get('algorithm')!r}"]
    seeds = SEEDS_TEXT[fair["algorithm"]](list(fair["client_seeds"]))
    seed = fair["server_seed"]
    if not re.fullmatch(r"[0-9a-f]{64}", seed):
        return ["the server seed is not 64 lowercase hex characters"]
    if commitment(seed) != fair["commitment"]:
        problems.append("the server seed does not match the commitment")
    if fair.get("hand") != entry.get("round"):
        problems.append(f"the record is for hand {fair.get('hand')}, listed as hand {entry.get('round')}")
    if not fair["deals"]:
        problems.append("no deal recorded")
    removed: Counter[str] | None = None
    for number, deal in enumerate(fair["deals"]):
        if deal.get("redeal") != number:
            problems.append(f"deal {number} is numbered {deal.get('redeal')}")
        hands, widow = deal["hands"], deal["widow"]
        players = len(hands)
        if len(fair["client_seeds"]) != players:
            problems.append(f"{len(fair['client_seeds'])} client seeds for {players} seats")
        dealt = [piece for hand in hands for piece in hand] + list(widow)
        deck = canonical_deck(fair["game"], dealt)
        if fair["game"] != "moon":
            now_removed = Counter(card_deck(-(-len(dealt) // 52))) - Counter(dealt)
            if fair["game"] == "hearts" and now_removed:
                problems.append(f"deal {number}: cards missing from the deck")
            removed = now_removed if removed is None else removed
            if now_removed != removed:
                problems.append(f"deal {number}: other cards removed than in the first deal")
        pack = shuffled(deck, stream(seed, fair["code"], fair["hand"], number, seeds))
        size = len(hands[0]) if hands else 0
        expected = [pack[s : players * size : players] for s in range(players)]
        for seat, (got, want) in enumerate(zip(hands, expected, strict=True)):
            if got != want:
                problems.append(f"deal {number}: seat {seat}'s hand is not the one the seeds give")
        if list(widow) != pack[players * size :]:
            problems.append(f"deal {number}: the cards left over are not those the seeds give")
    return problems


def verify(rounds: list[dict[str, Any]], out: Any = sys.stdout) -> bool:
    if not rounds:
        print("No finished hand to check.", file=out)
        return False
    ok = True
    for entry in rounds:
        problems = check_hand(entry)
        hand = entry.get("round")
        if problems:
            ok = False
            for problem in problems:
                print(f"hand {hand}: FAILED: {problem}", file=out)
        else:
            deals = len(entry["fairness"]["deals"])
            print(f"hand {hand}: verified ({deals} deal{'s' if deals != 1 else ''})", file=out)
    print("All hands verified." if ok else "Some hands did NOT verify.", file=out)
    return ok


def load(source: str, token: str | None) -> Any:
    if source == "-":
        return json.load(sys.stdin)
    if source.startswith(("http://", "https://")):
        request = urllib.request.Request(source, headers={"Accept": "application/json"})
        if token:
            request.add_header("Authorization", f"Token {token}")
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)
    with open(source, encoding="utf-8") as file:
        return json.load(file)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a file with the rounds answer, - for stdin, or its URL")
    parser.add_argument("--token", help="an API token, to fetch the URL as a signed-in user")
    args = parser.parse_args(argv)
    try:
        rounds = load(args.source, args.token)
        return 0 if verify(rounds) else 1
    except (OSError, ValueError, KeyError, TypeError) as err:
        print(f"Cannot check: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
