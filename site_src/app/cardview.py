"""Card widgets for the hand calculator, the deal checker and the coach: card faces, a 52-card
picker, slots, rows of ranked discards.

Runs in MicroPython on the main thread (keep to the subset). The picker's buttons and the slots
are rendered by the page's template (site_src/templates/_cards.html), so the page is complete
before Python starts; this module binds them and keeps them in step with a list of card names.
Text goes into the page through ``textContent`` and attributes only, never as markup.

    picker = cardview.Picker("calc-picker", "calc-slots", on_change)
    picker.set_cards(["5H", "5S", "5D", "JC", "5C"])   # on_change(picker) runs after every change
    picker.cards                                       # ["5H", ...] with None for an empty slot
"""

import js
from dom import document

import bridge

SUIT_LETTERS = "CDHS"
GLYPH_SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
MOVES = {"ArrowLeft": -1, "ArrowRight": 1, "ArrowUp": -13, "ArrowDown": 13}
MINUS = "\u2212"


def quick_name(token):
    """A typed card's short name ("5h" -> "5H", "t♠" -> "10S"), or None if it is not plainly one.

    Only for showing typed cards at once; the engine checks and counts them.
    """
    text = token.strip().replace("\ufe0f", "").upper()
    if len(text) < 2:
        return None
    rank, suit = text[:-1], text[-1]
    suit = GLYPH_SUITS.get(suit, suit)
    if rank == "T":
        rank = "10"
    if suit not in SUIT_LETTERS or rank not in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"):
        return None
    return rank + suit


def quick_names(text):
    """Every card in a typed line as short names, or None unless all are plainly distinct cards."""
    tokens = text.replace(",", " ").replace(";", " ").split()
    names = [quick_name(token) for token in tokens]
    if not names or None in names or len(set(names)) != len(names):
        return None
    return names


def make(tag, cls=None, text=None):
    """A new element with an optional class and text (set as textContent)."""
    node = document.createElement(tag)
    if cls:
        node.className = cls
    if text is not None:
        node.textContent = text
    return node


def card_face(card, small=False):
    """A card face from the engine's display data (name, pretty, spoken, suit) or a picker button."""
    face = make("span", "card card-sm" if small else "card", card["pretty"])
    face.setAttribute("data-suit", card["suit"])
    face.setAttribute("data-card", card["name"])
    face.setAttribute("role", "img")
    face.setAttribute("aria-label", card["spoken"])
    return face


def card_text(card):
    """A card written inline in its suit's colour (for tables): short glyph name, spoken label."""
    span = make("span", "card-text", card["pretty"])
    span.setAttribute("data-suit", card["suit"])
    span.setAttribute("data-card", card["name"])
    return span


def card_texts(cell, cards, joiner=" "):
    """Write cards (display dicts) into a table cell as coloured glyph names with spoken labels."""
    for i, card in enumerate(cards):
        if i:
            cell.appendChild(document.createTextNode(joiner))
        text = card_text(card)
        text.setAttribute("role", "img")
        text.setAttribute("aria-label", card["spoken"])
        cell.appendChild(text)


def decimal(value):
    """A figure to two decimals with a real minus sign."""
    text = "%.2f" % value
    return MINUS + text[1:] if text.startswith("-") else text


def discard_row(option):
    """One ranked discard as a table row: rank, keep, throw, net, hand, crib, hand range.

    ``option`` is a ranked discard as the engine's discard_options and hint endpoints give it
    (``rank``, ``keep_cards`` and ``throw_cards`` display data, figures); the best is marked."""
    row = make("tr", "is-best" if option["rank"] == 1 else None)
    row.setAttribute("data-keep", " ".join(option["keep_names"]))
    row.setAttribute("data-throw", " ".join(option["throw_names"]))
    row.setAttribute("data-net", str(option["net"]))
    head = make("th", "num", str(option["rank"]))
    head.setAttribute("scope", "row")
    row.appendChild(head)
    for key, cls in (("keep_cards", "discard-keep"), ("throw_cards", "discard-throw")):
        cell = make("td", cls)
        card_texts(cell, option[key])
        row.appendChild(cell)
    row.appendChild(make("td", "num discard-net", decimal(option["net"])))
    row.appendChild(make("td", "num", decimal(option["hand_ev"])))
    row.appendChild(make("td", "num", decimal(option["crib_ev"])))
    row.appendChild(make("td", "num", str(option["hand_min"]) + "\u2013" + str(option["hand_max"])))
    return row


