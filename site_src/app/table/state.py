"""The game page's state and display model: S, the seating, the table as shown, small DOM helpers.

Part of the game page (site_src/app/game.py is its entry point). Owns ``S``, the page's one
state dict (the engine's last reply, the display model, what the person is asked), the
seating words, the display model built from the engine's view, and the helpers that make
elements and cards. Imports no other table module; touches the DOM only to read elements and
make new ones.
"""

import js

from dom import document

from cardview import make  # the page's one element maker (text only, never markup)
from table import store


YOUR_SEAT = 0
"""The seat of the person playing on this page (a seat number; what sits there is a seat kind,
``engine.game.PERSON``)."""

COMPUTER_SEAT = 1
"""The computer's seat in a two-player game against it."""


NAMES = ["You", "Computer"]


LIVE_KEEP = 6  # announcements kept in the live region


LOG_KEEP = 3000  # lines: a whole game, however long


DIFFICULTY_WORDS = {"easy": "Easy", "hard": "Hard", "expert": "Expert"}


S = {
    "game": None,        # the engine's game JSON text
    "meta": {},          # difficulty, practice, practice_seed, recorded
    "view": None,        # seat 0's view from the last reply
    "awaiting": None,    # discard, play, count, computer or over (from the engine)
    "result": None,      # its parts for the banner: title, score, skunk
    "cards": {},         # "card int" -> display data from the engine
    "model": None,       # what is on the table while events are being shown
    "queue": [],         # events still to show
    "busy": False,
    "waiting": "",
    "selected": [],      # cards picked for the crib
    "thrown": [],
    "settings": dict(store.DEFAULT_SETTINGS),
    "steps": {},         # show block -> phrase being stepped through
    "hand_key": "",
    "turns": 0,          # counts the decisions offered (#game[data-turn]), for tests
    "replies": 0,        # counts the engine replies taken (a decision offered again is not new)
    "offered": None,     # (decision, reply) last counted in "turns"
    "keyboard": False,   # has the person used the keyboard (then focus follows the game)
    "readonly": False,   # another tab has taken the game over
    "restart": None,     # the step dealing a new game asked for while the page was busy
    "before_setup": "",  # the decision that was on offer when the setup was opened
    "players": 2,        # seats at the table
    "names": list(NAMES),  # short names by seat (the engine's, or the pass-and-play names)
    "passing": False,    # two people sharing the device (pass and play)
    "me": YOUR_SEAT,         # the person whose cards the table shows (pass and play: either seat)
    "hidden": False,     # pass and play: both hands hidden until the next person taps
    "catching_up": False,  # a resumed game's last moves are being shown again (no waiting)
    "skip_show": False,  # the person asked for the rest of the counting at once (flow.on_skip_show)
    "slot": "game",      # the kind of game on the table, which says where it is saved (store.game_key)
    "saved": None,       # (game JSON, stop) as last saved or loaded
    "opening_cut": None,  # the cut for first deal, shown beside the first hand until a discard
    "hint_cards": [],    # cards the coach's hint lights up in the hand (coach.py)
    "friend": None,      # a friend game at the table: its id, this page's seat and texts (friend_play.py)
    "owed": None,        # a resumed game whose computers' moves are being checked: [its slot, its meta]
    "ahead": None,       # a friend game: the cards thrown while the other side was still to discard
}


def seating_request():
    """The seating part of every engine request (pass and play needs the names and a seat)."""
    if S["friend"] is not None:
        return {"seat": S["me"]}
    if not S["passing"]:
        return {}
    return {"pass_and_play": True, "names": list(S["names"]), "seat": S["me"]}


def is_multi():
    """More than one opponent's seat, or two people: the table shows a seat list."""
    return S["players"] > 2 or S["passing"] or S["friend"] is not None


def side_seats(seat):
    """The seats sharing this seat's score (partners with four players)."""
    if S["players"] == 4:
        return [seat % 2, seat % 2 + 2]
    return [seat]


def board_names():
    """The board's tracks: one per player, or one per partnership with four."""
    if S["players"] == 4:
        return ["You & partner", "Opponents"]
    return list(S["names"])


def board_scores(scores):
    """The scores for the board's tracks: one per side (the engine's scores stop at the target)."""
    return list(scores[:2] if S["players"] == 4 else scores)


def whose(seat, capital=True):
    """"Your", "Computer's", "Left's", "Ann's" for a seat's hand or crib."""
    if seat == S["me"] and not S["passing"]:
        word = "your"
    elif not is_multi():
        word = "the computer's"
    else:
        word = S["names"][seat] + "\u2019s"
    return cap(word) if capital else word


def who(seat):
    """"You", "The computer", "Left", "Ann" as the subject of a sentence."""
    if seat == S["me"] and not S["passing"]:
        return "You"
    return S["names"][seat] if is_multi() else "The computer"


def others_left(model):
    """Cards the other seats still hold."""
    return sum(n for s, n in enumerate(model["left"]) if s != S["me"])


def discard_need():
    """Cards each player throws to the crib."""
    return 2 if S["players"] == 2 else 1


