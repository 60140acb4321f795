"""The games' names and their options' descriptions as a person reads them, in the
active language.

The engines (games/rules/) are plain Python and name each game in English (`Game.name`);
the name a person reads is translated here, by the game's key, which never changes. A
game whose name is not listed here (a folder just dropped in) is named in its engine's
English.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_noop, pgettext_lazy

from . import rules

NAMES: dict[str, Promise] = {
    # Translators: a game's name, as the catalogue of games, the lobby and the notices show it.
    "hearts": pgettext_lazy("game", "Hearts"),
    # Translators: a game's name: "Moon" is the Texas domino game's own name.
    "moon": pgettext_lazy("game", "Moon (dominoes)"),
    # Translators: a game's name: Kali Tidi is the Indian card game's own, "Moon 3 of Spades" another it goes by.
    "kali_tidi": pgettext_lazy("game", "Kali Tidi (Moon 3 of Spades)"),
}


def name_of(key: str) -> str:
    """The name of the game `key` in the active language."""
    found = NAMES.get(key)
    return str(found) if found is not None else rules.get(key).name


def name_for(english: str) -> str:
    """The name in the active language of the game its engine names `english` (a rule's
    refusal quotes the engine's name); `english` itself if no game is named so."""
    key = next((game.key for game in rules.all_games() if game.name == english), None)
    return name_of(key) if key is not None else english


# What each option does, as the catalogue of games (`GET games`) describes it to a
# person choosing it in a third-party app: the engines' English, word for word, marked
# here so that the catalogues hold it (the engines import nothing of Django). The web
# client words its own choices (web/static/web/options.js). A description not listed
# here is shown in English.
OPTION_HELP = frozenset(
    {
        # Hearts
        gettext_noop("Every fourth hand: no pass (hold), or a funky pass of one card to each other player."),
        gettext_noop("The 2♣ holder may lead any club to the first trick."),
        gettext_noop("Playing Q♠ breaks hearts too."),
        gettext_noop(
            "Shooting the moon: everyone else +26; the shooter's choice of -26 for themself or +26 for the others; "
            "or the Sweedo moon (needs J♦ too: -36, or -10 and +26 for the others)."
        ),
        gettext_noop("Points for taking J♦ (Sweedo: -10)."),
        gettext_noop("Points for a player who takes no trick, except in a moon hand (Sweedo: -5)."),
        gettext_noop("The match ends after a hand in which someone gets here."),
        gettext_noop("End the match when a score reaches the target, or only when it exceeds it."),
        # Moon
        gettext_noop(
            "Three players with a widow (22-tile cut deck), or four in partnerships 0+2 and 1+3 (all 28 tiles)."
        ),
        gettext_noop("Moon (21) may be bid at any turn, not only after a bid of 7."),
        gettext_noop("Three players: the high bidder may take the widow (then discards one), or must."),
        gettext_noop("A player able to follow a non-trump lead may play a trump instead."),
        # Kali Tidi
        gettext_noop("Players, 2 to 7."),
        gettext_noop("1 or 2 decks (default, or null: 1 for 2 to 4 players, 2 for 5 to 7)."),
        gettext_noop(
            "teams: chosen in the lobby; random: drawn at the start (3+ players); cards: each hand the bid winner "
            "calls partner cards (3+ players)."
        ),
        gettext_noop("teams mode: the two team sizes, e.g. [3, 4] (default an even split)."),
        gettext_noop(
            "cards mode with 2 decks: the first or the last other player to play a called card is the partner."
        ),
        gettext_noop("Lowest bid, a multiple of 5 (default 125 with 1 deck, 250 with 2)."),
        gettext_noop("Match target (default 250 with 1 deck, 500 with 2)."),
        gettext_noop("three_of_spades: 3♠ is always the highest trump (and only a trump)."),
        # Every room's timing and table options (games/rules/options.py)
        gettext_noop(
            "Seconds each turn has before the server acts for the player: every turn its own, the same player's "
            "next turn included (in the pause between hands, between_rounds_seconds). Outages of the server are "
            "added."
        ),
        gettext_noop(
            "Seconds of a player's own waiting time before the match is abandoned (or their seat handed to a "
            "computer player, on_abandon): the time the game waited for them in their turns since they last acted "
            "themself. Others' turns, the pause between hands and the server's outages never count; turns that run "
            "out add up."
        ),
        gettext_noop(
            "What happens when a player runs past abandon_seconds: 'end' abandons the match; 'bot' gives their seat "
            "to a computer player, who plays on until they reclaim it (the match is abandoned once every seat is a "
            "computer player's)."
        ),
        gettext_noop("Pause after a hand before the next one starts."),
        gettext_noop(
            "Whether the players may write free text to each other during a hand (quick phrases always; free text "
            "in the lobby, between hands and after the match always); null: yes, except where partners are hidden "
            "(Kali Tidi's cards mode)."
        ),
        gettext_noop(
            "Whether the finished match changes its players' ratings; null: rated when every seat is a person at "
            "the start. In a rated room computer players count as opponents of a fixed rating. Fixed when the "
            "match starts."
        ),
    }
)


def option_help(description: str) -> str:
    """An option's description in the active language (English where it is not listed)."""
    return gettext(description) if description in OPTION_HELP else description


def catalogue_entry(game: rules.Game[Any]) -> dict[str, Any]:
    """The game's entry of the catalogue of games (`Game.catalogue`) with its name and
    its options' descriptions in the active language; its keys and values as they are."""
    entry = game.catalogue()
    entry["name"] = name_of(game.key)
    entry["options"] = {
        name: {**schema, "description": option_help(schema["description"])} for name, schema in entry["options"].items()
    }
    return entry
