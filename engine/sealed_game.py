"""One side of a sealed friend game: the game as this side may know it, and the messages that seal every hand.

Each hand is dealt from a sealed deck (``engine/sealed.py``), so this side knows its own cards,
the starter once both have discarded, and the other side's cards as they are laid; nothing
else until the end of the hand. The game itself is ``engine.game``'s, on a deal that holds
every card this side knows where it is and, for the other side's unseen cards, stand-ins
chosen to agree with all it has done (the lowest cards it could still hold, above what its
goes rule out). The stand-ins are never shown: the table shows that side's cards face down.
When the play is over both sides reveal their seeds for the hand; the real deal replaces the
stand-ins, every move of the hand is checked again on it (a go said while holding a card
that could be laid is found here) and the show is counted on the real cards.

Messages (JSON objects, each with ``"s"``: its step, and ``"k"``: the hand number):

- ``deck`` (seat 0): ``{"commit", "deck", "unlock", "shuffle"}``, its shuffle of the deck, locked,
  the point that takes seat 1's masks off (``U``) and the proof that the deck holds each card once
  under one lock (``engine/shuffle_proof.py``: seat 1 checks it before it sends the rest of its
  deck or a move of the hand, so whether it goes on never depends on the cards it read);
- ``final`` (seat 1): ``{"commit", "open"}``, the commitment of its shuffle, and seat 0's six
  cards opened by index (``open``: ``[[position, index of seat 0's deck], ...]``); for a hand
  sealed while the one before it is played, without ``open``, which follows in ``own`` (seat 1):
  ``{"open"}`` once that hand is over on seat 1's side;
- ``head`` (seat 1, with the final): ``{"deck"}``, its deck at its own six positions, in order,
  masked;
- ``open`` (seat 0, on the head, or once the hand before is over on its side): ``{"open"}``,
  opening seat 1's six cards. So neither page holds a card of the next hand, its own included,
  while a hand is played;
- ``proof`` (seat 0, next, always before its first move of the hand): ``{"proof"}``, the proof
  that those openings are right (``sealed.prove_openings``); seat 1 checks it as it comes, and
  sends nothing more in the hand before (its rest waits for it);
- ``rest`` (seat 1, once it has read its cards): ``{"deck"}``, the rest of its deck (seat 0's six
  positions, the starter's, then ``sealed.REST``), always sent before its first move of the hand;
- ``act``: ``{"n", "a", "open"}``, a move (its place in the hand, the action) with the openings
  it shows: a card laid opens its own position; seat 1's discard opens its part of the starter
  (a discard's cards are never sent: ``"a": {"type": "discard"}``);
- ``starter`` (seat 0, on seat 1's discard): ``{"open"}``, its part of the starter;
- ``go``: ``{"i", "at"}``, the i-th time in the hand this side could not lay a card (a go, or
  the last card of a count that it could not follow), with ``at`` cards laid;
- ``reveal``: ``{"seed", "discard"}``, this side's seed of the hand and the cards it discarded,
  once the play is over (or the game is);
- ``secret`` (once the game is over): ``{"secret"}``, the side's own secret, from which each of
  its hand seeds follows (``seeds.own_seed``), checked against the commitment in its first
  message. The finished game's seed is then ``"sealed:<a>:<b>:<secret 0>:<secret 1>"`` (or
  ``"sealed2:..."``: ``engine/sealed_exchange.py``; ``seeds.hand_seed``): its code replays and checks like any other
  game's.

How each hand is sealed (its first six messages, the early first hand, the shuffles run by
``work()``) is ``engine/sealed_exchange.py``'s, which ``SealedGame`` builds on.
"""

from engine import fairdeal
from engine.cards import VALUE_OF
from engine.fairdeal import DECK_SIZE, Deal
from engine.game import PERSON, GameState, IllegalActionError, new_game
from engine.seeds import HAND_CARDS, SEALED_EARLY_PREFIX, SEALED_PREFIX, cut_seed, own_seed
from engine.scoring import MAX_COUNT
from engine.sealed import SealError
from engine.sealed_exchange import STARTER, HandSealing, hand_positions

