"""The hand calculator page: count a hand or crib, and rank the discards of six dealt cards.

Runs in MicroPython on the main thread (keep to the subset). The engine does the work in its
worker (engine/api.py: score_hand, discard_options); this module binds the card pickers and the
forms, keeps the cards in the address so a count can be shared
(?hand=5H,5S,5D,JC&starter=5C&crib=0, and ?discard=...&dealer=1 for the discard helper) and draws
the replies. Typed text reaches the page only through textContent.

Markers for tests and the benchmark: #calc-result[data-state] and #discard-result[data-state]
are empty, waiting, counting, done or error; a finished count sets the performance mark
"hand-counted".
"""

import asyncio

import js
from dom import document, window

import bridge
import cardview
from cardview import capitalised, card_face, card_texts, elements, make, show

HAND_LABELS = ["Hand card 1", "Hand card 2", "Hand card 3", "Hand card 4", "Starter"]
CRIB_LABELS = ["Crib card 1", "Crib card 2", "Crib card 3", "Crib card 4", "Starter"]
KIND_NAMES = {"fifteen": "Fifteen", "pair": "Pair", "flush": "Flush", "nobs": "His nobs"}
RUN_NAMES = {3: "Run of three", 4: "Run of four", 5: "Run of five"}
NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six"]
COUNTED_MARK = "hand-counted"
REVEAL_PX = 220  # how much of an answer must be in the window once the cards are complete
MARGIN_PX = 8    # left above it when the page scrolls to it
QUIET_S = 0.15  # a link's answer slower than this: its cards and the working note are shown meanwhile


def by_id(name):
    """The element with this id."""
    return document.getElementById(name)


def sentence(text):
    """The engine's spoken count as a sentence: capital first letter, full stop."""
    text = capitalised(text)
    return text if text.endswith(".") else text + "."


def more_cards(n):
    """How many cards are still to pick, in words: "one more card", "three more cards"."""
    number = NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)
    return number + " more card" + ("" if n == 1 else "s")


def checked_value(name):
    """The value of the checked radio button of a group, or None."""
    box = document.querySelector('input[name="' + name + '"]:checked')
    return box.value if box is not None else None


def check_radio(name, value):
    """Check the radio button of a group that has this value."""
    box = document.querySelector('input[name="' + name + '"][value="' + value + '"]')
    if box is not None:
        box.checked = True


