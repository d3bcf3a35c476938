"""The home page: a game of cribbage against the computer.

Runs in MicroPython on the main thread (keep to the subset). This module binds the page and
draws what the engine returns; every rule, count, decision and word of commentary comes from
the engine in the worker (engine/table.py, called through bridge.call). The page keeps the
game's JSON, sends it with each call and saves what comes back (store.py), so a reload picks
the game up exactly where it was and can never deal a hand again. While the events of a reply
are still being shown, or the page waits at a go or at "Deal hand N", the save also holds the
table's position (the table as shown, the events still to show, the stop: see table_position),
so a reload comes back to that very place; store.check_table validates it, and anything wrong
with it only means resuming from the engine's view.

The flow: an engine reply brings the new game JSON, the view of seat 0 and the events that
led there. The events are shown one by one, at the pace the player chose, on a display model
that starts from the previous view; when they are all shown the model is the reply's view
again. While the computer is to act the page asks the engine for its move, and so on, until
the person has a decision to make (#game[data-await] says which: discard, play, go, count,
next, over, setup or retry; empty while the page is busy).
"""

import asyncio
import json

import js
from pyscript import document, window

import board
import bridge
import store

try:
    import stats_view
except ImportError:
    stats_view = None

HUMAN = 0
COMPUTER = 1
NAMES = ["You", "Computer"]
BEATS = {"slow": 1.6, "normal": 0.9, "fast": 0.3}  # seconds per beat of the computer's play
LIVE_KEEP = 6  # announcements kept in the live region
LOG_KEEP = 200
DIFFICULTY_WORDS = {"easy": "Easy", "hard": "Hard"}

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
    "keyboard": False,   # has the person used the keyboard (then focus follows the game)
    "readonly": False,   # another tab has taken the game over
    "restart": None,     # options of a new game asked for while the page was busy
    "before_setup": "",  # the decision that was on offer when the setup was opened
    "players": 2,        # seats at the table
    "names": list(NAMES),  # short names by seat (the engine's, or the pass-and-play names)
    "passing": False,    # two people sharing the device (pass and play)
    "me": HUMAN,         # the person whose cards the table shows (pass and play: either seat)
    "hidden": False,     # pass and play: both hands hidden until the next person taps
    "placed": False,     # the last save holds the table's position (events still to show, a stop)
    "opening_cut": None,  # the cut for first deal, shown beside the first hand until a discard
}


def seating_request():
    """The seating part of every engine request (pass and play needs the names and a seat)."""
    if not S["passing"]:
        return {}
    return {"pass_and_play": True, "names": list(S["names"]), "seat": S["me"]}


def is_multi():
    """More than one opponent's seat, or two people: the table shows a seat list."""
    return S["players"] > 2 or S["passing"]


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
    """The scores for the board's tracks."""
    return list(scores[:2]) if S["players"] == 4 else list(scores)


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


# --------------------------------------------------------------------------------------------
# Small DOM helpers


def q(element_id):
    """The element with this id."""
    return document.getElementById(element_id)


def make(tag, cls=None, text=None):
    """A new element with a class and text (text only, never markup)."""
    element = document.createElement(tag)
    if cls:
        element.className = cls
    if text is not None:
        element.textContent = text
    return element


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


# --------------------------------------------------------------------------------------------
# The display model


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


# --------------------------------------------------------------------------------------------
# Rendering


def render():
    """Draw the whole table from the display model."""
    model = S["model"]
    q("game").setAttribute("data-phase", display_phase(model))
    if model is None:
        return
    render_status(model)
    render_seats(model)
    render_middle(model)
    render_shows(model)
    render_hand(model)
    render_fair(model)


def render_status(model):
    """The line above the table and the options summary."""
    meta = S["meta"]
    parts = []
    if model["hand_number"]:
        parts.append("Hand " + str(model["hand_number"]))
        if is_multi():
            dealer = model["dealer"]
            parts.append("you deal" if dealer == S["me"] and not S["passing"] else S["names"][dealer] + " deals")
        else:
            parts.append("you deal" if model["dealer"] == HUMAN else "the computer deals")
    parts.append("game to " + str(model["target"]))
    if S["players"] == 4:
        parts.append("partners")
    if model["muggins"]:
        parts.append("muggins")
    q("status-hand").textContent = cap(" · ".join(parts))
    shown("practice-badge", bool(meta.get("practice")))
    q("cpu-level").textContent = "(" + DIFFICULTY_WORDS.get(meta.get("difficulty"), "Easy").lower() + ")"
    opponents = "" if S["passing"] else (DIFFICULTY_WORDS.get(meta.get("difficulty"), "Easy")
                                         + (" opponents" if S["players"] > 2 else " opponent") + " · ")
    q("options-line").textContent = ((table_words() + " · " if is_multi() else "") + opponents + "game to "
                                     + str(model["target"]) + " · muggins "
                                     + ("on" if model["muggins"] else "off")
                                     + (" · practice" if meta.get("practice") else ""))


def table_words():
    """The kind of table: "Two players", "Three players", "Four players in partnerships"."""
    if S["passing"]:
        return "Two players, one device"
    return {2: "Two players", 3: "Three players", 4: "Four players in partnerships"}[S["players"]]


def render_seat_list(model):
    """Every seat in turn order from the dealer's left: dealer, whose turn, go, cards and score."""
    box = q("seat-list")
    box.hidden = not is_multi()
    q("seat-cpu").hidden = is_multi()
    if not is_multi():
        return
    n = S["players"]
    phase = display_phase(model)
    turn = S["view"]["to_act"] if S["view"] is not None and not S["queue"] else None
    if S["waiting"] in ("next", "over", "setup", "retry") or phase in ("show", "over", "cut"):
        turn = None
    box.replaceChildren()
    first = (model["dealer"] + 1) % n if model["hand_number"] else 0
    for i in range(n):
        seat = (first + i) % n
        item = make("li", "seat-item")
        item.setAttribute("data-seat", str(seat))
        name = S["names"][seat]
        label = make("span", "seat-item-name", name)
        item.append(label)
        chips = make("span", "seat-item-chips")
        if model["hand_number"] and model["dealer"] == seat:
            chips.append(make("span", "seat-chip dealer-chip", "Dealer"))
        if seat in model["go"] and phase == "play":
            chips.append(make("span", "seat-chip go-chip", "Go"))
            item.classList.add("has-gone")
        if turn == seat:
            chips.append(make("span", "seat-chip turn-chip", "To play" if phase == "play" else "Deciding"))
            item.classList.add("is-turn")
            item.setAttribute("aria-current", "true")
        item.append(chips)
        if S["players"] == 4:
            item.classList.add("side-" + str(seat % 2))
        held = model["left"][seat] if seat < len(model["left"]) else 0
        backs = make("span", "seat-item-cards")
        final = final_cards(model, seat) if seat != S["me"] or S["passing"] else None
        if final is not None:
            backs.classList.add("is-revealed")
            for card in final:
                face = card_face(card, cls="card-final")
                face.setAttribute("aria-hidden", "true")
                backs.append(face)
            backs.append(make("span", "visually-hidden", name + (" held " + ", ".join(
                info(card)["spoken"] for card in final) if final else " had no cards left") + " at the end"))
        else:
            for _ in range(held):
                backs.append(card_back("card-tiny"))
            backs.append(make("span", "visually-hidden", name + " holds " + str(held)
                              + (" card" if held == 1 else " cards")))
        item.append(backs)
        points = make("span", "seat-item-score", str(model["scores"][seat]))
        points.setAttribute("data-score-seat", str(seat))
        item.append(points)
        box.append(item)