FORMAT = "cribbage-sealed-2"
STEPS = ("deck", "final", "own", "head", "open", "proof", "rest", "act", "starter", "go", "reveal", "secret")
PLAY_CARDS = 8  # cards laid in a two-player hand's play
MAX_EARLY = 32
"""Moves of the other side this side holds before it reaches them (a hand has fewer): the other
side can be a hand ahead only once this side has revealed its own, so no more can be owed."""


def without_roots(message: dict) -> dict:
    """A message as a game keeps it: without the decoding roots of its points, which only spare
    the receiver work (``sealed.roots_text``); a game taken up again decodes its points itself."""
    return message if "roots" not in message else {key: value for key, value in message.items() if key != "roots"}


def as_sent(message: dict) -> dict:
    """A message this side sent, as it keeps it to send again: without roots, nor the proof of
    its deck, which it makes again if it is ever asked for (``with_proof``)."""
    return {key: value for key, value in message.items() if key not in ("roots", "shuffle")}


def public_seed(inviter_secret: str, friend_secret: str, early: bool = False) -> str:
    """A sealed game's seed while it is played (its cut follows from it; its hands do not);
    ``early``: the inviter's first six come in the reply (``seeds.SEALED_EARLY_PREFIX``)."""
    return (SEALED_EARLY_PREFIX if early else SEALED_PREFIX) + inviter_secret + ":" + friend_secret


def full_seed(public: str, secret_0: str, secret_1: str) -> str:
    """A finished sealed game's seed, from which every hand follows (``seeds.hand_seed``)."""
    return public + ":" + secret_0 + ":" + secret_1


def _deck_deal(deck: list, dealer: int) -> Deal:
    """A two-player deal of a deck in position order: the pone's six, the dealer's, the starter."""
    hands = [[], []]
    hands[1 - dealer] = deck[0:HAND_CARDS]
    hands[dealer] = deck[HAND_CARDS:2 * HAND_CARDS]
    return Deal(hands, [], deck[STARTER], deck, "", 2, dealer)


def _unknown_deal(number: int, dealer: int) -> Deal:
    """The deck in its own order: it stands in for a hand not read yet (``preview``)."""
    return _deck_deal(list(range(DECK_SIZE)), dealer)


class _Dummy(Exception):
    """A hand's deal was asked for before this side could read its cards."""


