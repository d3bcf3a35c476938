"""The game page's drawing: the table, seats, pile, hands, counted shows, fair-deal and stats panels.

Part of the game page (site_src/app/game.py is its entry point). Draws ``S["model"]`` (the
display model of state.py) into the page; it decides nothing and calls no engine.
"""

import json
import js

from dom import document

import bridge
from table import finished, motion, score_strip
from table.state import (COMPUTER_SEAT, DIFFICULTY_WORDS, YOUR_SEAT, S, board_names, board_scores, cap, card_back,
                         card_face, display_phase, final_cards, final_crib, info, is_multi, is_picking, log_console,
                         make, q, shown, who, whose)


try:
    from table import stats_panel
except ImportError:
    stats_panel = None


def render():
    """Draw the whole table from the display model."""
    model = S["model"]
    q("game").setAttribute("data-phase", display_phase(model))
    if model is None:
        return
    render_status(model)
    score_strip.render(board_names(), board_scores(model["scores"]), model["target"])
    render_seats(model)
    render_middle(model)
    render_shows(model)
    render_hand(model)
    render_fair(model)
    motion.replay()  # cards under way go on moving on the redrawn table


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
            parts.append("you deal" if model["dealer"] == YOUR_SEAT else "the computer deals")
    parts.append("game to " + str(model["target"]))
    if S["players"] == 4:
        parts.append("partners")
    if model["muggins"]:
        parts.append("muggins")
    q("status-hand").textContent = cap(" · ".join(parts))
    finished.show_badge(meta.get("practice"), finished.is_daily_seed(meta.get("practice_seed")))
    shown("speed-row", not S["passing"] and S["friend"] is None)  # no computer plays there
    q("cpu-level").textContent = "(" + DIFFICULTY_WORDS.get(meta.get("difficulty"), "Easy").lower() + ")"
    opponents = "" if S["passing"] else (DIFFICULTY_WORDS.get(meta.get("difficulty"), "Easy")
                                         + (" opponents" if S["players"] > 2 else " opponent") + " · ")
    if S["friend"] is not None:
        opponents = "against " + S["names"][1 - S["me"]] + " on another device · "
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
        own = S["friend"] is not None and seat == S["me"]  # a friend game: this page's own seat
        label = make("span", "seat-item-name", name + (" (you)" if own else ""))
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
        elif not own:  # a friend game's own cards are the hand below, face up
            for _ in range(held):
                backs.append(card_back("card-tiny"))
            backs.append(make("span", "visually-hidden", name + " holds " + str(held)
                              + (" card" if held == 1 else " cards")))
        item.append(backs)
        points = make("span", "seat-item-score", str(model["scores"][seat]))  # on the board: at most the target
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
    for seat, prefix in ((YOUR_SEAT, "you"), (COMPUTER_SEAT, "cpu")):
        shown_seat = me if seat == YOUR_SEAT else (1 - me if S["players"] == 2 else seat)
        score = q("score-" + str(seat))
        text = str(model["scores"][shown_seat])  # the engine's scores stop at the target
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
    holder = S["names"][other] if (S["passing"] or S["friend"] is not None) and other is not None else "The computer"
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
                                       ("Your crib" if model["dealer"] == YOUR_SEAT else "Computer's crib"))
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
                                                 ("You" if seat == YOUR_SEAT else "Computer")) + " cut"))
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
                 else (", yours" if seat == YOUR_SEAT else ", the computer's"))
        face.setAttribute("aria-label", info(card)["spoken"] + owner + ("" if current else ", earlier count"))
        item.append(face)
        if current:
            tag = make("span", "laid-by", (("You" if mine and not S["passing"] else S["names"][seat])
                                           if is_multi() else ("You" if seat == YOUR_SEAT else "CPU")))
            tag.setAttribute("aria-hidden", "true")
            item.append(tag)
        laid.append(item)


def render_hand(model):
    """The person's cards as buttons, redrawn only when something changed (focus is kept).

    When the same cards are on show in the same order, the buttons are kept and only their
    states change (picked, playable, hinted), so a card still arriving from the deal goes on
    moving and nothing is laid out again for it.
    """
    waiting = S["waiting"]
    hand = model["hand"]
    legal = model["legal"] if waiting == "play" else []
    lit = S["hint_cards"]
    sealing = not hand and S["view"] is not None and bool(S["view"].get("sealing"))
    faces = [str(card) in S["cards"] for card in hand]  # a card drawn before its face was known is drawn again
    key = json.dumps([hand, faces, S["selected"], legal, waiting, lit, sealing, S["ahead"], is_picking()])
    if key == S["hand_key"]:
        return
    S["hand_key"] = key
    box = q("my-hand")
    if sealing:  # a sealed deal not read yet: the cards face down where they will be
        box.replaceChildren()
        for _ in range(model["left"][S["me"]]):
            item = make("li")
            item.append(card_back())
            box.append(item)
        box.setAttribute("aria-label", "Your cards, face down while the deck is sealed")
        return
    buttons = box.querySelectorAll("button[data-card]")
    if buttons.length == len(hand) and all(
            buttons.item(i).getAttribute("data-card") == str(card)
            and str(buttons.item(i).querySelector(".pc-rank").textContent) == info(card)["rank"]
            for i, card in enumerate(hand)):
        for i, card in enumerate(hand):
            hand_button_state(buttons.item(i), card, waiting, legal, lit)
        box.setAttribute("aria-label", "Your cards" if hand else "Your cards: none left")
        return
    active = document.activeElement
    focused = None
    if active is not None and box.contains(active):
        focused = active.getAttribute("data-card")
    box.replaceChildren()
    for card in hand:
        item = make("li")
        button = card_face(card, tag="button")
        hand_button_state(button, card, waiting, legal, lit)
        item.append(button)
        box.append(item)
    box.setAttribute("aria-label", "Your cards" if hand else "Your cards: none left")
    motion.replay()
    if focused is not None:
        again = box.querySelector('[data-card="' + focused + '"]')
        if again is not None:
            again.focus()