def render_seats(model):
    """Scores, dealer and go marks, and the computer's cards face down."""
    render_seat_list(model)
    me = S["me"]
    q("you-name").textContent = (S["names"][me] if S["passing"] and not S["hidden"]
                                 else ("Your cards" if S["hidden"] else "You"))
    if S["players"] == 4:
        q("you-name").textContent = "You (with Partner)"
    for seat, prefix in ((HUMAN, "you"), (COMPUTER, "cpu")):
        shown_seat = me if seat == HUMAN else (1 - me if S["players"] == 2 else seat)
        score = q("score-" + str(seat))
        text = str(model["scores"][shown_seat])
        if score.textContent != text:
            score.textContent = text
            pill = score.parentElement
            pill.classList.remove("is-bumped")
            pill.getBoundingClientRect()
            pill.classList.add("is-bumped")
        shown(prefix + "-dealer", model["hand_number"] > 0 and model["dealer"] == shown_seat)
        shown(prefix + "-go", shown_seat in model["go"] and display_phase(model) == "play")
    if S["hidden"]:
        shown("you-dealer", False)
        shown("you-go", False)
    cpu = q("cpu-hand")
    cpu.replaceChildren()
    other = 1 - me if S["players"] == 2 else None
    holder = S["names"][other] if S["passing"] and other is not None else "The computer"
    final = final_cards(model, other) if other is not None else None
    cpu.classList.toggle("is-revealed", final is not None)
    if final is not None:
        # The final board: whatever the other side still held is turned up.
        for card in final:
            item = make("li")
            item.append(card_face(card, cls="card-final"))
            cpu.append(item)
        cpu.setAttribute("aria-label", holder + (" held " + ", ".join(info(card)["spoken"] for card in final)
                                                 if final else " had no cards left") + " at the end")
        return
    n = model["left"][other] if other is not None else 0
    for _ in range(n):
        item = make("li")
        item.append(card_back("card-small"))
        cpu.append(item)
    cpu.setAttribute("aria-label", holder + " holds " + ("no cards" if n == 0 else
                                                         ("one card" if n == 1 else str(n) + " cards")))


def render_middle(model):
    """The starter, the crib, the count and the cards laid (or the cut for first deal)."""
    phase = display_phase(model)
    starter = q("starter")
    starter.replaceChildren()
    if model["starter"] is not None:
        starter.append(card_face(model["starter"], cls="card-starter"))
    elif model["hand_number"]:
        deck = card_back("card-deck")
        starter.append(deck)
    crib = q("crib")
    crib.replaceChildren()
    turned = final_crib(model)
    crib.classList.toggle("is-revealed", turned is not None)
    if turned is not None:
        for card in turned:
            crib.append(card_face(card, cls="card-final"))  # the final board: the crib turned up
    else:
        for _ in range(min(model["crib_size"], 4)):
            crib.append(card_back("card-stack"))
    crib.setAttribute("data-size", str(model["crib_size"]))
    if model["hand_number"]:
        q("crib-label").textContent = ((whose(model["dealer"]) + " crib") if is_multi() else
                                       ("Your crib" if model["dealer"] == HUMAN else "Computer's crib"))
    q("count").textContent = str(model["count"])
    laid = q("laid")
    laid.replaceChildren()
    cut = model["cut"] if phase == "cut" else (S["opening_cut"] if phase == "discard" else None)
    if cut is not None:
        cuts = cut["cuts"][-S["players"]:]
        for seat, card in cuts:
            item = make("li", "laid-item cut-item")
            item.append(card_face(card))
            item.append(make("span", "laid-by", (who(seat) if is_multi() else
                                                 ("You" if seat == HUMAN else "Computer")) + " cut"))
            laid.append(item)
        laid.setAttribute("aria-label", "The cut for first deal")
        q("count-box").hidden = True
        return
    q("count-box").hidden = phase not in ("play",)
    laid.setAttribute("aria-label", "Cards laid this hand")
    for index, pair in enumerate(model["laid"]):
        seat, card = pair
        current = index >= model["count_start"]
        mine = seat == S["me"] and not S["hidden"]
        cls = "laid-item " + ("by-you" if mine else "by-cpu") + ("" if current else " is-earlier")
        if is_multi():
            cls += " by-seat-" + str(seat)
        item = make("li", cls)
        face = card_face(card)
        owner = ((", yours" if mine and not S["passing"] else ", " + whose(seat, False)) if is_multi()
                 else (", yours" if seat == HUMAN else ", the computer's"))
        face.setAttribute("aria-label", info(card)["spoken"] + owner + ("" if current else ", earlier count"))
        item.append(face)
        if current:
            tag = make("span", "laid-by", (("You" if mine and not S["passing"] else S["names"][seat])
                                           if is_multi() else ("You" if seat == HUMAN else "CPU")))
            tag.setAttribute("aria-hidden", "true")
            item.append(tag)
        laid.append(item)


def render_hand(model):
    """The person's cards as buttons, redrawn only when something changed (focus is kept)."""
    waiting = S["waiting"]
    hand = model["hand"]
    legal = model["legal"] if waiting == "play" else []
    key = json.dumps([hand, S["selected"], legal, waiting])
    if key == S["hand_key"]:
        return
    S["hand_key"] = key
    box = q("my-hand")
    active = document.activeElement
    focused = None
    if active is not None and box.contains(active):
        focused = active.getAttribute("data-card")
    box.replaceChildren()
    for card in hand:
        item = make("li")
        button = card_face(card, tag="button")
        name = info(card)["spoken"]
        if waiting == "discard":
            button.setAttribute("aria-pressed", "true" if card in S["selected"] else "false")
        elif waiting in ("play", "go"):
            if card not in legal:
                button.setAttribute("aria-disabled", "true")
                button.classList.add("is-dim")
                button.querySelector(".pc-name").textContent = name + ": would take the count past 31"
        else:
            button.setAttribute("aria-disabled", "true")
        item.append(button)
        box.append(item)
    box.setAttribute("aria-label", "Your cards" if hand else "Your cards: none left")
    if focused is not None:
        again = box.querySelector('[data-card="' + focused + '"]')
        if again is not None:
            again.focus()