class Tool:
    """What the two tools share: a picker, a typed form, an inline message and a result box."""

    def __init__(self, prefix, on_url_change):
        self.prefix = prefix
        self.picker = cardview.Picker(prefix + "-picker", prefix + "-slots", self.picked, prefix + "-live")
        self.input = by_id(prefix + "-input")
        self.message = by_id(prefix + "-message")
        self.result = by_id(prefix + "-result")
        self.note = by_id(prefix + "-note")
        self.on_url_change = on_url_change
        self.seq = 0
        self.answered = 0  # the last request whose answer (or refusal) is shown
        self.query = ""
        bridge.on("#" + prefix + "-form", "submit", self.typed, prevent_default=True)
        bridge.on("#" + prefix + "-clear", "click", self.cleared)

    # Subclasses give WANT (how many cards), ENDPOINT, the notes (EMPTY_NOTE, WORKING_NOTE,
    # FIX_NOTE, TYPE_HINT), output (the element shown when done) and request(names),
    # typed_request(text), reply_names(reply), query_for(names) and render(reply).

    def set_message(self, text):
        """Show the engine's message under the input (empty text hides it)."""
        cardview.set_field_message(self.message, self.input, text)

    def set_state(self, state, note=None):
        """Mark the result box (empty, waiting, counting, done, error) and show a note or none."""
        cardview.set_result_state(self.result, self.note, self.output, state, note)
        if state in ("empty", "waiting"):
            show(self.output, False)

    def picked(self, picker):
        """After every pick: run the engine once the slots are full, else say how many are left."""
        names = [c for c in picker.cards if c is not None]
        self.input.value = " ".join(names)
        self.set_message("")
        if picker.is_complete():
            self.start(self.request(picker.cards), reveal=True)
            return
        self.seq += 1  # a reply still on its way is no longer wanted
        left = self.WANT - len(names)
        self.set_state("empty" if not names else "waiting",
                       self.EMPTY_NOTE if not names else "Pick " + more_cards(left) + ".")
        self.set_query("")

    def cleared(self, event):
        """The Clear button: empty the slots and the input."""
        self.picker.clear()
        self.input.value = ""
        self.set_message("")
        self.input.focus()

    def typed(self, event):
        """The form was sent: show plainly typed cards at once, then ask the engine."""
        text = self.input.value.strip()
        if not text:
            self.set_message(self.TYPE_HINT)
            return
        names = cardview.quick_names(text)
        if names is not None and len(names) == self.WANT:
            self.picker.set_cards(names, notify=False)
        self.start(self.typed_request(text), reveal=True)

    def start(self, request, reveal=False):
        """Ask the engine in the background and say "counting…"; a later request supersedes it.
        ``reveal``: the person completed the cards, so the answer is brought into the window.

        Requests are numbered here, in the order the player made them, not when their tasks run.
        """
        self.follow(bridge.call(self.ENDPOINT, request), reveal)

    def follow(self, reply_to, reveal=False, laid=None):
        """Say "counting…" and show the reply to a request already sent (``reply_to``, from
        bridge.call) when it comes, unless a later request supersedes it.

        ``laid``: the request is a link's, sent as the page starts, and these are its cards (a
        list, possibly empty). Nothing is drawn before its answer unless the answer is slower
        than QUIET_S: the page is laid out once, with the cards and the answer together, not
        once for the cards and "counting…" and again a moment later for the answer.
        """
        self.seq += 1
        if laid is None:
            self.set_state("counting", self.WORKING_NOTE)
        else:
            bridge.launch(self.working_meanwhile(self.seq, laid))
        bridge.launch(self.run(reply_to, self.seq, self.input.value, reveal))

    async def working_meanwhile(self, seq, laid):
        """A link's answer is slow to come: lay its cards and say "counting…" until it does."""
        await asyncio.sleep(QUIET_S)
        if seq != self.seq or self.answered == seq:
            return
        if len(laid) == self.WANT:
            self.picker.set_cards(laid, notify=False)
        self.set_state("counting", self.WORKING_NOTE)

    def bring_into_view(self):
        """Scroll the least that shows the start of the answer (on a phone it is below the picker)."""
        box = self.result.getBoundingClientRect()
        height = window.innerHeight
        if box.top >= 0 and box.top + min(box.height, REVEAL_PX) <= height:
            return
        window.scrollBy(0, box.top - MARGIN_PX)

    async def run(self, reply_to, seq, typed, reveal=False):
        """Wait for the engine's reply to request number ``seq`` (``reply_to``, the call sent);
        show it if it is still wanted."""
        try:
            reply = await reply_to
        except bridge.EngineError as error:
            if seq != self.seq:
                return
            self.answered = seq
            if error.kind == "bad_input":
                self.set_message(capitalised(error.message))
                self.set_state("error", self.FIX_NOTE)
                self.set_query("")  # the address no longer carries the last good cards
            else:
                self.set_state("error", "The engine could not finish. Please try again.")
                bridge.show_error(error)
            return
        if seq != self.seq:
            return
        self.answered = seq
        names = self.reply_names(reply)
        if names != self.picker.cards:  # a link's cards come with its answer, unless laid meanwhile
            self.picker.set_cards(names, notify=False)
        if self.input.value == typed:  # never overwrite what was typed while the engine worked
            self.input.value = " ".join(names)
        self.set_message("")
        self.set_query(self.query_for(names))
        self.render(reply)
        self.set_state("done")
        show(self.output, True)
        if reveal:
            self.bring_into_view()

    def set_query(self, query):
        """Remember this tool's part of the address and rewrite the address."""
        self.query = query
        self.on_url_change()