def elements(root, selector):
    """The elements under ``root`` matching a CSS selector, as a Python list."""
    found = root.querySelectorAll(selector)
    return [found.item(i) for i in range(found.length)]


def clear(node):
    """Remove every child of an element."""
    node.replaceChildren()


def show(node, visible):
    """Show or hide an element (the hidden attribute)."""
    if visible:
        node.removeAttribute("hidden")
    else:
        node.setAttribute("hidden", "")


def set_field_message(box, field, text):
    """Show a message under an input (empty text hides it) and mark the input invalid or not."""
    box.textContent = text
    box.classList.toggle("is-shown", bool(text))
    if text:
        field.setAttribute("aria-invalid", "true")
    else:
        field.removeAttribute("aria-invalid")


def set_result_state(result, note_box, output, state, note=None):
    """Mark a result box (empty, waiting, counting, done, error) and show a note or none."""
    result.setAttribute("data-state", state)
    if note is None:
        show(note_box, False)
    else:
        note_box.textContent = note
        show(note_box, True)
    busy = state == "counting"
    result.setAttribute("aria-busy", "true" if busy else "false")
    output.classList.toggle("is-stale", busy or state == "error")


def capitalised(text):
    """The text with its first letter in capitals (the engine's messages start in lower case)."""
    text = str(text)
    return text[:1].upper() + text[1:]


