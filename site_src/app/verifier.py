"""The deal checker on the fair-deals page: a revealed seed, and the commitment shown before the
deal, give the commitment check and the 52 cards in the order dealt, with whose each one was.

Runs in MicroPython on the main thread (keep to the subset). static/python-on-demand.js starts
it on the first use of the checker, or at once when the address carries a seed: the game links
to fair-deals/?seed=SEED&commitment=C#check, which fills the form and runs it. The engine's
verify_deal (engine/api.py) does the work in its worker. Typed text reaches the page only
through textContent.

Marker for tests: #check-result[data-state] is empty, counting, done or error.
"""

import js
from dom import document, window

import bridge
import cardview
from cardview import capitalised, card_face, make, show

OWNER_NAMES = {"pone": "Pone", "dealer": "Dealer", "starter": "Starter", "crib": "Crib", "rest": "Rest"}
GROUPS = [("pone", "The pone’s hand"), ("dealer", "The dealer’s hand"), ("starter", "The starter")]
EMPTY_SEED = "Paste the seed the game revealed after the hand: 32 hex digits."


def by_id(name):
    """The element with this id."""
    return document.getElementById(name)


class Checker:
    """The checker's form, message and result."""

    def __init__(self):
        self.seed = by_id("check-seed")
        self.commitment = by_id("check-commitment")
        self.message = by_id("check-message")
        self.result = by_id("check-result")
        self.note = by_id("check-note")
        self.output = by_id("check-output")
        self.seq = 0
        bridge.on("#check-form", "submit", self.submitted, prevent_default=True)
        if by_id("daily-form") is not None:
            bridge.on("#daily-form", "submit", self.daily_submitted, prevent_default=True)

    def set_message(self, text):
        """Show a message under the form (empty text hides it)."""
        cardview.set_field_message(self.message, self.seed, text)

    def set_state(self, state, note=None):
        """Mark the result box (empty, counting, done, error) and show a note or none."""
        cardview.set_result_state(self.result, self.note, self.output, state, note)

    def submitted(self, event):
        """The form was sent: check what it holds."""
        self.check(self.seed.value, self.commitment.value)

    def daily_submitted(self, event):
        """The deal-of-the-day form was sent: check that day's hand."""
        self.check_daily(str(by_id("check-day").value), str(by_id("check-hand").value))

    def check_daily(self, day, hand):
        """Work out a day's hand seed and commitment (engine/share.py's rule), then check them."""
        day, hand = day.strip(), hand.strip()
        if not hand.isdigit():
            self.set_message("The hand is a number from 1.")
            return
        self.seq += 1
        self.set_message("")
        self.set_state("counting", "Working out the day's seed…")
        bridge.launch(self.run_daily(day, int(hand), self.seq))

    async def run_daily(self, day, hand, seq):
        """Ask the engine for the day's seed, then check it like any other."""
        try:
            rule = await bridge.call("daily_seed", {"day": day, "hand": hand})
        except bridge.EngineError as error:
            if seq != self.seq:
                return
            show(self.output, False)
            self.set_message(capitalised(error.message))
            self.set_state("error", "Fix the day or the hand to check the deal.")
            if error.kind != "bad_input":
                bridge.show_error(error)
            return
        if seq != self.seq:
            return
        by_id("check-day").value = rule["day"]
        self.seed.value = rule["seed"]
        self.commitment.value = rule["commitment"]
        self.check(rule["seed"], rule["commitment"])

    def check(self, seed, commitment):
        """Ask the engine about a seed and an optional commitment (in the background)."""
        seed, commitment = seed.strip(), commitment.strip()
        if not seed:
            self.set_message(EMPTY_SEED)
            self.seed.focus()
            return
        self.seq += 1  # numbered in the order asked; only the latest answer is shown
        self.set_message("")
        self.set_state("counting", "Rebuilding the deck…")
        request = {"seed": seed}
        if commitment:
            request["commitment"] = commitment
        bridge.launch(self.run(request, self.seq))

    async def run(self, request, seq):
        """Wait for the engine's answer to request number ``seq``; show it if still wanted."""
        try:
            reply = await bridge.call("verify_deal", request)
        except bridge.EngineError as error:
            if seq != self.seq:
                return
            show(self.output, False)  # no earlier verdict stays on screen beside the message
            if error.kind == "bad_input":
                self.set_message(capitalised(error.message))
                self.set_state("error", "Fix the seed or the commitment to check the deal.")
            else:
                self.set_state("error", "The engine could not finish. Please try again.")
                bridge.show_error(error)
            return
        if seq != self.seq:
            return
        self.seed.value = reply["seed"]
        if reply["given_commitment"]:
            self.commitment.value = reply["given_commitment"]
        query = "?seed=" + reply["seed"]
        if reply["given_commitment"]:
            query += "&commitment=" + reply["given_commitment"]
        window.history.replaceState(None, "", window.location.pathname + query + "#check")
        self.render(reply)
        self.set_state("done")
        show(self.output, True)

    def render(self, reply):
        """Draw the answer: seed, commitment, verdict, the hands and all 52 cards."""
        by_id("check-seed-out").textContent = reply["seed"]
        by_id("check-commitment-out").textContent = reply["commitment"]
        verdict = by_id("check-verdict")
        matches = reply["matches"]
        if matches is None:
            verdict.setAttribute("data-matches", "none")
            verdict.textContent = ("No commitment entered. Compare the one above, all 64 digits, with "
                                   "the commitment the game showed before the deal.")
        elif matches:
            verdict.setAttribute("data-matches", "yes")
            verdict.textContent = ("✓ The commitment matches: this seed was fixed before the deal, so "
                                   "these are the cards that were committed to.")
        else:
            verdict.setAttribute("data-matches", "no")
            verdict.textContent = ("✗ The commitment does not match. " + reply["given_commitment"]
                                   + " is not the SHA-256 of this seed: either one of them was copied "
                                   "wrongly, or this is not the seed that was committed to.")
        self.result.setAttribute("data-seed", reply["seed"])
        self.result.setAttribute("data-matches", "none" if matches is None else ("yes" if matches else "no"))

        hands = by_id("check-hands")
        cardview.clear(hands)
        for owner, title in GROUPS:
            group = make("div", "check-hand")
            group.appendChild(make("h4", None, title))
            row = make("ul", "hand")
            row.setAttribute("role", "list")
            for card in reply["cards"]:
                if card["owner"] == owner:
                    item = make("li")
                    item.appendChild(card_face(card))
                    row.appendChild(item)
            group.appendChild(row)
            hands.appendChild(group)

        deck = by_id("check-deck")
        cardview.clear(deck)
        for card in reply["cards"]:
            item = make("li")
            item.setAttribute("data-position", str(card["position"]))
            item.setAttribute("data-card", str(card["card"]))
            item.setAttribute("data-name", card["name"])
            item.setAttribute("data-owner", card["owner"])
            item.appendChild(make("span", "deck-pos", str(card["position"])))
            item.appendChild(card_face(card, small=True))
            item.appendChild(make("span", "deck-owner", OWNER_NAMES.get(card["owner"], capitalised(card["owner"]))))
            deck.appendChild(item)


def setup():
    """Bind the form; run it at once if the address carries a seed (a link from the game)."""
    checker = Checker()
    params = js.URLSearchParams.new(window.location.search)
    seed = params.get("seed")
    day = params.get("day")
    if day is not None and seed is None:
        hand = params.get("hand") or "1"
        by_id("check-day").value = str(day)
        by_id("check-hand").value = str(hand)
        checker.check_daily(str(day), str(hand))
    elif seed is not None:
        commitment = params.get("commitment") or ""
        checker.seed.value = seed
        checker.commitment.value = commitment
        checker.check(seed, commitment)
    bridge.ui_ready()


setup()
bridge.start()
