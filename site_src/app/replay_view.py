"""The replay page's drawing: one step of a replayed game (seats, cards, count, shows) and the board.

Runs in MicroPython on the main thread (keep to the subset). ``draw(game, index)`` puts step
``index`` of a ``replay_game`` reply (engine/api.py, engine/replay.py) on the page: every seat's
cards (face up where the step shows them, else backs), the starter, the crib, the cards laid and
the count, the hands counted so far this hand, the words said, and the pegs on the board. It
decides nothing and calls no engine; text reaches the page through ``textContent`` only.
"""

from dom import document, window

import board
from cardview import make

def viewer(game):
    """The seat the game is seen from (engine/api.py's replay_game): at the bottom, face up."""
    return game.get("viewer", 0)


def by_id(name):
    """The element with this id."""
    return document.getElementById(name)


def cap(text):
    """The text with its first letter in capitals."""
    return text[:1].upper() + text[1:]


def card_face(game, card, cls=""):
    """A face-up card as an image with its spoken name."""
    data = game["cards"].get(str(card)) or {"rank": "?", "glyph": "", "suit": "", "spoken": "a card"}
    face = make("span", "card pcard" + (" " + cls if cls else ""))
    face.setAttribute("data-suit", data["suit"])
    face.setAttribute("data-card", str(card))
    face.setAttribute("role", "img")
    face.setAttribute("aria-label", data["spoken"])
    corner = make("span", "pc-corner")
    corner.setAttribute("aria-hidden", "true")
    corner.append(make("span", "pc-rank", data["rank"]), make("span", "pc-small", data["glyph"]))
    pip = make("span", "pc-pip", data["glyph"])
    pip.setAttribute("aria-hidden", "true")
    face.append(corner, pip)
    return face


def card_back(cls=""):
    """A face-down card (the count is said in words beside it)."""
    back = make("span", "card pcard card-back" + (" " + cls if cls else ""))
    back.setAttribute("aria-hidden", "true")
    return back


def spoken(game, cards):
    """Cards in words: "five of hearts, jack of clubs"."""
    return ", ".join((game["cards"].get(str(c)) or {}).get("spoken", "a card") for c in cards)


def cards_row(game, cards, cls, label):
    """A row of cards: faces for a list, that many backs for a number."""
    row = make("div", "replay-cards " + cls)
    if isinstance(cards, list):
        for card in cards:
            row.append(card_face(game, card))
        row.setAttribute("data-open", "true")
        words = spoken(game, cards) if cards else "no cards"
    else:
        for _ in range(min(int(cards), 6)):
            row.append(card_back())
        row.setAttribute("data-open", "false")
        words = ("no cards" if cards == 0 else ("one card" if cards == 1 else str(cards) + " cards")) + ", face down"
    row.setAttribute("role", "group")
    row.setAttribute("aria-label", label + ": " + words)
    return row


def board_scores(game, scores):
    """The board's tracks: one per player, or one per partnership with four."""
    return list(scores[:2]) if game["players"] == 4 else list(scores)


def board_names(game):
    """The names on the board's tracks."""
    names = game["names"]
    if game["players"] == 4:
        return [names[0] + " & " + names[2], names[1] + " & " + names[3]]
    return list(names)


def start_board(game):
    """A fresh board for the game."""
    board.render("#board", board_names(game), game["target"])


def seat_order(game):
    """Seats drawn top first: the others, then the first person at the bottom."""
    n, me = game["players"], viewer(game)
    return [s for s in range(n) if s != me] + [me]


def seat_box(game, step, seat):
    """One seat: name, dealer mark, score and cards."""
    name = game["names"][seat]
    box = make("section", "replay-seat" + (" is-viewer" if seat == viewer(game) else ""))
    box.setAttribute("data-seat", str(seat))
    head = make("p", "replay-seat-head")
    head.append(make("span", "replay-seat-name", name))
    if step["hand_number"] and step["dealer"] == seat:
        head.append(make("span", "seat-chip dealer-chip", "Dealer"))
    score = make("span", "replay-seat-score", str(step["scores"][seat]))
    score.setAttribute("data-score-seat", str(seat))
    score.setAttribute("aria-label", name + ": " + str(step["scores"][seat]) + " points")
    head.append(score)
    box.append(head)
    box.append(cards_row(game, step["held"][seat], "replay-held", name + " holds"))
    return box