def show_title(record):
    """"Your hand", "Computer's crib" and so on."""
    if is_multi():
        return whose(record["seat"]) + " " + record["show"]
    return ("Your " if record["seat"] == HUMAN else "Computer's ") + record["show"]


def render_shows(model):
    """The hands and crib counted so far this hand, and the one being counted."""
    area = q("show-area")
    records = model["shown"]
    counting = model["counting"]
    if not records and not counting:
        area.hidden = True
        area.replaceChildren()
        return
    area.hidden = False
    area.replaceChildren()
    for index, record in enumerate(records):
        area.append(show_block(index, record))
    if counting:
        block = make("section", "show-block is-counting")
        title = ("Count " + ((whose(counting["seat"], False) + " ") if is_multi() else
                             ("your " if counting["seat"] == HUMAN else "the computer's ")) + counting["show"])
        head = make("h3", "show-title", title)
        block.append(head)
        block.append(show_cards(counting["cards"], counting["starter"]))
        area.append(block)


def show_cards(cards, starter):
    """A row of the four cards counted and the starter."""
    row = make("div", "show-cards")
    for card in cards:
        row.append(card_face(card, cls="card-show"))
    face = card_face(starter, cls="card-show is-starter")
    face.setAttribute("aria-label", info(starter)["spoken"] + " (the starter)")
    row.append(face)
    return row


def item_runs(items):
    """(first, last) index ranges of consecutive items with the same label."""
    runs = []
    first = 0
    for i in range(1, len(items) + 1):
        if i == len(items) or items[i]["label"] != items[first]["label"]:
            runs.append((first, i))
            first = i
    return runs


def show_block(index, record):
    """One counted hand or crib: its cards, the count in words and each scoring item."""
    block = make("section", "show-block")
    block.setAttribute("data-block", str(index))
    head = make("h3", "show-title")
    head.append(make("span", None, show_title(record)))
    total = make("span", "show-total", str(record["total"]))
    total.setAttribute("aria-label", str(record["total"]) + (" point" if record["total"] == 1 else " points"))
    head.append(total)
    block.append(head)
    block.append(show_cards(record["cards"], record["starter"]))
    spoken = make("p", "show-spoken", cap(record["spoken"]) if record["items"] else "Nineteen: no points.")
    spoken.setAttribute("data-full", spoken.textContent)
    block.append(spoken)
    claimed = record.get("claimed")
    if claimed is not None and claimed != record["total"]:
        claimer = who(record["seat"]) if is_multi() else ("You" if record["seat"] == HUMAN else "The computer")
        block.append(make("p", "show-claim", claimer + " claimed " + str(claimed) + "; muggins took the other "
                          + str(record["total"] - claimed) + "."))
    if record["items"]:
        items = make("div", "show-items")
        for first, last in item_runs(record["items"]):
            run = record["items"][first:last]
            row = make("div", "item-row")
            label = run[0]["label"] + (" \u00d7" + str(len(run)) if len(run) > 1 else "")
            head = make("span", "item-kind", label + " ")
            head.append(make("b", "item-points", str(sum(item["points"] for item in run))))
            head.setAttribute("aria-hidden", "true")
            row.append(head)
            chips = make("ul", "item-chips")
            chips.setAttribute("aria-label", label)
            for i in range(first, last):
                item = record["items"][i]
                li = make("li")
                button = make("button", "show-item")
                button.type = "button"
                button.setAttribute("data-block", str(index))
                button.setAttribute("data-item", str(i))
                seen = make("span", "item-cards")
                for c in item["cards"]:
                    chip = make("span", "chip-card", info(c)["pretty"])
                    chip.setAttribute("data-suit", info(c)["suit"])
                    seen.append(chip)
                seen.setAttribute("aria-hidden", "true")
                button.append(seen)
                button.append(make("span", "visually-hidden", item["label"] + ": " + ", ".join(
                    info(c)["spoken"] for c in item["cards"]) + ", " + str(item["points"])
                    + (" point" if item["points"] == 1 else " points")))
                li.append(button)
                chips.append(li)
            row.append(chips)
            items.append(row)
        block.append(items)
        step = make("button", "button button-secondary step-button", "Step through")
        step.type = "button"
        step.setAttribute("data-step", str(index))
        block.append(step)
    return block


def render_fair(model):
    """The fair-deal panel: this hand's fingerprint, then its seed and a link to check it."""
    meta = S["meta"]
    if meta.get("practice"):
        q("fair-intro").textContent = ("Practice game from the seed \u201c" + str(meta.get("practice_seed"))
                                       + "\u201d: every deal follows from it, so this game is not counted "
                                       "in your statistics.")
    else:
        q("fair-intro").textContent = ("Every deal is fixed before you see a card, so nobody, the computer "
                                       "included, can pick the cards. The hand's fingerprint (the SHA-256 "
                                       "of its random seed) shows here first; the seed appears when the "
                                       "hand ends, so you can check the deal.")
    if model["commitment"]:
        q("fair-now").hidden = False
        q("fair-now-label").textContent = "Hand " + str(model["hand_number"]) + " fingerprint (SHA-256)"
        q("commitment").textContent = model["commitment"]
    else:
        q("fair-now").hidden = True
    reveal = None
    if model["seed"]:
        reveal = {"hand_number": model["hand_number"], "seed": model["seed"],
                  "commitment": model["commitment"]}
    elif model["last_hand"]:
        reveal = model["last_hand"]
    if reveal is None:
        q("fair-last").hidden = True
        return
    q("fair-last").hidden = False
    q("fair-last-label").textContent = "Hand " + str(reveal["hand_number"]) + " seed, revealed"
    q("last-seed").textContent = reveal["seed"]
    link = q("verify-link")
    link.textContent = "Check hand " + str(reveal["hand_number"]) + "\u2019s deal"
    link.href = (bridge.root() + "fair-deals/?seed=" + str(js.encodeURIComponent(reveal["seed"]))
                 + "&commitment=" + str(js.encodeURIComponent(reveal["commitment"])) + "#check")


# --------------------------------------------------------------------------------------------
# The person's controls