def can_discard_ahead():
    """True while a friend game's other side is to discard first (the engine takes the discards
    in seat order) and this page's person, holding the whole hand, has not yet thrown ahead: the
    person may pick their cards meanwhile and throw them (``S["ahead"]``); they go to the crib as
    soon as the discard is theirs (game.py's ``throw_ahead``)."""
    view = S["view"]
    return (S["friend"] is not None and S["waiting"] == "friend" and S["ahead"] is None and view is not None
            and view.get("phase") == "discard" and not view.get("sealing") and view.get("to_act") != S["me"]
            and len(view.get("hand") or []) == discard_need() + 4)


def is_picking():
    """True while the person's cards are being picked for the crib: their discard, or one ahead."""
    return S["waiting"] == "discard" or can_discard_ahead()


def humans():
    """The people's seats (a friend game: this page's own)."""
    if S["friend"] is not None:
        return [S["me"]]
    return [0, 1] if S["passing"] else [YOUR_SEAT]


def q(element_id):
    """The element with this id."""
    return document.getElementById(element_id)


def shown(element_id, flag):
    """Show or hide an element."""
    q(element_id).hidden = not flag


def log_console(*parts):
    """Details for developers go to the console, never into the page."""
    js.console.error(*[str(part) for part in parts])


def info(card):
    """The engine's display data for a card (names, rank, suit)."""
    return S["cards"].get(str(card)) or {"rank": "?", "glyph": "", "suit": "", "spoken": "a card",
                                         "pretty": "?"}


def card_face(card, tag="span", cls=""):
    """A face-up card: a button (for the player's hand) or an image with the card's name."""
    data = info(card)
    element = make(tag, "card pcard" + (" " + cls if cls else ""))
    element.setAttribute("data-suit", data["suit"])
    element.setAttribute("data-card", str(card))
    corner = make("span", "pc-corner")
    corner.append(make("span", "pc-rank", data["rank"]), make("span", "pc-small", data["glyph"]))
    corner.setAttribute("aria-hidden", "true")
    pip = make("span", "pc-pip", data["glyph"])
    pip.setAttribute("aria-hidden", "true")
    element.append(corner, pip)
    if tag == "button":
        # The name is text (not aria-label), so what is seen stays out of what is said.
        element.type = "button"
        element.append(make("span", "pc-name visually-hidden", data["spoken"]))
    else:
        element.setAttribute("role", "img")
        element.setAttribute("aria-label", data["spoken"])
    return element


def card_back(cls=""):
    """A face-down card (decoration: the counts are said in words)."""
    element = make("span", "card pcard card-back" + (" " + cls if cls else ""))
    element.setAttribute("aria-hidden", "true")
    return element


def cap(text):
    """The text with its first letter in capitals."""
    return text[:1].upper() + text[1:]


def model_from_view(view):
    """The table as the engine's view of seat 0 describes it."""
    laid = [list(pair) for pair in view["laid"]]
    return {
        "hand_number": view["hand_number"], "dealer": view["dealer"], "scores": list(view["scores"]),
        "target": view["target"], "muggins": view["muggins"], "hand": list(view["hand"]),
        "played": list(view["played"]), "discards": view["discards"],
        "left": list(view["hand_sizes"]), "crib_size": view["crib_size"], "crib": view["crib"],
        "starter": view["starter"], "laid": laid, "count_start": len(laid) - len(view["current"]),
        "count": view["count"], "go": list(view["go"]), "shown": list(view["shown"]),
        "counting": view["counting"], "commitment": view["commitment"], "seed": view["seed"],
        "last_hand": view["last_hand"], "over": view["is_over"], "winner": view["winner"],
        "legal": [a["card"] for a in view["legal_actions"] if a["type"] == "play"],
        "cut": None, "revealed": view.get("revealed"),
    }


def blank_model(view):
    """The table before the first events of a new game are shown."""
    model = model_from_view(view)
    model.update({"hand": [], "left": [0] * len(view["hand_sizes"]), "crib_size": 0, "commitment": None,
                  "hand_number": 0, "scores": [0] * len(view["scores"]), "legal": [], "revealed": None})
    return model


def start_hand(model, event):
    """Clear the table for a new deal."""
    model.update({"hand_number": event["hand_number"], "dealer": event["dealer"], "hand": [],
                  "played": [], "discards": None, "left": [event.get("cards_each", 0)] * len(model["left"]),
                  "crib_size": 0, "crib": None,
                  "starter": None, "laid": [], "count_start": 0, "count": 0, "go": [], "shown": [],
                  "counting": None, "commitment": event["commitment"], "seed": None, "legal": [],
                  "revealed": None})
    S["steps"] = {}
    S["ahead"] = None


def final_cards(model, seat):
    """The cards a seat still held when the game ended (the final board turns them up), or None."""
    revealed = model.get("revealed")
    if not model["over"] or not revealed:
        return None
    held = revealed.get("held") or []
    return list(held[seat]) if 0 <= seat < len(held) else None


def final_crib(model):
    """The crib's cards once the game is over (turned up on the final board), or None."""
    revealed = model.get("revealed")
    if not model["over"] or not revealed or not revealed.get("crib"):
        return None
    return list(revealed["crib"])


def display_phase(model):
    """What the table shows: none, cut, discard, play, show or over (#game[data-phase])."""
    if model is None:
        return "none"
    if model["over"]:
        return "over"
    if model["shown"] or model["counting"]:
        return "show"
    if model["starter"] is None:
        return "cut" if model["cut"] is not None else "discard"
    return "play"
