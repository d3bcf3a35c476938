"""How each hand of a sealed friend game is sealed: the shuffles, the openings of both sides' six cards, the rest of the deck.

Part of ``engine/sealed_game.py``, whose ``SealedGame`` builds on ``HandSealing``: the messages
``deck``, ``final``, ``head``, ``open``, ``proof`` and ``rest`` (listed there) are taken here,
each hand's ``SealedHand`` (``engine/sealed.py``) does the arithmetic, and the game is told when
this side's six cards are read (``_hand_ready``).

In a game begun from an invitation that carries the inviter's commitment to its secret and a
reply that opens the inviter's first six (``seeds.SEALED_EARLY_PREFIX``, ``seeds.reply_opens``),
seat 0 reads its first hand as the game begins, before any message: its own shuffle follows from
the secret it committed to before the reply was made, and the reply says which of its own locked
cards land in its six, whichever seat the cut makes the dealer. Seat 1's final for that hand
opens them again, and must say the same. Seat 0 may then discard before its deck has gone: seat 1
takes the discard once it has read its own six.

Hand k+1 is sealed while hand k is played (from its starter on), so the shuffles are done
before they are needed. The heavy steps wait for ``work()``: seat 0's shuffle and the proof of
its openings, seat 1's masks (made ahead of seat 0's deck), their removal (worked out while seat
0 opens its six) and the rest of its deck. A hand's first cards thus need one message each way
after seat 0's deck: seat 1 answers it with the final and the head at once, and seat 0 answers
the head with its openings.
"""

from engine.seeds import HAND_CARDS, SEALED_EARLY_PREFIX, own_seed
from engine.sealed import HEAD, REST, SealedHand, SealError

STARTER = 12  # the starter's position in a two-player deal


def hand_positions(seat: int, dealer: int) -> list:
    """The positions of a seat's six cards in a two-player deal (the pone's come first)."""
    first = 0 if seat != dealer else HAND_CARDS
    return list(range(first, first + HAND_CARDS))