def prompt_text(waiting, model):
    """The instruction under the table for the decision on offer."""
    if waiting == "pass":
        return ""
    if waiting == "discard" and is_multi():
        crib = whose(model["dealer"], False) + " crib"
        if model["dealer"] == S["me"]:
            crib = "your crib"
        return ("Throw this card to " + crib + "?" if S["selected"] else "Choose a card for " + crib + ".") \
            if discard_need() == 1 else ("Throw these two to " + crib + "?" if len(S["selected"]) == 2
                                        else "Choose two cards for " + crib + ".")
    if waiting == "discard":
        crib_of = "your crib" if model["dealer"] == HUMAN else "the computer's crib"
        n = len(S["selected"])
        if n == 2:
            return "Throw these two to " + crib_of + "?"
        return "Choose two cards for " + crib_of + (" (one more)." if n == 1 else ".")
    if waiting == "play" and S["passing"]:
        return S["names"][S["me"]] + ", your turn: lay a card. The count is " + str(model["count"]) + "."
    if waiting == "play":
        return "Your turn: lay a card. The count is " + str(model["count"]) + "."
    if waiting == "go":
        return "You have no card that keeps the count at 31 or under."
    if waiting == "count":
        counting = model["counting"] or {}
        what = "your crib" if counting.get("show") == "crib" else "your hand"
        return "Count " + what + " with the starter."
    if waiting == "next":
        return "The hand is over."
    if waiting == "retry":
        return "The engine did not answer."
    if not waiting and display_phase(model) == "play" and not model["hand"] and others_left(model) \
            and not S["hidden"]:
        return ("You have no cards left: the others lay the rest of theirs." if is_multi()
                else "You have no cards left: the computer lays the rest of its cards.")
    return ""


def set_waiting(waiting):
    """Show the controls for the person's next decision ("" while the page is busy)."""
    S["waiting"] = waiting
    q("game").setAttribute("data-await", waiting)
    if waiting:
        S["turns"] += 1
        q("game").setAttribute("data-turn", str(S["turns"]))
    model = S["model"]
    shown("throw-button", waiting == "discard")
    shown("go-button", waiting == "go")
    shown("next-button", waiting == "next")
    shown("retry-button", waiting == "retry")
    shown("count-form", waiting == "count")
    shown("game-over", waiting == "over")
    shown("pass-screen", waiting == "pass")
    if waiting == "discard" and model is not None:
        q("throw-button").disabled = len(S["selected"]) != discard_need()
        if is_multi():
            q("throw-button").textContent = ("Throw to your crib" if model["dealer"] == S["me"]
                                             else "Throw to " + whose(model["dealer"], False) + " crib")
        else:
            q("throw-button").textContent = ("Throw to your crib" if model["dealer"] == HUMAN
                                             else "Throw to the computer's crib")
    if waiting == "next" and model is not None:
        q("next-button").textContent = "Deal hand " + str(model["hand_number"] + 1)
    if model is not None:
        q("prompt").textContent = prompt_text(waiting, model)
        render_hand(model)
    else:
        q("prompt").textContent = ""
    if waiting in ("go", "count", "next", "over"):
        bring_into_view(q("game-over") if waiting == "over" else q("actions"))
    focus_primary()


def bring_into_view(element):
    """Scroll just enough to show an element below the fold, if the table is being watched."""
    felt = q("felt").getBoundingClientRect()
    height = window.innerHeight
    if felt.top >= height or felt.bottom <= 0:
        return
    box = element.getBoundingClientRect()
    if box.bottom > height:
        element.scrollIntoView(False)


def focus_primary():
    """Put the keyboard focus on the control the person needs, for keyboard players only and
    only while they are at the table (never pulled away from elsewhere on the page)."""
    if not S["keyboard"]:
        return
    active = document.activeElement
    felt = q("felt")
    if active is not None and active != document.body and not felt.contains(active):
        return
    waiting = S["waiting"]
    target = None
    if waiting in ("discard", "play"):
        if active is not None and q("my-hand").contains(active):
            return
        selector = "button[data-card]:not([aria-disabled])"
        target = q("my-hand").querySelector(selector)
    elif waiting == "go":
        target = q("go-button")
    elif waiting == "count":
        target = q("count-input")
    elif waiting == "next":
        target = q("next-button")
    elif waiting == "over":
        target = q("again-button")
    elif waiting == "retry":
        target = q("retry-button")
    elif waiting == "pass":
        target = q("pass-button")
    if target is not None:
        target.focus()


def announce(text, visible=True):
    """Say it in the live region and the game log, and (usually) show it on the table."""
    if not text:
        return
    if visible:
        q("callout").textContent = text
    live = q("announce")
    live.append(make("p", None, text))
    while live.children.length > LIVE_KEEP:
        live.firstElementChild.remove()
    log = q("log")
    log.prepend(make("li", None, text))
    while log.children.length > LOG_KEEP:
        log.lastElementChild.remove()


async def beat(n):
    """Wait n beats at the chosen speed."""
    if n > 0:
        await asyncio.sleep(n * BEATS.get(S["settings"].get("speed"), BEATS["normal"]))


# --------------------------------------------------------------------------------------------
# Showing events


def humans():
    """The people's seats."""
    return [0, 1] if S["passing"] else [HUMAN]


def peg(model):
    """Move the pegs to the scores on the table."""
    board.set_scores(board_scores(model["scores"]))


def take_said_scores(model):
    """Apply the score events already announced with the card or show before them."""
    moved = False
    while S["queue"] and S["queue"][0]["type"] == "score" and S["queue"][0].get("said"):
        event = S["queue"].pop(0)
        for seat in side_seats(event["seat"]):
            model["scores"][seat] = event["total"]
        moved = True
    return moved