class HandCounter(Tool):
    """Four cards and a starter, hand or crib -> the engine's count, itemised and spoken."""

    WANT = 5
    ENDPOINT = "score_hand"
    EMPTY_NOTE = "Pick four cards and a starter, or type them, to see the count."
    WORKING_NOTE = "Counting…"
    FIX_NOTE = "Fix the cards to see the count."
    TYPE_HINT = "Type four cards and then the starter, such as 5H 5S 5D JC 5C."

    def __init__(self, on_url_change):
        self.output = by_id("calc-count")
        super().__init__("calc", on_url_change)
        self.crib = False
        self.spoken = ""
        self.items = by_id("calc-items")
        self.say_button = by_id("calc-say")
        for radio in elements(document, 'input[name="calc-kind"]'):
            bridge.on(radio, "change", self.kind_changed)
        bridge.on(self.items, "mouseover", self.point)
        bridge.on(self.items, "focusin", self.point)
        bridge.on(self.items, "focusout", self.unpoint)
        bridge.on("#calc-table-wrap", "mouseleave", self.unpoint)
        if cardview.js_has("speechSynthesis") and cardview.js_has("SpeechSynthesisUtterance"):
            show(self.say_button, True)
            bridge.on(self.say_button, "click", self.speak)

    def request(self, cards):
        """The engine request for the picked cards."""
        return {"hand": cards[:4], "starter": cards[4], "crib": self.crib}

    def typed_request(self, text):
        """The engine request for a typed line of cards."""
        return {"cards": text, "crib": self.crib}

    def reply_names(self, reply):
        """The counted cards' short names, hand then starter."""
        return [c["name"] for c in reply["hand_cards"]] + [reply["starter_card"]["name"]]

    def query_for(self, names):
        """This count's part of the address."""
        return "hand=" + ",".join(names[:4]) + "&starter=" + names[4] + "&crib=" + ("1" if self.crib else "0")

    def set_crib(self, crib):
        """Count as a crib (True) or a hand; relabels the slots."""
        self.crib = crib
        check_radio("calc-kind", "crib" if crib else "hand")
        self.picker.relabel(CRIB_LABELS if crib else HAND_LABELS)
        label = document.querySelector("#calc-slots .slot-group-label")
        if label is not None:
            label.textContent = "Crib" if crib else "Hand"

    def kind_changed(self, event):
        """The hand/crib switch changed: count again."""
        self.set_crib(checked_value("calc-kind") == "crib")
        if self.picker.is_complete():
            self.start(self.request(self.picker.cards))

    def render(self, reply):
        """Draw a count: total, cards, the words, every combination with its running total."""
        total = reply["total"]
        by_id("calc-total").textContent = str(total)
        by_id("calc-unit").textContent = ("point" if total == 1 else "points") + (
            " in the crib" if reply["crib"] else " in the hand")
        self.result.setAttribute("data-hand", " ".join(c["name"] for c in reply["hand_cards"]))
        self.result.setAttribute("data-starter", reply["starter_card"]["name"])
        self.result.setAttribute("data-crib", "1" if reply["crib"] else "0")
        self.result.setAttribute("data-total", str(total))

        shown = by_id("calc-show")
        cardview.clear(shown)
        for card in reply["hand_cards"]:
            shown.appendChild(card_face(card))
        starter = make("span", "count-starter")
        starter.appendChild(card_face(reply["starter_card"]))
        starter.appendChild(make("span", "count-starter-label", "starter"))
        shown.appendChild(starter)

        self.spoken = sentence(reply["spoken"])
        by_id("calc-said").textContent = "“" + self.spoken + "”"

        faces = {}
        for card in reply["hand_cards"] + [reply["starter_card"]]:
            faces[card["name"]] = card
        cardview.clear(self.items)
        running = 0
        for item in reply["items"]:
            running += item["points"]
            row = make("tr", "count-item")
            row.setAttribute("tabindex", "0")
            row.setAttribute("data-kind", item["kind"])
            row.setAttribute("data-cards", " ".join(item["names"]))
            row.setAttribute("data-points", str(item["points"]))
            kind = item["kind"]
            if kind == "run":
                name = RUN_NAMES.get(len(item["names"]), "Run")
            elif kind == "flush":
                name = "Flush of " + NUMBER_WORDS[len(item["names"])]
            else:
                name = KIND_NAMES.get(kind, capitalised(kind))
            head = make("th", None, name)
            head.setAttribute("scope", "row")
            row.appendChild(head)
            cell = make("td", "count-item-cards")
            joiner = "\u2009+\u2009" if kind == "fifteen" else " "
            card_texts(cell, [faces[n] for n in item["names"]], joiner)
            row.appendChild(cell)
            row.appendChild(make("td", "num", str(item["points"])))
            row.appendChild(make("td", "num count-running", str(running)))
            self.items.appendChild(row)
        has_items = len(reply["items"]) > 0
        show(by_id("calc-table-wrap"), has_items)
        show(by_id("calc-none"), not has_items)
        self.picker.say(str(total) + (" point. " if total == 1 else " points. ") + self.spoken)
        window.performance.mark(COUNTED_MARK)

    # --- pointing at a combination lights up its cards ----------------------------------------

    def point(self, event):
        """A row was pointed at or focused: light up its cards."""
        row = event.target.closest("tr[data-cards]")
        if row is not None:
            self.highlight(row.getAttribute("data-cards").split(), row)

    def unpoint(self, event):
        """Nothing pointed at: every card back to normal."""
        self.highlight(None, None)

    def highlight(self, names, row):
        """Light up these cards (dim the others) in the count and the slots; None resets them."""
        for face in elements(by_id("calculator"), ".count-cards .card, .slots .card"):
            name = face.getAttribute("data-card")
            face.classList.toggle("is-highlighted", names is not None and name in names)
            face.classList.toggle("is-dim", names is not None and name not in names)
        for other in elements(self.items, "tr.is-pointed"):
            other.classList.remove("is-pointed")
        if row is not None:
            row.classList.add("is-pointed")

    def speak(self, event):
        """Read the count aloud with the browser's speech synthesis (silent if it has no voice)."""
        if not self.spoken:
            return
        try:
            synth = window.speechSynthesis
            synth.cancel()
            utterance = js.SpeechSynthesisUtterance.new(self.spoken)
            utterance.lang = "en"
            utterance.rate = 0.95
            synth.speak(utterance)
        except Exception as error:  # no speech here: say so instead of failing
            js.console.warn("Speech synthesis failed:", str(error))
            self.picker.say("This browser cannot read the count aloud.")