class SealedGame(HandSealing):
    """One side of a sealed two-player friend game (see the module docstring).

    Every call may leave messages to send: read them with ``take_messages`` after each. The
    heavy work (a hand's shuffle) waits for ``work()``, which the caller runs once the messages
    are sent. ``state`` is None until this side has read its first hand.
    """

    def __init__(self, me: int, names: list, target: int, muggins: bool, public: str, secret: str,
                 seal_commitments: list, opens: "list | None" = None) -> None:
        """``public``: the game's public seed (``public_seed``); ``secret``: this side's own;
        ``seal_commitments``: both sides' commitments to their own secrets, by seat; ``opens``
        (seat 0 of an early game): the reply's openings of its first six (``seeds.reply_opens``),
        read at once."""
        self.me = me
        self.other = 1 - me
        self.names = list(names)
        self.target = target
        self.muggins = muggins
        self.public = public
        self.secret = fairdeal.parse_seed(secret)
        self.seal_commitments = list(seal_commitments)
        self.outbox: list = []
        self.events: list = []  # the game's events since take_events, for the table
        self.hands: dict = {}  # hand number -> this side's SealedHand
        self.ready: dict = {}  # hand number -> True once this side has read its six cards
        self.joints: dict = {}  # hand number -> the checked joint seed of a finished play
        self.done: list = []  # the finished hands' actions, real
        self.moves: list = []  # this hand's moves: [seat, action]; the other's discard as None
        self.pending: list = []  # moves held back ([seat, action]), for the reason in ``hold``
        self.hold = None  # "starter", "reveal" (the play's last card) or "deal" (the next hand's)
        self.limits = [0, 0]  # by seat: the values a seat's unseen cards must be above (its goes)
        self.goes = [0, 0]  # by seat: goes in this hand, as this side's game has them
        self.goes_sent = 0
        self.hand_said = 0  # events of this hand's moves given to the table so far
        self.revealed = None  # the other side's reveal for this hand
        self.reveal_sent = False
        self.secret_sent = False
        self.their_secret = None
        self.final: "GameState | None" = None  # the finished game, checked, from its full seed
        self.state: "GameState | None" = None
        self.early: list = []  # moves of a hand this side has not reached yet, in order
        self.deferred: list = []  # heavy steps waiting for work(): (hand number, what), what being
        # None (seat 0's shuffle), "proof" (of its openings of seat 1's six), "masks" (seat 1's
        # masks for its six, made ahead), "unmask" (their removal, made while seat 0 opens them)
        # or "rest" (the rest of seat 1's deck)
        self._fill: dict = {}  # hand number -> (deck, the other side's stand-in discard)
        self._rest_held: list = []  # seat 1: hands whose rest is made, waiting for the proof
        self._withheld: list = []  # [hand number, step, fields]: openings of a hand held back while
        # the hand before it is played (``_send_after``)
        self._first_dealer = fairdeal.cut_for_deal(cut_seed(public), 2).dealer
        self.first_hand = 1  # the hand this object's log starts at (``to_dict``)
        self.log: list = []  # this side's calls since then: ["r" | "a" | "w", hand number, message or action]
        self.replaying = False  # the calls of the log being made again (from_dict)
        self.opens = list(opens) if opens is not None else None
        self._seal(1)
        self._open_early()

    # --- facts -----------------------------------------------------------------------------

    def view(self) -> "dict | None":
        """This side's view of the game (``GameState.view``): the other side's cards never show
        as dealt until this hand's seeds have been checked (until then the game holds stand-ins)."""
        if self.state is None:
            return None
        view = self.state.view(self.me)
        if view["revealed"] is not None and self.state.hand_number not in self.joints:
            view["revealed"] = None
        return view

    def told(self) -> list:
        """Every event of the game so far as this side's game has it (its start, then each move,
        the other side's unseen cards stood in for): what the table has said, for its log after
        a reload (``GameState.apply``'s events: give the table only the seat's own)."""
        if self.state is None:
            return []
        state = self._new_state(self._deal_for)
        events = list(state.start_events)
        for action in self.done:
            events += state.apply(dict(action))
        for seat, action in self.moves:
            events += state.apply(self._action(seat, action))
        return events

    def take_events(self) -> list:
        """The game's events since the last call (``GameState.apply``'s, as this side's game has
        them: give the table only the seat's own, ``game.events_for``)."""
        out, self.events = self.events, []
        return out

    def _keep(self, kind: str, number: int, item) -> None:
        if number >= self.first_hand:  # a call that closed its hand is part of the finished hand
            self.log.append([kind, number, item])

    def _hand_ready(self, number: int) -> None:
        self.ready[number] = True
        if self.state is None and number == self.first_hand:
            self._rebuild()
            self.events.extend(self.state.start_events)
        self._after()

    def hand_number(self) -> int:
        """The hand being played (before its cards are read, the first this side has not finished)."""
        return self.state.hand_number if self.state is not None else self.first_hand

    # --- the deal this side knows ----------------------------------------------------------

    def _deal_for(self, number: int, dealer: int) -> Deal:
        if number in self.joints:
            return fairdeal.deal(self.joints[number], 2, dealer)
        if not self.ready.get(number):
            raise _Dummy()
        return _deck_deal(self._stand_ins(number, dealer)[0], dealer)

    def _stand_ins(self, number: int, dealer: int) -> tuple:
        """This hand's deck as this side knows it, the other side's unseen cards stood in for."""
        if number in self._fill:
            return self._fill[number]
        known = dict(self.hands[number].read_cards)
        unseen = [j for j in hand_positions(self.other, dealer) if j not in known]
        used = set(known.values())
        pool = sorted((c for c in range(DECK_SIZE) if c not in used), key=lambda c: (VALUE_OF[c], c))
        held = len(unseen) - 2  # the other side's discards are two of its unseen cards
        above = [c for c in pool if VALUE_OF[c] > self.limits[self.other]][:held]
        if len(above) < held:
            raise self._fail("@'s goes cannot all be true with the cards left.")
        rest = [c for c in pool if c not in above]
        discard = rest[-2:]
        rest = rest[:-2]
        deck = [known.get(j) for j in range(DECK_SIZE)]
        for j, card in zip(unseen, above + discard):
            deck[j] = card
        for j in range(DECK_SIZE):
            if deck[j] is None:
                deck[j] = rest.pop()
        self._fill[number] = (deck, sorted(discard))
        return self._fill[number]

    def _action(self, seat: int, action: "dict | None") -> dict:
        if action is None:  # the other side's discard, before its reveal
            action = {"type": "discard", "cards": self._stand_ins(self.state.hand_number, self.state.dealer)[1]}
        move = dict(action)
        move["seat"] = seat
        return move

    def _count_goes(self, events: list) -> None:
        """Count the times the game found a seat unable to lay a card: its goes, and the go
        pegged by the seat that laid the last card and could not go on."""
        for event in events:
            if event["type"] == "go" or event["type"] == "score" and event["reason"] == "go":
                self.goes[event["seat"]] += 1
            elif event["type"] == "deal":
                self.goes = [0, 0]

    def _new_state(self, deal_source) -> GameState:
        """The game from its start, each hand dealt by ``deal_source(number, dealer)``."""
        return new_game(seed=self.public, target=self.target, muggins=self.muggins, players=2,
                        seats=[PERSON, PERSON], names=self.names, deal_source=deal_source)

    def preview(self) -> "GameState | None":
        """Before this side has read its first hand (``state`` is None): the game at that hand's
        deal, on a deck that is not the hand's (only its cut, its dealer and the cards' count are
        real), so the table can show the cut and the deal face down while the deck is sealed."""
        if self.state is not None or self.first_hand != 1:
            return None
        return self._new_state(_unknown_deal)

    def _rebuild(self) -> list:
        """The game replayed on the deals as now known: the events of this hand's moves."""
        self._fill.pop(self.hand_number(), None)
        state = self._new_state(self._deal_for)
        for action in self.done:
            state.apply(dict(action))
        self.state = state
        self.goes = [0, 0]
        events = []
        for seat, action in self.moves:
            if state.to_act != seat:
                raise SealError(f"{self.names[seat]}'s moves in hand {state.hand_number} do not fit the cards dealt.")
            try:
                events += state.apply(self._action(seat, action))
            except IllegalActionError as error:
                raise SealError(f"{self.names[seat]}'s moves in hand {state.hand_number} do not fit the cards "
                                f"dealt: {error}.") from None
        self._count_goes(events)
        return events

    # --- moves -----------------------------------------------------------------------------

    def _apply(self, seat: int, action: "dict | None") -> bool:
        """Apply a move now if the deal it leads to is known; False if it is held back."""
        number = self.state.hand_number
        self.moves.append([seat, action])
        try:
            events = self.state.apply(self._action(seat, action))
        except _Dummy:
            self.moves.pop()
            self.pending.insert(0, [seat, action])
            self.hold = "deal"
            self._rebuild()
            return False
        self.events.extend(events)
        self.hand_said += len(events)
        if self.state.hand_number != number:  # the hand is over: its moves are settled
            self.done.extend(dict(a) for a in self.state.history[-1]["actions"])
            self.first_hand = self.state.hand_number
            self.log = [entry for entry in self.log if entry[1] >= self.first_hand]
            self.moves = []
            self.hand_said = 0
            self.limits = [0, 0]
            self.goes_sent = 0
            self.revealed = None
            self.reveal_sent = False
            self.hands.pop(number, None)
        self._count_goes(events)
        self._tell_goes()
        return True

    def _tell_goes(self) -> None:
        while self.goes_sent < self.goes[self.me]:
            self.goes_sent += 1
            self._send("go", self.state.hand_number, {"i": self.goes_sent, "at": len(self.state.laid)})

    def _laid_count(self) -> int:
        return len(self.state.laid) + (1 if self.hold == "reveal" else 0)

    def _may_go_on(self) -> bool:
        number = self.state.hand_number
        if self.hold == "starter":
            return STARTER in self.hands[number].read_cards
        if self.hold == "reveal":
            return number in self.joints
        if self.hold == "deal":
            return bool(self.ready.get(number + 1))
        return True

    def act(self, action: dict) -> None:
        """This side's move (an action from ``state.legal_actions()``); IllegalActionError if it
        is not one, SealError if the game cannot go on."""
        number = self.hand_number()
        self._act(action)
        self._keep("a", number, action)

    def _act(self, action: dict) -> None:
        state = self.state
        if state is None or state.is_over or state.to_act != self.me or self.pending:
            raise IllegalActionError("it is not your move")
        if not isinstance(action, dict):
            raise IllegalActionError("a move is an action object")
        move = dict(action)
        move.pop("seat", None)
        if move.get("type") == "discard" and isinstance(move.get("cards"), list):
            move["cards"] = sorted(move["cards"])
        if move not in state.legal_actions():
            raise IllegalActionError("that move is not legal now")
        number = state.hand_number
        hand = self.hands[number]
        if (number, "proof") in self.deferred:  # seat 0: the proof of its openings before its first move
            self.deferred.remove((number, "proof"))
            self._send("proof", number, {"proof": hand.proof()})
        fields = {"n": len(self.moves), "a": {"type": "discard"} if move["type"] == "discard" else move}
        if self.me == 1:
            self._send_rest(number)  # seat 0's own cards are in it: it opens them when it lays them
        if move["type"] == "discard" and self.me == 1:
            fields["open"] = self._opens(hand, [STARTER])
            self._send("act", number, fields)
            self.pending, self.hold = [[self.me, move]], "starter"
            return
        if move["type"] == "play":
            position = next(j for j in hand.read_cards if hand.read_cards[j] == move["card"])
            fields["open"] = self._opens(hand, [position])
            self._send("act", number, fields)
            if len(state.laid) + 1 == PLAY_CARDS:
                self.pending, self.hold = [[self.me, move]], "reveal"
                self._reveal()
                return
        else:
            self._send("act", number, fields)
        self._apply(self.me, move)
        self._after()

    def _after(self) -> None:
        """Apply held moves that can now go on, this side's forced cards, the reveals when due."""
        while self.pending and self._may_go_on():
            seat, action = self.pending.pop(0)
            self.hold = None
            if not self._apply(seat, action):
                return
        state = self.state
        if state is None or self.pending:
            return
        if self.early and self.early[0]["k"] == state.hand_number:
            self._take(self.early.pop(0))  # which comes back here for the next
            return
        if state.is_over:
            self._reveal()
            if not self.secret_sent:
                self.secret_sent = True
                self._send("secret", state.hand_number, {"secret": self.secret})
            self._check_game()
            return
        if state.to_act == self.me and state.phase == "play":
            legal = state.legal_actions()
            if len(legal) == 1:
                self._act(legal[0])

    def _reveal(self) -> None:
        if self.reveal_sent:
            return
        number = self.state.hand_number
        mine = next((a["cards"] for s, a in self.moves + self.pending if s == self.me and a["type"] == "discard"),
                    None)
        self.reveal_sent = True
        self._send_rest(number)
        self._send("reveal", number, {"seed": self.hands[number].seed, "discard": mine})
        self._check_hand()

    # --- what the other side sends ---------------------------------------------------------

    def receive(self, message: object) -> None:
        """A message from the other side; SealError if it breaks the game (which then stops)."""
        self._receive(message)
        self._keep("r", message["k"], without_roots(message))

    def _receive(self, message: object) -> None:
        if not isinstance(message, dict) or message.get("s") not in STEPS or type(message.get("k")) is not int:
            raise SealError("The message is of no known kind.")
        step, number = message["s"], message["k"]
        if step == "deck":
            self._on_deck(number, message)
        elif step == "final":
            self._on_final(number, message)
        elif step == "own":
            self._on_own(number, message)
        elif step == "open":
            self._on_open(number, message)
        elif step == "head":
            self._on_head(number, message)
        elif step == "proof":
            self._on_proof(number, message)
        elif step == "rest":
            self._on_rest(number, message)
        elif step == "secret":
            self._on_secret(message)
        elif self.early or self.state is None or number > self.state.hand_number or self.hold == "deal":
            current = self.hand_number()
            if number < current or number > current + 1:
                raise self._fail(f"@ sent a move of hand {number} during hand {current}.")
            if number > current and not (self.reveal_sent or self.hold == "deal"):
                raise self._fail(f"@ sent a move of hand {number} before hand {current} was over.")
            if len(self.early) >= MAX_EARLY:
                raise self._fail("@ sent more moves ahead of this side than a hand holds.")
            self.early.append(message)
        else:
            self._take(message)

    def _take(self, message: dict) -> None:
        if message["k"] != self.state.hand_number:
            raise self._fail(f"@ sent a move of hand {message['k']} during hand {self.state.hand_number}.")
        {"act": self._on_act, "starter": self._on_starter, "go": self._on_go,
         "reveal": self._on_reveal}[message["s"]](message)

    def _on_act(self, message: dict) -> None:
        state, other = self.state, self.other
        number = state.hand_number
        hand = self.hands[number]
        action = message.get("a")
        if message.get("n") != len(self.moves) or not isinstance(action, dict):
            raise self._fail("@'s move does not follow the game as this side has it.")
        if other == 1 and not hand.has_whole_deck():
            raise self._fail("@ moved before sending the whole deck for this hand.")
        if state.is_over or state.to_act != other or self.pending:
            raise self._fail("It is not @'s turn, so their move cannot be taken.")
        kind = action.get("type")
        if kind == "discard":
            if state.phase != "discard" or sorted(action) != ["type"]:
                raise self._fail("@'s discard is not one.")
            if other == 1:
                self._read_opens(hand, message.get("open"), [STARTER])
                self._send("starter", number, {"open": self._opens(hand, [STARTER])})
                self._seal(number + 1)
                self._rebuild()
            self._apply(other, None)
        elif kind == "play":
            card = action.get("card")
            allowed = [j for j in hand_positions(other, state.dealer) if j not in hand.read_cards]
            opened = self._read_opens(hand, message.get("open"), allowed)
            if list(opened.values()) != [card] or state.phase != "play":
                raise self._fail("@ laid a card other than the one it opened.")
            if state.count() + VALUE_OF[card] > MAX_COUNT:
                raise self._fail(f"@ laid a card that takes the count past {MAX_COUNT}.")
            if VALUE_OF[card] <= self.limits[other]:
                raise self._fail("@ said go earlier in this hand while holding this card.")
            if card not in state.held[other]:
                self._rebuild()
            if len(self.state.laid) + 1 == PLAY_CARDS:
                self.pending, self.hold = [[other, {"type": "play", "card": card}]], "reveal"
                self._reveal()
                return
            self._apply(other, {"type": "play", "card": card})
        elif kind in ("claim", "count"):
            try:
                self._apply(other, action)
            except IllegalActionError as error:
                self.moves.pop()
                raise self._fail(f"@'s move was refused: {error}.") from None
        else:
            raise self._fail("@'s move is of no known kind.")
        self._after()

    def _on_starter(self, message: dict) -> None:
        hand = self.hands[self.state.hand_number]
        if self.me != 1 or self.hold != "starter" or STARTER in hand.read_cards:
            raise self._fail("@ opened the starter out of turn.")
        self._read_opens(hand, message.get("open"), [STARTER])
        self._seal(self.state.hand_number + 1)
        self._rebuild()
        self._after()

    def _on_go(self, message: dict) -> None:
        state, other = self.state, self.other
        ordinal = message.get("i")
        if type(ordinal) is not int or ordinal < 1 or ordinal > self.goes[other] + 1:
            raise self._fail("@'s go does not fit the game as this side has it.")
        if ordinal <= self.goes[other]:
            return  # this side's game has that go already
        if message.get("at") != len(state.laid) or state.phase != "play" or state.to_act != other or self.pending:
            raise self._fail("@'s go does not fit the game as this side has it.")
        self.limits[other] = max(self.limits[other], MAX_COUNT - state.count())
        events = self._rebuild()  # the go, and what follows from it (one for the go, the count again from zero)
        self.events.extend(events[self.hand_said:])
        self.hand_said = max(self.hand_said, len(events))
        if self.goes[other] < ordinal:
            raise self._fail("@ said go holding a card this side knows could be laid.")
        self._tell_goes()
        self._after()

    def _on_reveal(self, message: dict) -> None:
        if self.revealed is not None:
            raise self._fail(f"@ revealed hand {self.state.hand_number} twice.")
        if not (self.reveal_sent or self.hold == "reveal" or self.state.is_over):
            raise self._fail(f"@ revealed hand {self.state.hand_number} before its play was over.")
        self.revealed = message
        self._check_hand()

    def _check_hand(self) -> None:
        """Once both seeds of the hand are out: check the other side's work and go on with the real deal."""
        if self.revealed is None or not self.reveal_sent:
            return
        number = self.state.hand_number
        joint = self.hands[number].check(self.revealed.get("seed"))
        theirs = list(fairdeal.deal(joint, 2, self.state.dealer).hands[self.other])
        discard = self.revealed.get("discard")
        discarded = any(s == self.other and a is None for s, a in self.moves)
        if discarded and (not isinstance(discard, list) or len(discard) != 2 or discard[0] == discard[1]
                          or not all(type(c) is int and c in theirs for c in discard)):
            raise self._fail(f"@'s discard in hand {number} is not two cards of its hand.")
        self.joints[number] = joint
        self._release(number + 1)  # the next hand's openings, held back while this one was played
        self.moves = [[s, a if a is not None else {"type": "discard", "cards": sorted(discard)}]
                      for s, a in self.moves]
        self._rebuild()
        for seat, _ in self.pending:
            if self.state.to_act != seat:
                raise SealError(f"{self.names[seat]}'s moves in hand {number} do not fit the cards dealt.")
        self._after()

    def _on_secret(self, message: dict) -> None:
        secret = message.get("secret")
        if self.their_secret is not None or not fairdeal.is_normal_seed(secret) \
                or fairdeal.commitment(secret) != self.seal_commitments[self.other]:
            raise self._fail("@'s secret does not match the commitment it sent at the start.")
        self.their_secret = secret
        self._check_game()

    def _check_game(self) -> None:
        """Once the game is over and both secrets are out: every hand's seed must follow from its
        side's secret, and the game from its full seed must be this one."""
        state = self.state
        if (self.their_secret is None or state is None or not state.is_over or not self.secret_sent
                or self.final is not None or state.hand_number not in self.joints):
            return
        for number in sorted(self.joints):
            if own_seed(self.public, self.other, self.their_secret, number) != self.joints[number].split(":")[self.other]:
                raise self._fail(f"@'s seed for hand {number} does not follow from its secret.")
        secrets = [self.secret, self.their_secret] if self.me == 0 else [self.their_secret, self.secret]
        game = new_game(seed=full_seed(self.public, secrets[0], secrets[1]), target=self.target,
                        muggins=self.muggins, players=2, seats=[PERSON, PERSON], names=self.names)
        for action in self.done + [a for _, a in self.moves]:
            game.apply(dict(action))
        if game.scores != state.scores or not game.is_over:
            raise self._fail("The game from both secrets is not the game played.")
        self.final = game

    # --- keeping the game on the device ----------------------------------------------------

    def with_proof(self, message: dict) -> dict:
        """A message this side kept (``as_sent``), to send again: a deck of a hand still sealed with
        its proof, made again (the same proof: its secrets come from the hand's seed)."""
        if message.get("s") != "deck" or "shuffle" in message or message.get("k") not in self.hands:
            return message
        return dict(message, shuffle=self.hands[message["k"]].shuffle_text())

    def to_dict(self) -> dict:
        """The game as this side keeps it (JSON-ready; it holds this side's secret: never send
        it): the finished hands' moves and checked seeds, and this side's calls since."""
        return {"format": FORMAT, "me": self.me, "names": list(self.names), "target": self.target,
                "muggins": self.muggins, "public": self.public, "secret": self.secret,
                "seals": list(self.seal_commitments), "done": [dict(a) for a in self.done],
                "joints": [[k, self.joints[k]] for k in sorted(self.joints) if k < self.first_hand],
                "first_hand": self.first_hand, "log": [list(entry) for entry in self.log],
                "opens": self.opens}


def from_dict(data: object) -> SealedGame:
    """A game kept by ``to_dict``, its calls made again (nothing is sent); SealError or
    ValueError if it is not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SealError("This is not a sealed friend game kept on this device.")
    try:
        game = SealedGame(data["me"], data["names"], data["target"], data["muggins"], data["public"],
                          data["secret"], data["seals"], data.get("opens"))
        game.hands, game.deferred, game.ready, game.state, game._withheld = {}, [], {}, None, []
        game.done = [dict(a) for a in data["done"]]
        game.joints = {k: joint for k, joint in data["joints"]}
        game.first_hand = data["first_hand"]
        game._seal(game.first_hand)
        game._open_early()
        game.replaying = True
        for kind, _, item in data["log"]:
            if kind == "r":
                game.receive(item)
            elif kind == "a":
                game.act(item)
            else:
                game._work_whole()
    except (KeyError, TypeError, IllegalActionError, IndexError):
        raise SealError("This sealed friend game is damaged.") from None
    game.replaying = False
    game.outbox, game.events = [], []
    return game