async def show_event(event):
    """Put one event on the table; returns "go" or "next" when the person must click to go on."""
    model = S["model"]
    kind = event["type"]
    wait = 0  # beats: the computer's speed paces its moves, never the person's own cards
    stop = None
    moved = False
    follow = False
    if kind == "cut":
        model["cut"] = event
        S["opening_cut"] = event  # shown beside the first hand, which is playable at once
    elif kind == "deal":
        start_hand(model, event)
    elif kind == "hand":
        model["hand"] = list(event["cards"])
        model["left"] = [len(event["cards"])] * len(model["left"])
        model["cut"] = None
    elif kind == "discard":
        model["cut"] = None
        S["opening_cut"] = None
        seat = event["seat"]
        model["left"][seat] = max(0, model["left"][seat] - event["count"])
        if seat == S["me"] and seat in humans():
            model["hand"] = [c for c in model["hand"] if c not in S["thrown"]]
            model["discards"] = list(S["thrown"])
        else:
            wait = 0.6
        model["crib_size"] += event["count"]
    elif kind == "starter":
        model["starter"] = event["card"]
        wait = 1
    elif kind == "play":
        seat = event["seat"]
        model["laid"].append([seat, event["card"]])
        model["count"] = event["count"]
        model["left"][seat] = max(0, model["left"][seat] - 1)
        if seat == S["me"]:
            model["hand"] = [c for c in model["hand"] if c != event["card"]]
            model["played"].append(event["card"])
        moved = take_said_scores(model)
        wait = 0.4 if seat in humans() else 1
        if moved:
            wait += 0.5
    elif kind == "go":
        model["go"].append(event["seat"])
        if event["seat"] == S["me"] and model["hand"] and not S["hidden"]:
            stop = "go"
        else:
            wait = 0.9
    elif kind == "reset":
        await beat(0.6)
        model["count_start"] = len(model["laid"])
        model["count"] = 0
        model["go"] = []
        wait = 0.3
    elif kind == "score":
        for seat in side_seats(event["seat"]):
            model["scores"][seat] = event["total"]
        moved = True
        wait = 1
    elif kind == "count_turn":
        model["counting"] = event
        wait = 0.3
        follow = True
    elif kind == "show":
        model["counting"] = None
        model["shown"].append(event)
        if event["show"] == "crib":
            model["crib"] = event["cards"]
        moved = take_said_scores(model)
        wait = 2.2
        follow = True
    elif kind == "hand_end":
        model["seed"] = event["seed"]
        model["commitment"] = event["commitment"]
        if not (S["queue"] and S["queue"][0]["type"] == "game_over"):
            stop = "next"
    elif kind == "game_over":
        model["over"] = True
        model["winner"] = event["winner"]
    render()
    if follow:
        blocks = q("show-area").querySelectorAll(".show-block")
        if blocks.length:
            bring_into_view(blocks.item(blocks.length - 1))
    if moved:
        peg(model)
    announce(event.get("say") or "", kind != "hand")
    if stop:
        return stop
    await beat(wait)
    return None


def sync_model():
    """Once every event is shown, the table is exactly the engine's view."""
    S["model"] = model_from_view(S["view"])
    S["selected"] = []
    hide_if_passing()
    board.set_scores(board_scores(S["model"]["scores"]), backs=view_backs())
    render()
    if S["placed"]:
        save()  # nothing left to show: a reload starts from the engine's view


def view_backs():
    """The back pegs for the board's tracks, as the engine's view has them (None if it has none)."""
    backs = S["view"].get("backs") if S["view"] is not None else None
    return board_scores(backs) if backs else None


def hide_if_passing():
    """Pass and play: when the other person must decide, hide the hand on the table."""
    if not S["passing"] or S["model"] is None:
        return
    awaiting = S["awaiting"]
    to_act = S["view"]["to_act"] if S["view"] is not None else None
    if awaiting in ("discard", "play", "count") and to_act != S["me"]:
        S["hidden"] = True
    if S["hidden"]:
        S["model"]["hand"] = []
        S["model"]["discards"] = None
        S["model"]["legal"] = []


def show_pass_screen():
    """Pass and play: both hands hidden; the next person taps to see theirs."""
    seat = S["view"]["to_act"]
    S["hidden"] = True
    hide_if_passing()
    render()
    name = S["names"][seat]
    q("pass-title").textContent = "Pass the device to " + name
    q("pass-button").textContent = "I am " + name + ": show my cards"
    q("pass-button").setAttribute("data-seat", str(seat))
    set_waiting("pass")


async def reveal(seat):
    """The person at this seat has the device: ask the engine for their view only."""
    request = {"game": S["game"], "difficulty": S["meta"].get("difficulty", "easy")}
    request.update(seating_request())
    request["seat"] = seat
    reply = await bridge.call("resume_game", request)
    S["me"] = seat
    S["hidden"] = False
    S["hand_key"] = ""
    take(reply)
    return True


def on_pass(event):
    """The tap on the pass screen."""
    if S["waiting"] != "pass" or S["view"] is None:
        return None
    seat = S["view"]["to_act"]
    return flow(lambda: reveal(seat))


async def pump():
    """Show the queued events and let the computer move until the person has to decide."""
    while True:
        if S["readonly"] or S["restart"] is not None:
            return
        while S["queue"]:
            if S["readonly"] or S["restart"] is not None:
                return
            event = S["queue"].pop(0)
            stop = await show_event(event)
            if stop:
                save(stop)  # a reload comes back to this very stop
                set_waiting(stop)
                return
        sync_model()
        awaiting = S["awaiting"]
        if awaiting == "computer":
            await beat(0.5)
            request = {"game": S["game"], "difficulty": S["meta"].get("difficulty", "easy")}
            request.update(seating_request())
            reply = await bridge.call("computer_move", request)
            take(reply)
            continue
        if awaiting == "over":
            await finish()
            set_waiting("over")
            return
        if S["passing"] and S["hidden"]:
            show_pass_screen()
            return
        set_waiting(awaiting)
        return


async def flow(step=None):
    """Run the person's step (an engine call), then everything up to their next decision."""
    if S["busy"]:
        return
    S["busy"] = True
    bridge.clear_error()
    set_waiting("")
    try:
        if step is not None:
            done = await step()
            if not done:
                return
        await pump()
    except bridge.EngineError as error:
        bridge.show_error(error)
        set_waiting("retry" if S["game"] is not None else "setup")
    except Exception as error:
        log_console("Game page error:", error)
        bridge.show_error(bridge.PAGE_FAILED)
        set_waiting("retry" if S["game"] is not None else "setup")
    finally:
        S["busy"] = False
        restart = S["restart"]
        if restart is not None:
            S["restart"] = None
            bridge.launch(flow(lambda: start_game(restart)))


def take(reply):
    """Keep an engine reply: the new game JSON (saved at once), view and events to show."""
    S["game"] = reply["game"]
    S["view"] = reply["view"]
    S["awaiting"] = reply["awaiting"]
    S["result"] = reply.get("result")
    S["cards"].update(reply["cards"])
    S["queue"].extend(reply["events"])
    save("" if S["queue"] else None)


def save(stop=None):
    """Save the game's JSON (unless another tab has taken the game over).

    With ``stop`` the save also keeps the table's position: "" while events are still to be
    shown, "go" or "next" while the page waits at that click. The engine's game has already
    moved on; this is only what the table shows, so a reload comes back to the same place.
    """
    if S["game"] is None or S.get("readonly"):
        return
    meta = S["meta"]
    if stop is not None and S["model"] is not None:
        meta = dict(meta)
        meta[store.TABLE_KEY] = table_position(stop)
    S["placed"] = stop is not None
    store.save_game(S["game"], meta)