class DiscardHelper(Tool):
    """Six dealt cards and whose crib -> the engine's 15 discards, best net first."""

    WANT = 6
    ENDPOINT = "discard_options"
    EMPTY_NOTE = "Pick six cards, or type them, to rank the discards."
    WORKING_NOTE = "Working out all 15 discards…"
    FIX_NOTE = "Fix the cards to rank the discards."
    TYPE_HINT = "Type the six cards you were dealt, such as 5H 5S JD QC 2C 9S."

    def __init__(self, on_url_change):
        self.output = by_id("discard-ranked")
        super().__init__("discard", on_url_change)
        self.dealer = True
        self.rows = by_id("discard-rows")
        for radio in elements(document, 'input[name="discard-kind"]'):
            bridge.on(radio, "change", self.kind_changed)

    def request(self, cards):
        """The engine request for the picked cards."""
        return {"cards": cards, "dealer": self.dealer}

    def typed_request(self, text):
        """The engine request for a typed line of cards."""
        return {"cards": text, "dealer": self.dealer}

    def reply_names(self, reply):
        """The dealt cards' short names."""
        return [c["name"] for c in reply["cards"]]

    def query_for(self, names):
        """This ranking's part of the address."""
        return "discard=" + ",".join(names) + "&dealer=" + ("1" if self.dealer else "0")

    def set_dealer(self, dealer):
        """Whose crib: True if the player dealt."""
        self.dealer = dealer
        check_radio("discard-kind", "dealer" if dealer else "pone")

    def kind_changed(self, event):
        """The dealer/pone switch changed: rank again."""
        self.set_dealer(checked_value("discard-kind") == "dealer")
        if self.picker.is_complete():
            self.start(self.request(self.picker.cards))

    def render(self, reply):
        """Draw the ranked discards, best first."""
        dealer = reply["dealer"]
        options = reply["options"]
        self.result.setAttribute("data-cards", " ".join(self.reply_names(reply)))
        self.result.setAttribute("data-dealer", "1" if dealer else "0")
        by_id("discard-caption").textContent = (
            "The " + str(len(options)) + " ways to keep four, best first, "
            + ("with the crib yours" if dealer else "with the crib your opponent’s"))
        by_id("discard-crib-head").textContent = "Crib (yours)" if dealer else "Crib (theirs)"
        cardview.clear(self.rows)
        for option in options:
            self.rows.appendChild(cardview.discard_row(option))
        best = options[0]
        self.picker.say("Best: keep " + " ".join(c["spoken"] for c in best["keep_cards"])
                        + ", throw " + " and ".join(c["spoken"] for c in best["throw_cards"]) + ".")