class Picker:
    """A 52-card grid feeding a row of slots; a used card is greyed out and cannot be picked again.

    A pick fills the chosen slot, else the first empty one. Selecting a filled slot takes its
    card back and makes that slot the next to fill.
    """

    def __init__(self, grid_id, slots_id, on_change, live_id=None):
        self.grid = document.getElementById(grid_id)
        self.slot_box = document.getElementById(slots_id)
        self.on_change = on_change
        self.live = document.getElementById(live_id) if live_id else None
        self.full_note = document.getElementById(grid_id + "-full")  # a refused pick, shown
        # The grid's cards in order, read at once from the grid (the template writes them there
        # too): a page starts without a call into the page for each of its 52 buttons. A button
        # and its names are read when first needed (``button``, ``face``).
        self.names = str(self.grid.getAttribute("data-cards")).split()
        self.index = {name: i for i, name in enumerate(self.names)}
        self.button_nodes = self.grid.querySelectorAll("button[data-card]")  # read one by one (``button``)
        self.buttons = {}
        self.faces = {}
        self.shown_used = set()  # the cards drawn greyed out (the template draws none)
        self.slots = elements(self.slot_box, "button.slot")
        for i, slot in enumerate(self.slots):
            slot.setAttribute("data-slot", str(i))
        self.cards = [None] * len(self.slots)
        self.target = None
        self.focus_index = 0
        bridge.on(self.grid, "click", self._grid_click)
        bridge.on(self.grid, "keydown", self._grid_key)
        bridge.on(self.slot_box, "click", self._slot_click)

    # --- state ---------------------------------------------------------------------------

    def is_complete(self):
        """True when every slot holds a card."""
        return None not in self.cards

    def count(self):
        """How many slots hold a card."""
        return len([c for c in self.cards if c is not None])

    def button(self, i):
        """The grid's ``i``-th card button."""
        found = self.buttons.get(i)
        if found is None:
            found = self.buttons[i] = self.button_nodes.item(i)
        return found

    def face(self, name):
        """Display data for a card name (from the picker's own button)."""
        face = self.faces.get(name)
        if face is None:
            button = self.button(self.index[name])
            face = self.faces[name] = {
                "name": name,
                "pretty": button.getAttribute("data-pretty"),
                "spoken": button.getAttribute("data-spoken"),
                "suit": button.getAttribute("data-suit"),
            }
        return face

    def set_cards(self, names, notify=True):
        """Put these card names in the slots in order (fewer leaves the rest empty)."""
        cards = [None] * len(self.slots)
        for i, name in enumerate(names[:len(self.slots)]):
            cards[i] = name if name in self.index else None
        self.cards = cards
        self.target = None
        self.render()
        if notify:
            self.on_change(self)

    def clear(self):
        """Empty every slot."""
        self.set_cards([])
        self.say("All cards cleared.")

    def pick(self, name):
        """Put a card in the chosen slot or the first empty one; False if it cannot go anywhere."""
        if name in self.cards:
            return False
        slot = self.target
        if slot is None:
            if None not in self.cards:
                text = "All the cards are picked. Select one of them to take it back first."
                self.say(text)
                self.show_full(text)
                return False
            slot = self.cards.index(None)
        self.cards[slot] = name
        self.target = None
        self.render()
        left = len(self.slots) - self.count()
        more = " " + str(left) + " more to pick." if left else ""
        self.say(capitalised(self.face(name)["spoken"]) + ": " + self.slot_label(slot) + "." + more)
        self.on_change(self)
        return True

    def take_back(self, slot):
        """Empty a slot and make it the next one to fill."""
        name = self.cards[slot]
        self.cards[slot] = None
        self.target = slot
        self.render()
        if name is not None:
            self.say(capitalised(self.face(name)["spoken"]) + " taken back.")
            self.on_change(self)

    def slot_label(self, slot):
        """The slot's name for screen readers and messages ("Hand card 1")."""
        return self.slots[slot].getAttribute("data-label")

    def show_full(self, text):
        """Show (or with "" hide) the line under the grid saying why a pick was refused."""
        if self.full_note is not None:
            self.full_note.textContent = text
            self.full_note.hidden = not text

    def say(self, text):
        """Announce a short message through the tool's live region."""
        if self.live is not None:
            self.live.textContent = text

    # --- drawing -------------------------------------------------------------------------

    def render(self):
        """Grey out the used cards in the grid and draw the slots."""
        if None in self.cards:
            self.show_full("")  # a slot is free again: the refusal no longer holds
        used = set(c for c in self.cards if c is not None)
        for name in self.shown_used ^ used:  # only the cards whose state changed
            is_used = name in used
            button = self.button(self.index[name])
            button.setAttribute("aria-disabled", "true" if is_used else "false")
            button.classList.toggle("is-used", is_used)
        self.shown_used = used
        for i, slot in enumerate(self.slots):
            name = self.cards[i]
            label = self.slot_label(i)
            clear(slot)
            if name is None:
                slot.appendChild(make("span", "visually-hidden",
                                      label + ": empty" + (", next to fill" if self.target == i else "")))
                mark = make("span", "slot-empty", "?")
                mark.setAttribute("aria-hidden", "true")
                slot.appendChild(mark)
            else:
                slot.appendChild(make("span", "visually-hidden", label + ": "))
                slot.appendChild(card_face(self.face(name)))
                slot.appendChild(make("span", "visually-hidden", " (select to take it back)"))
            slot.setAttribute("data-card", name or "")
            slot.classList.toggle("is-filled", name is not None)
            slot.classList.toggle("is-target", self.target == i)

    def relabel(self, labels):
        """Rename the slots (e.g. "Crib card 1" for "Hand card 1") and redraw them."""
        for slot, label in zip(self.slots, labels):
            slot.setAttribute("data-label", label)
        self.render()

    # --- events --------------------------------------------------------------------------

    def _grid_click(self, event):
        button = event.target.closest("button[data-card]")
        if button is None:
            return
        self._move_focus(self.index[button.getAttribute("data-card")], focus=False)
        if button.getAttribute("aria-disabled") == "true":
            self.say(capitalised(button.getAttribute("data-spoken")) + " is already picked.")
            return
        self.pick(button.getAttribute("data-card"))

    def _grid_key(self, event):
        key = event.key
        i = self.focus_index
        if key in MOVES:
            step = MOVES[key]
            target = i + step
            if target < 0 or target >= len(self.names):
                target = i
        elif key == "Home":
            target = i - i % 13
        elif key == "End":
            target = i - i % 13 + 12
        else:
            return
        event.preventDefault()
        self._move_focus(target)

    def _move_focus(self, target, focus=True):
        """Roving tab stop: only one card of the grid is in the tab order."""
        if target != self.focus_index:
            self.button(self.focus_index).setAttribute("tabindex", "-1")
            self.button(target).setAttribute("tabindex", "0")
            self.focus_index = target
        if focus:
            self.button(target).focus()

    def _slot_click(self, event):
        slot = event.target.closest("button.slot")
        if slot is None:
            return
        i = int(slot.getAttribute("data-slot"))
        if self.cards[i] is not None:
            self.take_back(i)
        else:
            self.target = None if self.target == i else i
            self.render()
            if self.target == i:
                self.say(self.slot_label(i) + " is next to fill.")


def js_has(name):
    """True if the browser has a global of this name (speechSynthesis, ...)."""
    return bool(js.Reflect.has(js.window, name))