def table_position(stop):
    """The table as shown and the events still to show (store.check_table validates it on load)."""
    return {"v": store.TABLE_VERSION, "game": store.fingerprint(S["game"]), "stop": stop,
            "model": S["model"], "queue": S["queue"], "thrown": S["thrown"], "me": S["me"],
            "pegs": board.peg_positions(), "cards": S["cards"]}


def restore_table(position):
    """Put the table back where the saved position says (the events still to show, the stop)."""
    S["cards"].update(position["cards"])
    S["model"] = position["model"]
    S["queue"] = list(position["queue"])
    S["thrown"] = list(position["thrown"])
    S["selected"] = []
    if S["passing"]:
        S["me"] = position["me"]
        S["hidden"] = True  # after a reload nobody's cards show until the right person taps
        hide_if_passing()
    board.set_scores(board_scores(S["model"]["scores"]), False,
                     backs=[pegs[1] for pegs in position["pegs"]])
    S["placed"] = True


async def finish():
    """The game is over: say so, and count it in the statistics once (never a practice game)."""
    result = S["result"] or {}
    won = result.get("won", result.get("winner") == HUMAN)
    q("game-over-title").textContent = result.get("title") or ""
    q("game-over-detail").textContent = result.get("score") or ""
    q("game-over-skunk").textContent = result.get("skunk") or ""
    shown("game-over-skunk", bool(result.get("skunk")))
    q("game-over").setAttribute("data-result", "won" if won else "lost")
    meta = S["meta"]
    practice = bool(meta.get("practice"))
    note = "Practice games are not counted in your statistics." if practice else ""
    if is_multi() and not practice:
        note = ("Pass-and-play games are not counted in your statistics." if S["passing"] else
                "Only two-player games against the computer are counted in your statistics.")
    q("game-over-note").textContent = note
    shown("game-over-note", bool(note))
    if practice or is_multi():
        return
    if meta.get("recorded") or S.get("readonly"):
        return
    try:
        stats = await store.record_game(S["game"], meta)
    except bridge.EngineError as error:
        bridge.show_error(error)
        return
    meta["recorded"] = True
    save()
    render_stats(stats)


# --------------------------------------------------------------------------------------------
# Person's actions


def on_hand_click(event):
    """A card in the person's hand: pick it for the crib, or lay it."""
    button = event.target.closest("button[data-card]")
    if button is None or S["busy"]:
        return None
    card = int(button.getAttribute("data-card"))
    waiting = S["waiting"]
    if waiting == "discard":
        selected = S["selected"]
        if card in selected:
            selected.remove(card)
        else:
            selected.append(card)
            if len(selected) > discard_need():
                selected.pop(0)
        set_waiting("discard")
        return None
    if waiting == "play":
        if button.getAttribute("aria-disabled") == "true":
            q("prompt").textContent = ("The " + info(card)["spoken"] + " would take the count past 31. "
                                       "Choose another card.")
            return None
        return flow(lambda: send({"type": "play", "card": card}))
    return None


def on_throw(event):
    """Throw the two picked cards to the crib."""
    if S["waiting"] != "discard" or len(S["selected"]) != discard_need():
        return None
    S["thrown"] = list(S["selected"])
    return flow(lambda: send({"type": "discard", "cards": list(S["thrown"])}))


async def send(action):
    """Send the person's action; a refusal shows the engine's reason and changes nothing."""
    try:
        request = {"game": S["game"], "action": action}
        request.update(seating_request())
        reply = await bridge.call("act", request)
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        bridge.show_error(cap(error.message))  # the engine's reason; nothing has changed
        set_waiting(S["awaiting"])
        return False
    take(reply)
    return True


def on_count(event):
    """Muggins: claim the count typed in."""
    if S["waiting"] != "count":
        return None
    text = str(q("count-input").value).strip()
    message = q("count-message")
    if not text or not text.isdigit() or int(text) > 29:
        message.textContent = "Enter your count as a whole number from 0 to 29."
        return None
    return flow(lambda: claim(int(text)))


async def claim(points):
    """Send a muggins claim; a claim above the true count is refused inline."""
    try:
        request = {"game": S["game"], "action": {"type": "count", "points": points}}
        request.update(seating_request())
        reply = await bridge.call("act", request)
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        q("count-message").textContent = cap(error.message)
        set_waiting("count")
        return False
    q("count-message").textContent = ""
    q("count-input").value = ""
    take(reply)
    return True


def on_continue(event):
    """Go, the next hand, or try again: carry on showing the game."""
    if S["waiting"] in ("go", "next", "retry"):
        return flow()
    return None


# --------------------------------------------------------------------------------------------
# Show items: highlight the cards of a combination


def highlight(block, cards):
    """Light up these cards in a counted hand and dim the others (none: all plain)."""
    for face in block.querySelectorAll(".show-cards [data-card]"):
        card = int(face.getAttribute("data-card"))
        face.classList.toggle("is-highlighted", bool(cards) and card in cards)
        face.classList.toggle("is-dim", bool(cards) and card not in cards)


def record_of(index):
    """The show record drawn in block index."""
    records = S["model"]["shown"] if S["model"] is not None else []
    return records[index] if 0 <= index < len(records) else None


def on_item_enter(event):
    """Hovering or focusing a scoring item lights up its cards."""
    button = event.target.closest(".show-item")
    if button is None:
        return
    index = int(button.getAttribute("data-block"))
    record = record_of(index)
    if record is None:
        return
    item = record["items"][int(button.getAttribute("data-item"))]
    highlight(button.closest(".show-block"), item["cards"])


def on_item_leave(event):
    """Leaving a scoring item puts the cards back."""
    button = event.target.closest(".show-item")
    if button is None:
        return
    block = button.closest(".show-block")
    highlight(block, [])


def on_show_click(event):
    """Step through a count phrase by phrase, or light up a tapped item."""
    step = event.target.closest(".step-button")
    if step is not None:
        index = int(step.getAttribute("data-step"))
        record = record_of(index)
        if record is None:
            return
        phrases = record.get("phrases") or []
        at = S["steps"].get(index, -1) + 1
        block = step.closest(".show-block")
        spoken = block.querySelector(".show-spoken")
        if at >= len(phrases):
            S["steps"][index] = -1
            highlight(block, [])
            spoken.textContent = spoken.getAttribute("data-full")
            step.textContent = "Step through"
            return
        S["steps"][index] = at
        phrase = phrases[at]
        cards = []
        for i in phrase["items"]:
            cards.extend(record["items"][i]["cards"])
        highlight(block, cards)
        spoken.textContent = cap(phrase["text"])
        step.textContent = "Next" if at + 1 < len(phrases) else "Show the whole count"
        announce(cap(phrase["text"]))
        return
    on_item_enter(event)


# --------------------------------------------------------------------------------------------
# New games, resuming, settings