class CalculatorPage:
    """Both tools, and the address that carries their cards."""

    def __init__(self):
        self.counter = HandCounter(self.update_url)
        self.discard = DiscardHelper(self.update_url)

    def update_url(self):
        """Put both tools' cards in the address (history.replaceState: no new history entry)."""
        parts = [q for q in (self.counter.query, self.discard.query) if q]
        query = "?" + "&".join(parts) if parts else ""
        location = window.location
        if query != str(location.search):  # the same address (a shared link, counted) is left as it is
            window.history.replaceState(None, "", location.pathname + query + location.hash)

    def load_url(self, crib, dealer, sent):
        """Fill the tools from the address (a shared link, or a form sent before Python ran): the
        crib or hand, the dealer or not, and the requests ``ask_from_address`` sent, whose cards
        are laid in the slots with their answers (or meanwhile, if the engine is slow:
        ``Tool.follow``)."""
        if crib:
            self.counter.set_crib(True)
        if not dealer:
            self.discard.set_dealer(False)
        tools = {HandCounter: self.counter, DiscardHelper: self.discard}
        for kind, reply_to, text in sent:
            tool = tools[kind]
            tool.follow(reply_to, laid=self.prefill(tool, text) or [])

    def prefill(self, tool, text):
        """Show cards from the address in a tool's input; returns the cards to lay in its slots if
        plainly written (else None)."""
        text = " ".join(text.replace(",", " ").split())
        tool.input.value = text
        return cardview.quick_names(text)


def read_address(search):
    """What an address (``location.search``) asks of the tools: (crib, dealer, asks), with crib
    True for a crib's count, dealer False when the player did not deal, and asks a list of
    (tool, request, text): the tool's class (HandCounter or DiscardHelper), its engine request and
    the cards as the address wrote them."""
    params = js.URLSearchParams.new(search)
    crib = params.get("crib") == "1"
    dealer = params.get("dealer") != "0"
    asks = []
    hand, starter, typed = params.get("hand"), params.get("starter"), params.get("cards")
    if hand is not None or starter is not None:
        hand, starter = hand or "", starter or ""
        asks.append((HandCounter, {"hand": hand, "starter": starter, "crib": crib},
                     hand.replace(",", " ") + " " + starter))
    elif typed:
        asks.append((HandCounter, {"cards": typed, "crib": crib}, typed))
    dealt = params.get("discard")
    if dealt:
        asks.append((DiscardHelper, {"cards": dealt, "dealer": dealer}, dealt))
    return crib, dealer, asks


def ask_from_address():
    """Send the engine what the address asks, before the page binds its controls (it counts
    meanwhile); returns (crib, dealer, sent), sent as read_address's asks with each request
    replaced by the awaitable of its reply."""
    crib, dealer, asks = read_address(str(window.location.search))
    return crib, dealer, [(tool, bridge.call(tool.ENDPOINT, request), text) for tool, request, text in asks]


def setup():
    """Ask for what the address holds, bind the page's controls, then fill them from the address."""
    crib, dealer, sent = ask_from_address()
    page = CalculatorPage()
    page.load_url(crib, dealer, sent)
    bridge.ui_ready()


setup()
bridge.start()