class HandSealing:
    """The sealing of each hand, for one side of a sealed game (see the module docstring).

    It works on the game's own fields (``me``, ``other``, ``names``, ``public``, ``secret``,
    ``opens``, ``hands``, ``ready``, ``deferred``, ``outbox``, ``first_hand``, ``log``,
    ``replaying``, ``joints``, ``_withheld``) and calls back
    the game's ``hand_number``, ``_hand_ready`` (this side's six are read) and ``_keep`` (a call
    for the game's log).
    """

    def dealer_of(self, number: int) -> int:
        """The dealer of hand ``number`` (the deal alternates from the cut's winner)."""
        return (self._first_dealer + number - 1) % 2

    def take_messages(self) -> list:
        """The messages to send now, in order (the outbox is emptied)."""
        out, self.outbox = self.outbox, []
        return out

    def _send(self, step: str, number: int, fields: dict) -> None:
        message = {"s": step, "k": number}
        message.update(fields)
        self.outbox.append(message)

    def _fail(self, what: str) -> SealError:
        return SealError(what.replace("@", self.names[self.other]))

    def _seal(self, number: int) -> None:
        """Start sealing hand ``number`` (its shuffle waits for work())."""
        if number not in self.hands:
            self.hands[number] = SealedHand(self.me, own_seed(self.public, self.me, self.secret, number),
                                            self.names[self.other])
            self.deferred.append((number, None if self.me == 0 else "masks"))

    def _open_early(self) -> None:
        """Seat 0 of an early game: its first six read from the reply's openings, before any
        message of the hand (seat 1 opens them again in its final, which must agree)."""
        if self.opens is None or self.first_hand != 1 or self.ready.get(1):
            return
        if self.me != 0 or not self.public.startswith(SEALED_EARLY_PREFIX) or len(self.opens) != 2 * HAND_CARDS:
            raise self._fail("@'s reply opens no first hand of this game.")
        dealer = self.dealer_of(1)
        indices = self.opens[:HAND_CARDS] if dealer == 1 else self.opens[HAND_CARDS:]
        hand = self.hands[1]
        for position, index in zip(hand_positions(0, dealer), indices):
            hand.read_own(position, index)
        self._hand_ready(1)

    def work(self) -> bool:
        """Do one step of the waiting shuffles; True if there was one (call again until False)."""
        if not self.deferred:
            return False
        number = self.deferred[0][0]
        if self._work():  # the log keeps whole shuffles only: a step's size is no part of the game
            self._keep("w", number, None)
        return True

    def _work_whole(self) -> None:
        """The first waiting shuffle, done whole (a kept ``"w"`` call made again)."""
        number = self.deferred[0][0]
        while not self._work():
            pass
        self._keep("w", number, None)

    def _parts(self, number: int) -> tuple:
        """The positions of hand ``number``'s final deck in the order seat 1 opens or sends them:
        seat 0's six cards (opened by index), seat 1's six, then the rest of the deck (seat 0's
        six, the starter and the positions past ``HEAD``)."""
        first, own = hand_positions(0, self.dealer_of(number)), hand_positions(1, self.dealer_of(number))
        return first, own, first + [j for j in range(HEAD) if j not in first and j not in own] + REST

    def _work(self) -> bool:
        """One step of the first waiting shuffle; True if that finished it (its message sent)."""
        number, what = self.deferred[0]
        hand = self.hands[number]
        _, head, rest = self._parts(number)
        if what is None:
            if not hand.first_step() or not hand.shuffle_step():
                return False
            self.deferred.pop(0)
            self._send("deck", number, {"commit": hand.commitment, "deck": hand.first_deck(),
                                        "unlock": hand.unlock_text(), "roots": hand.first_roots(),
                                        "shuffle": hand.shuffle_text()})
        elif what == "check":
            self.deferred.pop(0)
            self._check_shuffle(number)
        elif what == "masks":
            self.deferred.pop(0)
            hand.make_masks(head)
        elif what == "unmask":
            self.deferred.pop(0)
            hand.unmask_step()
        elif what == "proof":
            self.deferred.pop(0)
            self._send_after(number, "proof", {"proof": hand.proof()})
        elif what == "rest":
            if not hand.final_step():
                return False
            self.deferred.pop(0)
            if hand.proved:
                self._send("rest", number, {"deck": hand.final_part(rest)})
            else:
                self._rest_held.append(number)  # sent once the proof has come
        return True

    def _check_shuffle(self, number: int) -> None:
        """Seat 1: seat 0's proof that hand ``number``'s deck holds each card once, checked now if
        it is not yet; the proof is then let go, in the game's log too (its record: a deck taken up
        again from it was checked when it came)."""
        if (number, "check") in self.deferred:
            self.deferred.remove((number, "check"))
        hand = self.hands[number]
        if hand.checked:
            return
        hand.check_shuffle()
        for kind, at, item in self.log:
            if kind == "r" and at == number and item.get("s") == "deck":
                item.pop("shuffle", None)

    def _send_rest(self, number: int) -> None:
        """Seat 1: the rest of hand ``number``'s deck now, if it is still waiting (before its first
        move of the hand: seat 0's own cards are in it, which seat 0 opens when it lays them),
        once the openings of its six are proved right (seat 0 sends the proof before it moves)."""
        if self.me == 1 and not self.hands[number].proved:
            raise self._fail("@ has not shown that it opened your cards right, so this hand cannot go on.")
        if self.me == 1:
            self._check_shuffle(number)  # before anything this side sends once it has read its cards
        if (number, "rest") in self.deferred:
            self.deferred.remove((number, "rest"))
            hand = self.hands[number]
            while not hand.final_step():
                pass
            self._send("rest", number, {"deck": hand.final_part(self._parts(number)[2])})

    def _opens(self, hand: SealedHand, positions) -> list:
        return [[j, hand.share(j)] for j in positions]

    def _read_opens(self, hand: SealedHand, opens: object, allowed, roots: object = None) -> dict:
        if not isinstance(opens, list) or not all(isinstance(o, list) and len(o) == 2 for o in opens) \
                or roots is not None and not (isinstance(roots, list) and len(roots) == len(opens)):
            raise self._fail("@'s openings are damaged.")
        for position, _ in opens:
            if type(position) is not int or position not in allowed:
                raise self._fail("@ opened a card it may not open now.")
        cards = hand.read_all(opens, roots)
        if self.me == 0:  # seat 1 made the final deck: a card read twice is its doing
            others = [card for j, card in hand.read_cards.items() if j not in cards]
            if any(card in others for card in cards.values()):
                raise self._fail("@ opened a card that is elsewhere in this hand, so its deck is not a "
                                 "shuffle of the cards.")
        return cards

    def _on_deck(self, number: int, message: dict) -> None:
        if self.me != 1 or number in self.hands and self.hands[number].first is not None \
                or any(n == number and what != "masks" for n, what in self.deferred) or number > self.hand_number() + 1:
            raise self._fail(f"@ sent a deck for hand {number} out of turn.")
        self._seal(number)
        hand = self.hands[number]
        hand.take_first(message.get("deck"), message.get("commit"), message.get("unlock"), message.get("roots"),
                        message.get("shuffle", None if self.replaying else ""))
        first, head, _ = self._parts(number)  # seat 0's six, opened by index: that takes no arithmetic
        own = [[j, hand.own_index(j)] for j in first]
        if self._is_past(number - 1):
            self._send("final", number, {"commit": hand.commitment, "open": own})
        else:  # its six go once the hand before is over here ("own"): none is read while it is played
            self._send("final", number, {"commit": hand.commitment})
            self._withheld.append([number, "own", {"open": own}])
        if (number, "masks") in self.deferred:  # not worked out ahead: made now
            self.deferred.remove((number, "masks"))
        masked = hand.masked_part(head)  # its own six, masked: additions only
        self._send("head", number, {"deck": masked, "roots": hand.masked_roots})
        self.deferred.insert(0, (number, "unmask"))  # while seat 0 works on its openings
        if number > 1:  # sealed while the hand before is played: its proof checked now, meanwhile
            self.deferred.insert(1, (number, "check"))

    def _is_past(self, number: int) -> bool:
        """True once hand ``number`` is over on this side (both its seeds checked), or for no hand."""
        return number < 1 or number in self.joints

    def _send_after(self, number: int, step: str, fields: dict) -> None:
        """Send a message of hand ``number`` that opens cards, or hold it back (and any after it of
        that hand) until the hand before is over on this side (``_release``)."""
        if self._is_past(number - 1) and not any(entry[0] == number for entry in self._withheld):
            self._send(step, number, fields)
        else:
            self._withheld.append([number, step, fields])

    def _release(self, number: int) -> None:
        """The hand before hand ``number`` is over here: the openings of hand ``number`` held back
        go now, in order (neither side reads a card of the next hand while this one is played)."""
        for entry in [entry for entry in self._withheld if entry[0] == number]:
            self._withheld.remove(entry)
            self._send(entry[1], number, entry[2])

    def _on_final(self, number: int, message: dict) -> None:
        hand = self.hands.get(number)
        if self.me != 0 or hand is None or hand.first is None or hand.final is not None:
            raise self._fail(f"@ sent a shuffle of hand {number} out of turn.")
        opens = message.get("open")
        if opens is not None:
            self._check_own(number, opens)
        hand.take_final(message.get("commit"))
        if opens is not None:
            self._read_own_six(number, opens)

    def _on_own(self, number: int, message: dict) -> None:
        hand = self.hands.get(number)
        if self.me != 0 or hand is None or hand.final is None:
            raise self._fail(f"@ opened your cards of hand {number} out of turn.")
        self._check_own(number, message.get("open"))
        self._read_own_six(number, message["open"])

    def _check_own(self, number: int, opens: object) -> None:
        """Seat 1's openings of this side's six by index: their shape, checked before any is read."""
        positions = self._parts(number)[0]
        if not isinstance(opens, list) or not all(isinstance(o, list) and len(o) == 2 for o in opens):
            raise self._fail("@'s openings are damaged.")
        if not all(type(o[0]) is int for o in opens) or sorted(o[0] for o in opens) != positions:
            if self.ready.get(number):  # read from the reply: the same openings, or the reply lied
                raise self._fail("@ opened your cards in this hand otherwise than in the reply.")
            if all(type(o[0]) is int and o[0] in positions for o in opens):
                raise self._fail("@ did not open all of your cards.")
            raise self._fail("@ opened a card it may not open now.")

    def _read_own_six(self, number: int, opens: list) -> None:
        hand = self.hands[number]
        if self.ready.get(number):  # read from the reply: the same openings, or the reply lied
            if not all(hand.is_own_index(position, index) for position, index in opens):
                raise self._fail("@ opened your cards in this hand otherwise than in the reply.")
            return
        for position, index in opens:
            hand.read_own(position, index)
        self._hand_ready(number)

    def _on_head(self, number: int, message: dict) -> None:
        hand = self.hands.get(number)
        head = self._parts(number)[1]
        if self.me != 0 or hand is None or hand.final is None or head[0] in hand.final:
            raise self._fail(f"@ sent the cards of hand {number} out of turn.")
        hand.take_part(message.get("deck"), head, masked=True, roots=message.get("roots"))
        opens = hand.open_masked()
        self._send_after(number, "open", {"open": opens, "roots": hand.open_roots})
        self.deferred.insert(0, (number, "proof"))  # next, in work(), and before its first move

    def _on_open(self, number: int, message: dict) -> None:
        hand = self.hands.get(number)
        if self.me != 1 or hand is None or hand.final is None or self.ready.get(number) \
                or any(j not in hand.final for j in self._parts(number)[1]):
            raise self._fail(f"@ opened cards of hand {number} out of turn.")
        positions = hand_positions(1, self.dealer_of(number))
        if (number, "unmask") in self.deferred:  # not worked out yet: read takes the masks off itself
            self.deferred.remove((number, "unmask"))
        try:
            read = self._read_opens(hand, message.get("open"), positions, message.get("roots"))
        except SealError:
            self._check_shuffle(number)  # a deck that is not the cards is said as such, whatever the card
            raise
        if sorted(read) != positions:
            raise self._fail("@ did not open all of your cards.")
        hand.take_opened(message["open"])
        if number == 1:  # the first hand: its proof checked once its cards are read (they come sooner),
            self.deferred.append((number, "check"))  # before anything is sent on them
        self.deferred.append((number, "rest"))
        self._hand_ready(number)

    def _on_proof(self, number: int, message: dict) -> None:
        hand = self.hands.get(number)
        if self.me != 1 or hand is None or not self.ready.get(number) or hand.proved:
            raise self._fail(f"@ sent a proof for hand {number} out of turn.")
        hand.take_proof(message.get("proof"))
        if number in self._rest_held:
            self._rest_held.remove(number)
            self._send("rest", number, {"deck": hand.final_part(self._parts(number)[2])})

    def _on_rest(self, number: int, message: dict) -> None:
        hand = self.hands.get(number)
        first, head, rest = self._parts(number)
        if self.me != 0 or hand is None or hand.final is None or len(hand.final) != len(head):
            raise self._fail(f"@ sent the rest of hand {number}'s deck out of turn.")
        hand.take_part(message.get("deck"), rest)