def read_setup():
    """The options chosen in the new-game form."""
    form = q("setup")
    difficulty = form.querySelector('input[name="difficulty"]:checked')
    target = form.querySelector('input[name="target"]:checked')
    table = form.querySelector('input[name="table"]:checked')
    table = str(table.value) if table is not None else "2"
    options = {
        "difficulty": difficulty.value if difficulty is not None else "easy",
        "target": int(target.value) if target is not None else 121,
        "muggins": bool(q("setup-muggins").checked),
        "players": 2 if table == "pass" else int(table),
    }
    if table == "pass":
        options["pass_and_play"] = True
        options["names"] = [str(q("name-0").value), str(q("name-1").value)]
    return options


def on_table_choice(event=None):
    """Show the name fields only for two players on one device."""
    choice = q("setup").querySelector('input[name="table"]:checked')
    passing = choice is not None and str(choice.value) == "pass"
    shown("setup-names", passing)
    shown("setup-opponent", not passing)


def apply_seating(options, reply=None):
    """Keep the table's seating (players, names, pass and play) from the options or a reply."""
    S["players"] = int(options.get("players", 2))
    S["passing"] = bool(options.get("pass_and_play"))
    if reply is not None and reply.get("names"):
        S["names"] = list(reply["names"])
    elif S["passing"]:
        S["names"] = list(options.get("names") or ["Player 1", "Player 2"])
    else:
        S["names"] = list(NAMES)
    S["me"] = HUMAN
    S["hidden"] = S["passing"]


def fill_setup(settings):
    """Set the new-game form to these settings."""
    form = q("setup")
    for name in ("difficulty", "target"):
        for radio in form.querySelectorAll('input[name="' + name + '"]'):
            radio.checked = str(radio.value) == str(settings.get(name))
    q("setup-muggins").checked = bool(settings.get("muggins"))
    table = "pass" if S["passing"] else str(S["players"])
    for radio in form.querySelectorAll('input[name="table"]'):
        radio.checked = str(radio.value) == table
    on_table_choice()


def open_setup(in_game):
    """Show the new-game form on the table."""
    if S["waiting"] != "setup":
        S["before_setup"] = S["waiting"]
    fill_setup(S["settings"])
    q("setup").hidden = False
    q("game").classList.add("is-setup")
    shown("setup-warning", in_game)
    shown("cancel-setup", in_game)
    set_waiting("setup")
    if in_game:
        q("deal-button").focus()


def close_setup():
    """Hide the new-game form."""
    q("setup").hidden = True
    q("game").classList.remove("is-setup")


def on_setup_submit(event):
    """Deal a new game with the chosen options (saved as the player's settings)."""
    options = read_setup()
    settings = dict(S["settings"])
    settings.update(options)
    S["settings"] = store.save_settings(settings)
    if S["busy"]:
        S["restart"] = options  # the running flow stops at the next event, then deals
        return None
    return flow(lambda: start_game(options))


def on_again(event):
    """Play again with the same options."""
    if S["busy"] or S["model"] is None:
        return None
    options = {"difficulty": S["meta"].get("difficulty", "easy"), "target": S["model"]["target"],
               "muggins": S["model"]["muggins"], "players": S["players"]}
    if S["passing"]:
        options.update({"pass_and_play": True, "names": list(S["names"])})
    return flow(lambda: start_game(options))


def on_change(event):
    """Open the new-game form after a game."""
    open_setup(False)


def on_new_game(event):
    """Open the new-game form (it warns that the game in progress ends)."""
    open_setup(S["game"] is not None and not (S["model"] and S["model"]["over"]))


def on_cancel_setup(event):
    """Close the new-game form and go back to the game."""
    close_setup()
    if S["model"] is None:
        return None
    render()
    if S["busy"]:
        return None  # the running flow offers the next decision itself
    before = S["before_setup"]
    if before and before != "setup":
        set_waiting(before)
        return None
    return flow()


def on_speed(event):
    """Keep the computer's speed in the player's settings."""
    speed = str(q("speed").value)
    settings = dict(S["settings"])
    settings["speed"] = speed
    S["settings"] = store.save_settings(settings)


def reset_table(target):
    """Clear the table, the log and the board for a new game."""
    S["queue"] = []
    S["opening_cut"] = None
    S["selected"] = []
    S["thrown"] = []
    S["steps"] = {}
    S["hand_key"] = ""
    q("log").replaceChildren()
    q("callout").textContent = ""
    q("count-message").textContent = ""
    board.render("#board", board_names(), target)
    q("game").setAttribute("data-target", str(target))
    q("game").setAttribute("data-players", str(S["players"]))
    q("game").classList.toggle("is-multi", is_multi())
    q("game").classList.toggle("is-passing", S["passing"])


async def start_game(options, seed=None):
    """Ask the engine for a new game and put it on the table (the events are shown next)."""
    ready = document.documentElement.getAttribute("data-engine") == "ready"
    q("prompt").textContent = ("Shuffling\u2026" if ready else
                               "Shuffling as soon as the card engine has loaded\u2026")
    shown("practice-badge", bool(seed))  # known at once: a practice game is one with a seed
    request = {"difficulty": options["difficulty"], "target": options["target"],
               "muggins": options["muggins"], "players": int(options.get("players", 2))}
    if options.get("pass_and_play"):
        request.update({"pass_and_play": True, "names": list(options.get("names") or [])})
    if seed:
        request["seed"] = seed
    try:
        reply = await bridge.call("new_game", request)
    except bridge.EngineError as error:
        if error.kind != "bad_input" or not options.get("pass_and_play"):
            raise
        q("prompt").textContent = ""
        q("setup-message").textContent = cap(error.message)  # a missing or doubled name
        open_setup(S["game"] is not None)
        return False
    q("prompt").textContent = ""
    q("setup-message").textContent = ""
    close_setup()
    apply_seating(request, reply)
    S["meta"] = {"difficulty": options["difficulty"], "practice": bool(reply["practice"]),
                 "practice_seed": reply["practice_seed"], "recorded": False,
                 "players": S["players"], "pass_and_play": S["passing"], "names": list(S["names"])}
    reset_table(options["target"])
    S["model"] = blank_model(reply["view"])
    take(reply)
    render()
    return True