def draw_middle(game, step):
    """The starter, the crib, the count and the cards laid (or the cut for first deal)."""
    middle = by_id("replay-middle")
    middle.replaceChildren()
    pile = make("div", "replay-pile")
    starter = make("figure", "replay-slot")
    if step["starter"] is not None:
        starter.append(cards_row(game, [step["starter"]], "replay-starter", "The starter"))
    else:
        starter.append(cards_row(game, 1 if step["hand_number"] else 0, "replay-starter", "The deck"))
    starter.append(make("figcaption", None, "Starter"))
    crib = make("figure", "replay-slot")
    dealer = game["names"][step["dealer"]] if step["hand_number"] else ""
    crib.append(cards_row(game, step["crib"], "replay-crib", "The crib"))
    crib.append(make("figcaption", None, ("Crib (" + dealer + ")") if dealer else "Crib"))
    pile.append(starter, crib)
    middle.append(pile)
    play = make("div", "replay-play")
    if step["kind"] in ("cut",) or (step["cut"] and not step["laid"] and step["kind"] in ("deal", "hand")):
        play.append(make("p", "replay-label", "The cut for first deal"))
        row = make("ol", "replay-laid")
        for pair in step["cut"] or []:
            item = make("li", "replay-laid-item")
            item.append(card_face(game, pair[1]))
            item.append(make("span", "replay-by", game["names"][pair[0]]))
            row.append(item)
        play.append(row)
    else:
        count = make("p", "replay-count")
        count.append(make("span", "replay-label", "Count "))
        count.append(make("span", "replay-count-num", str(step["count"])))
        play.append(count)
        row = make("ol", "replay-laid")
        row.setAttribute("aria-label", "Cards laid this hand")
        for index, pair in enumerate(step["laid"]):
            earlier = index < step["count_start"]
            item = make("li", "replay-laid-item" + (" is-earlier" if earlier else ""))
            face = card_face(game, pair[1])
            face.setAttribute("aria-label", (game["cards"].get(str(pair[1])) or {}).get("spoken", "a card")
                              + ", " + game["names"][pair[0]] + ("'s, earlier count" if earlier else "'s"))
            item.append(face)
            item.append(make("span", "replay-by", game["names"][pair[0]]))
            row.append(item)
        play.append(row)
    middle.append(play)


def draw_shows(game, step):
    """The hands and crib counted so far this hand."""
    area = by_id("replay-shows")
    area.replaceChildren()
    area.hidden = not step["shown"]
    for record in step["shown"]:
        block = make("section", "replay-show")
        title = make("h3", "replay-show-title")
        title.append(make("span", None, game["names"][record["seat"]] + ": " + record["show"]))
        title.append(make("span", "replay-show-total", str(record["total"])))
        block.append(title)
        block.append(cards_row(game, list(record["cards"]) + [record["starter"]], "replay-show-cards",
                               game["names"][record["seat"]] + "'s " + record["show"] + " and the starter"))
        words = cap(record["spoken"]) if record["spoken"] else "Nineteen: no points."
        claimed = record.get("claimed")
        if claimed is not None and claimed != record["total"]:
            words += " (claimed " + str(claimed) + ")"
        block.append(make("p", "replay-show-words", words))
        area.append(block)


def draw(game, index, animate=True):
    """Put step ``index`` of the game on the page."""
    steps = game["steps"]
    step = steps[index]
    seats = by_id("replay-seats")
    seats.replaceChildren()
    others = make("div", "replay-others")
    me = viewer(game)
    for seat in seat_order(game):
        if seat == me:
            continue
        others.append(seat_box(game, step, seat))
    seats.append(others)
    draw_middle(game, step)
    draw_shows(game, step)
    mine = by_id("replay-mine")
    mine.replaceChildren(seat_box(game, step, me))
    parts = []
    if step["hand_number"]:
        parts.append("Hand " + str(step["hand_number"]))
        parts.append(game["names"][step["dealer"]] + " " + ("deal" if step["dealer"] == me and
                                                              game["names"][me] == "You" else "deals"))
    else:
        parts.append("Before the first deal")
    by_id("replay-hand").textContent = " \u00b7 ".join(parts)
    by_id("replay-say").textContent = cap(step["say"])
    by_id("replay-position").textContent = "Step " + str(index + 1) + " of " + str(len(steps))
    panel = by_id("replay")
    panel.setAttribute("data-step", str(index))
    panel.setAttribute("data-kind", step["kind"])
    panel.setAttribute("data-hand", str(step["hand_number"]))
    board.set_scores(board_scores(game, step["scores"]), animate, backs=board_scores(game, step["backs"]))


def bring_into_view():
    """A game just opened: scroll the least that puts the table and what was said of its step in
    the window (a phone, a laptop: the form and the page's title above them scroll away)."""
    table = by_id("replay-table").getBoundingClientRect()
    say = by_id("replay-say").getBoundingClientRect()
    height = window.innerHeight
    controls = document.querySelector(".replay-controls").getBoundingClientRect().height
    if table.top >= 0 and say.bottom <= height - controls:
        return
    top = by_id("replay-summary").getBoundingClientRect().top
    if say.bottom - top > height - controls:  # all of it cannot fit: the table from its top
        top = table.top
    window.scrollBy(0, top - 6)