def hand_button_state(button, card, waiting, legal, lit):
    """Set a hand card's button for the decision on offer: picked (aria-pressed at the discard,
    .is-selected in the play), playable or not (aria-disabled, .is-dim, its spoken name) and
    hinted (.is-hinted)."""
    name = info(card)["spoken"]
    picking = is_picking()
    selected = card in (S["ahead"] or S["selected"])
    playable = picking or (waiting in ("play", "go") and card in legal)
    button.classList.toggle("is-hinted", card in lit)  # the coach's hint (coach.py)
    button.classList.toggle("is-selected", waiting == "play" and selected)  # a first tap: a second lays it
    button.classList.toggle("is-dim", waiting in ("play", "go") and card not in legal)
    if picking or S["ahead"] is not None:
        button.setAttribute("aria-pressed", "true" if selected else "false")
    else:
        button.removeAttribute("aria-pressed")
    if playable:
        button.removeAttribute("aria-disabled")
    else:
        button.setAttribute("aria-disabled", "true")
    spoken = name + ": would take the count past 31" if waiting in ("play", "go") and card not in legal else name
    label = button.querySelector(".pc-name")
    if label.textContent != spoken:
        label.textContent = spoken


def show_title(record):
    """"Your hand", "Computer's crib" and so on."""
    if is_multi():
        return whose(record["seat"]) + " " + record["show"]
    return ("Your " if record["seat"] == YOUR_SEAT else "Computer's ") + record["show"]


def render_shows(model):
    """The hands and crib counted so far this hand, and the one being counted."""
    area = q("show-area")
    shows = model["shown"]
    counting = model["counting"]
    if not shows and not counting:
        area.hidden = True
        area.replaceChildren()
        return
    area.hidden = False
    area.replaceChildren()
    for index, record in enumerate(shows):
        area.append(show_block(index, record))
    if counting:
        block = make("section", "show-block is-counting")
        title = ("Count " + ((whose(counting["seat"], False) + " ") if is_multi() else
                             ("your " if counting["seat"] == YOUR_SEAT else "the computer's ")) + counting["show"])
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
        claimer = who(record["seat"]) if is_multi() else ("You" if record["seat"] == YOUR_SEAT else "The computer")
        if claimed < record["total"]:
            said = "; muggins took the other " + str(record["total"] - claimed) + "."
        else:
            said = (", but the cards hold only " + str(record["total"]) + ": muggins took the "
                    + str(claimed - record["total"]) + " claimed too many.")
        block.append(make("p", "show-claim", claimer + " claimed " + str(claimed) + said))
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


FRIEND_FAIR = ("Every deal follows from two secrets, one drawn on each device. Each of you committed to "
               "your own (its SHA-256) before seeing the other's, so neither can pick, steer or re-deal the "
               "cards. Both pages know the cards to come: this version does not hide them from a player "
               "who reads the page's data. Each hand's seed appears when it ends, to check the deal.")
SEALED_FAIR = ("Played live, every deck is sealed: both devices shuffle it and lock each card with keys of "
               "their own, so neither page can read a card of the other hand before the rules show it, and "
               "neither can steer the deal. When a hand ends both reveal their keys, and each page checks "
               "the other's work; the finished game's code checks in the verifier like any other.")


def render_fair(model):
    """The fair-deal panel: this hand's fingerprint, then its seed and a link to check it."""
    meta = S["meta"]
    if S["friend"] is not None:
        q("fair-intro").textContent = SEALED_FAIR if S["friend"].get("seal") else FRIEND_FAIR
    elif finished.is_daily_game():
        q("fair-intro").textContent = ("The deal of the day, from the seed \u201c" + str(meta.get("practice_seed"))
                                       + "\u201d: every deal follows from it by a published rule, the same "
                                       "for everyone today. " + finished.DAILY_NOTE)
    elif meta.get("practice"):
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


def render_stats(stats=None):
    """The statistics panel (stats_panel.py): the stored record, or the one just returned."""
    if stats_panel is None:
        return
    try:
        if stats is None:
            stats_panel.render("#stats-body")
        else:
            stats_panel.refresh(stats)
    except Exception as error:
        log_console("Statistics panel failed:", error)