async def resume_game(text, meta):
    """Put a saved game back on the table, checked by the engine first."""
    q("prompt").textContent = "Picking up your game where you left it\u2026"
    shown("practice-badge", bool((meta or {}).get("practice")))
    meta = dict(meta or {})
    saved_table = meta.pop(store.TABLE_KEY, None)
    request = {"game": text}
    if meta.get("pass_and_play"):
        request.update({"pass_and_play": True, "names": list(meta.get("names") or [])})
    try:
        reply = await bridge.call("resume_game", request)
        q("prompt").textContent = ""
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        store.reject_game(error.message.split(" (")[0])
        show_notices()
        await start_game(S["settings"])
        return True
    apply_seating({"players": reply["view"]["players"], "pass_and_play": bool(request.get("pass_and_play")),
                   "names": request.get("names")}, reply)
    if meta.get("difficulty") not in DIFFICULTY_WORDS:
        meta["difficulty"] = "easy"
    meta["practice"] = bool(reply["practice"])
    meta["practice_seed"] = reply["practice_seed"]
    S["meta"] = meta
    close_setup()
    reset_table(reply["view"]["target"])
    S["cards"].update(reply["cards"])
    S["game"] = reply["game"]
    S["view"] = reply["view"]
    S["awaiting"] = reply["awaiting"]
    S["result"] = reply.get("result")
    view = reply["view"]
    position = None
    if saved_table is not None:
        position = store.check_table(saved_table, text, view["players"], view["target"])
    if position is not None:
        restore_table(position)
        S["cards"].update(reply["cards"])
        render()
        announce("Welcome back: your game is as you left it.")
        if position["stop"]:
            set_waiting(position["stop"])
            return False  # waiting at the same click as before the reload
        return True  # the events not yet shown follow
    S["model"] = model_from_view(view)
    hide_if_passing()
    board.set_scores(board_scores(S["model"]["scores"]), False, backs=view_backs())
    render()
    announce("Welcome back: your game is as you left it.")
    return True


def show_notices():
    """Show store.py's notices (a saved game or statistics that could not be read)."""
    notices = store.notices()
    box = q("game-notice")
    if not notices or box is None:
        return
    box.replaceChildren()
    for text in notices:
        box.append(make("p", None, text))
    box.hidden = False
    store.clear_notices()


def render_stats(stats=None):
    """The statistics panel (stats_view.py): the stored record, or the one just returned."""
    if stats_view is None:
        return
    try:
        if stats is None:
            stats_view.render("#stats-body")
        else:
            stats_view.refresh(stats)
    except Exception as error:
        log_console("Statistics panel failed:", error)


def on_other_tab(message):
    """Another tab has taken the game over: stop playing and saving here."""
    S["readonly"] = True
    set_waiting("")
    q("prompt").textContent = "This game is being played in another tab."


def on_take_back(game_json):
    """The person took the game back: resume the latest saved state here."""
    S["readonly"] = False
    if game_json is None:
        return flow(lambda: start_game(S["settings"]))
    return flow(lambda: resume_game(game_json, store.load_game_meta()))


def url_options():
    """A practice game from the address: ?seed=...&target=61&muggins=1&difficulty=hard."""
    params = js.URLSearchParams.new(window.location.search)
    seed = params.get("seed")
    if seed is None or not str(seed).strip():
        return None
    options = {"difficulty": S["settings"]["difficulty"], "target": S["settings"]["target"],
               "muggins": S["settings"]["muggins"], "seed": str(seed).strip()[:200]}
    target = params.get("target")
    if target is not None and str(target) in ("61", "121"):
        options["target"] = int(str(target))
    muggins = params.get("muggins")
    if muggins is not None:
        options["muggins"] = str(muggins) in ("1", "true", "on", "yes")
    difficulty = params.get("difficulty")
    if difficulty is not None and str(difficulty) in DIFFICULTY_WORDS:
        options["difficulty"] = str(difficulty)
    players = params.get("players")
    if players is not None and str(players) in ("2", "3", "4"):
        options["players"] = int(str(players))
    names = [params.get("name1"), params.get("name2")]
    if str(params.get("pass")) in ("1", "true", "on", "yes"):
        options["players"] = 2
        options["pass_and_play"] = True
        options["names"] = [str(n) if n is not None else "" for n in names]
    return options


async def begin():
    """Decide what the table shows first: a practice game, the saved game, or the setup."""
    practice = url_options()
    saved = store.load_game()
    meta = store.load_game_meta() if saved is not None else None
    if practice is not None:
        if (saved is not None and meta and meta.get("practice_seed") == practice["seed"]
                and int(meta.get("players", 2)) == practice.get("players", 2)
                and bool(meta.get("pass_and_play")) == bool(practice.get("pass_and_play"))):
            await flow(lambda: resume_game(saved, meta))
        else:
            await flow(lambda: start_game(practice, practice["seed"]))
    elif saved is not None:
        await flow(lambda: resume_game(saved, meta))
    else:
        open_setup(False)
        q("prompt").textContent = ""
    show_notices()


def on_key(event):
    """The keyboard is in use: let the focus follow the game."""
    if event.key in ("Tab", "Enter", " ", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"):
        S["keyboard"] = True


def on_pointer(event):
    """A mouse or a finger is in use: leave the focus alone."""
    S["keyboard"] = False


def setup():
    """Bind the page; the table is usable (setup, speed) before the engine has loaded."""
    S["settings"] = store.load_settings()
    q("speed").value = S["settings"]["speed"]
    fill_setup(S["settings"])
    board.render("#board", NAMES, S["settings"]["target"])
    q("game").setAttribute("data-target", str(S["settings"]["target"]))
    bridge.on("#my-hand", "click", on_hand_click)
    bridge.on("#throw-button", "click", on_throw)
    bridge.on("#go-button", "click", on_continue)
    bridge.on("#next-button", "click", on_continue)
    bridge.on("#retry-button", "click", on_continue)
    bridge.on("#count-form", "submit", on_count, prevent_default=True)
    bridge.on("#setup", "submit", on_setup_submit, prevent_default=True)
    bridge.on("#again-button", "click", on_again)
    bridge.on("#change-button", "click", on_change)
    bridge.on("#new-game-button", "click", on_new_game)
    bridge.on("#cancel-setup", "click", on_cancel_setup)
    bridge.on("#speed", "change", on_speed)
    bridge.on("#pass-button", "click", on_pass)
    bridge.on("#setup-table", "change", on_table_choice)
    bridge.on("#show-area", "mouseover", on_item_enter)
    bridge.on("#show-area", "focusin", on_item_enter)
    bridge.on("#show-area", "mouseout", on_item_leave)
    bridge.on("#show-area", "focusout", on_item_leave)
    bridge.on("#show-area", "click", on_show_click)
    bridge.on(document, "keydown", on_key)
    bridge.on(document, "pointerdown", on_pointer)
    store.watch_other_tabs(on_other_tab, on_take_back)
    render_stats()
    q("setup").hidden = True
    q("prompt").textContent = "Setting up the table\u2026"
    bridge.ui_ready()


setup()
bridge.start()
bridge.launch(begin())
