"""Sealed friend games: whole games between two engine instances, what each side can read, and cheats caught."""

import json
from binascii import hexlify

import pytest

from engine import fairdeal, ristretto, sealed, share
from engine.cards import RANK_OF
from engine.fairdeal import Sfc32
from engine.seeds import derive_seed
from engine.record import replay_moves
from engine.sealed import SealedHand, SealError
from engine.sealed_game import SealedGame, from_dict, full_seed, public_seed

NAMES = ["Ann", "Bob"]


def _pair(seed, target=61, muggins=False, secrets=None):
    a, b = derive_seed(seed, "a"), derive_seed(seed, "b")
    own = secrets or [derive_seed(seed, "s0"), derive_seed(seed, "s1")]
    commits = [fairdeal.commitment(s) for s in own]
    pub = public_seed(a, b)
    return [SealedGame(seat, NAMES, target, muggins, pub, own[seat], commits) for seat in (0, 1)], own


def play(seed, target=61, muggins=False, tamper=None, choose=None, until=None, reload_every=0, lazy=False):
    """Play a whole sealed game between two sides by messages (JSON text, as on the wire).

    ``tamper(sender, message)`` may change a message before it is delivered (None: it is lost);
    ``choose(side, legal)`` picks a move (default: a seeded random one); ``until(log)`` stops
    early; ``lazy``: the sides move before they work (the shuffles only when nobody can move). Returns the
    sides and the log of (sender, message) in delivery order.
    """
    sides, _ = _pair(seed, target, muggins)
    rng = Sfc32(derive_seed(seed, "moves"))
    queues, log = [[], []], []
    for step in range(20000):
        moved = False
        for i in (0, 1):
            for message in sides[i].take_messages():
                if tamper is not None:
                    message = tamper(i, message)
                    if message is None:
                        continue
                queues[1 - i].append(json.loads(json.dumps(message)))
                log.append((i, message))
                moved = True
        if reload_every and step % reload_every == reload_every - 1:  # a page closed and opened again
            i = step // reload_every % 2
            sides[i] = from_dict(json.loads(json.dumps(sides[i].to_dict())))
        if until is not None and until(log):
            return sides, log
        for i in (0, 1):
            if queues[i]:
                sides[i].receive(queues[i].pop(0))
                moved = True
        if moved:
            continue
        if not lazy and (sides[0].work() or sides[1].work()):
            continue
        for i in (0, 1):
            state = sides[i].state
            if state is not None and not state.is_over and state.to_act == i and not sides[i].pending:
                legal = state.legal_actions()
                move = choose(i, legal) if choose is not None else None
                sides[i].act(move if move is not None else legal[rng.below(len(legal))])
                moved = True
                break
        if lazy and not moved and (sides[0].work() or sides[1].work()):
            continue
        if not moved:
            return sides, log
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed, target, muggins", [("one", 61, False), pytest.param("two", 121, False, marks=pytest.mark.slow),
                                                   ("three", 61, True)])
def test_a_whole_sealed_game_ends_the_same_on_both_sides_and_replays_from_its_code(seed, target, muggins):
    sides, _ = play(seed, target, muggins)
    ann, bob = sides
    assert ann.state.is_over and bob.state.is_over
    assert ann.state.scores == bob.state.scores and max(ann.state.scores) == target
    assert ann.final is not None and bob.final is not None
    assert ann.final.base_seed == bob.final.base_seed and ann.final.base_seed.count(":") == 4
    code = share.encode(ann.final)
    again = share.decode(code)
    assert again.scores == ann.state.scores and again.winner == ann.state.winner
    for hand in again.history + [{"seed": again.seed, "commitment": again.commitment}]:
        assert ":" in hand["seed"] and fairdeal.verify(hand["seed"], hand["commitment"])


def test_the_rest_of_each_deck_comes_before_its_reveal_even_when_the_sides_move_before_they_work():
    sides, log = play("lazy", 61, lazy=True)
    assert sides[0].final.to_json() == sides[1].final.to_json()
    steps = [(sender, m["s"], m["k"]) for sender, m in log]
    for number in range(1, sides[0].state.hand_number + 1):
        assert steps.index((1, "final", number)) < steps.index((1, "rest", number)) < steps.index((1, "reveal", number))


def test_a_move_without_the_rest_of_the_deck_is_refused():
    def tamper(sender, message):
        return None if sender == 1 and message["s"] == "rest" else message
    _refused(tamper, "Bob moved before sending the whole deck for this hand")


def test_a_game_kept_on_the_device_and_taken_up_again_goes_on_the_same():
    whole, _ = play("kept", 61)
    reloaded, _ = play("kept", 61, reload_every=31)
    assert reloaded[0].final.to_json() == whole[0].final.to_json()
    assert reloaded[1].final.to_json() == whole[1].final.to_json()
    kept = reloaded[0].to_dict()
    assert kept["first_hand"] == reloaded[0].state.hand_number and len(kept["log"]) < 60


def test_the_view_shows_the_other_hand_as_dealt_once_checked():
    sides, _ = play("stand-ins", 61)
    for side in sides:
        view = side.view()
        assert view["is_over"] and view["revealed"]["hands"] == side.final.view(side.me)["revealed"]["hands"]


def test_a_damaged_kept_game_gets_a_sentence():
    for data in (None, {}, {"format": "cribbage-sealed-2"}, {"format": "other"}):
        with pytest.raises(SealError, match="sealed friend game"):
            from_dict(data)


def test_a_sealed_hand_is_dealt_from_both_shuffles():
    a, b = "0" * 31 + "7", "0" * 31 + "9"
    ann, bob = SealedHand(0, a, "Bob"), SealedHand(1, b, "Ann")
    bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text())
    mine, theirs = list(range(6)), list(range(6, 12))
    ann.take_final(bob.commitment)  # her six by index: she reads them with no arithmetic
    deck = fairdeal.shuffled_deck(fairdeal.joint_seed(a, b))
    assert [ann.read_own(j, bob.own_index(j)) for j in mine] == deck[:6]
    assert bob.final == {}  # nothing locked for that
    ann.take_part(bob.masked_part(theirs), theirs, masked=True)  # his six, masked: additions only
    bob.unmask_step()
    assert [bob.read(j, ann.share(j)) for j in theirs] == deck[6:12]
    ann.take_part(bob.final_part([12]), [12])  # the starter, locked: both open it
    assert ann.read(12, bob.share(12)) == bob.read(12, ann.share(12)) == deck[12]
    with pytest.raises(SealError, match="before sending the whole deck"):
        ann.check(b)
    assert not bob.final_step() and len(bob.final) == 7 + sealed.CHUNK
    while not bob.final_step():
        pass
    assert ann.read(6, bob.share(6)) == deck[6]  # a card of his laid: its mask shown
    ann.take_part(bob.final_part(mine + sealed.REST), mine + sealed.REST)
    assert ann.check(b) == bob.check(a) == fairdeal.joint_seed(a, b)


def test_a_masked_card_tells_nothing_and_its_mask_comes_off_only_with_the_lock():
    a, b = "0" * 31 + "7", "0" * 31 + "9"
    ann, bob = SealedHand(0, a, "Bob"), SealedHand(1, b, "Ann")
    bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text())
    text = bob.masked_part([6])
    assert text not in ann.first_deck()  # not one of her locked cards: nothing to match it with
    card = fairdeal.shuffled_deck(fairdeal.joint_seed(a, b))[6]
    point = ristretto.decode(bytes.fromhex(text))
    unmasked = ristretto.add(point, ristretto.neg(ristretto.mul(sealed.mask_of(b, 6), ristretto.BASE)))
    assert ristretto.card_of(ristretto.mul(ristretto.inverse_scalar(sealed.lock_of(a)), unmasked)) == card


def test_a_point_for_the_masks_that_is_not_the_locks_is_refused():
    a, b = "0" * 31 + "7", "0" * 31 + "9"
    ann, bob = SealedHand(0, a, "Bob"), SealedHand(1, b, "Ann")
    with pytest.raises(SealError, match="came without the point that opens your cards"):
        bob.take_first(ann.first_deck(), ann.commitment, "00" * 31 + "01")
    forged = hexlify(ristretto.encode(ristretto.mul(12345, ristretto.BASE))).decode("ascii")
    bob.take_first(ann.first_deck(), ann.commitment, forged)
    ann.take_final(bob.commitment)
    ann.take_part(bob.masked_part([6]), [6], masked=True)
    with pytest.raises(SealError, match="Ann's opening of position 7 is not a card"):
        bob.read(6, ann.share(6))
    while not bob.final_step():
        pass
    with pytest.raises(SealError, match="Ann's key for this hand does not match the point it sent to open your cards"):
        bob.check(a)


def test_a_game_whose_first_shuffle_was_worked_out_ahead_is_taken_up_again_the_same():
    sides, own = _pair("ahead")
    sealed.prepare(derive_seed(own[0], 1))
    ahead, _ = _pair("ahead")
    assert ahead[0].work() and ahead[0].take_messages()  # one step: the deck was ready
    again = from_dict(json.loads(json.dumps(ahead[0].to_dict())))
    assert again.hands[1].first is not None and not again.deferred


def test_a_shuffle_worked_out_ahead_is_the_same_deck():
    seed = "0" * 31 + "5"
    made = SealedHand(0, seed, "Bob").first_deck()
    sealed.prepare(seed)
    ahead = SealedHand(0, seed, "Bob")
    assert ahead.first_step() and ahead.first_deck() == made
    assert not SealedHand(0, seed, "Bob").first_step()  # taken once: the next works it out again


def test_a_part_of_the_deck_cannot_repeat_a_card_or_a_position_sent_before():
    a, b = "0" * 31 + "7", "0" * 31 + "9"
    ann, bob = SealedHand(0, a, "Bob"), SealedHand(1, b, "Ann")
    bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text())
    head = list(range(sealed.HEAD))
    ann.take_final(bob.commitment)
    ann.take_part(bob.final_part(head), head)
    rest = bob.final_part(sealed.REST)
    with pytest.raises(SealError, match="Bob's deck holds the same sealed card twice"):
        ann.take_part(bob.final_part([0]) + rest[sealed.SHARE_HEX:], sealed.REST)
    with pytest.raises(SealError, match="Bob sent position 1 of the deck twice"):
        ann.take_part(bob.final_part([13]), [0])


def test_an_own_card_opened_twice_or_as_no_card_is_refused():
    ann, bob = SealedHand(0, "0" * 31 + "7", "Bob"), SealedHand(1, "0" * 31 + "9", "Ann")
    bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text())
    ann.take_final(bob.commitment)
    ann.read_own(0, bob.own_index(0))
    with pytest.raises(SealError, match="Bob opened the same card twice"):
        ann.read_own(1, bob.own_index(0))
    for index in (52, -1, "3", None):
        with pytest.raises(SealError, match="Bob's opening of position 2 is not a card"):
            ann.read_own(1, index)


def test_no_card_is_sent_in_clear_before_the_rules_show_it():
    sides, log = play("secrecy", 61)
    plain = {hexlify(ristretto.encode(p)).decode("ascii") for p in ristretto.CARD_POINTS}
    for sender, message in log:
        text = json.dumps(message)
        assert not any(point in text for point in plain)
    for sender, message in log:  # by hand: cards named in clear before the sender's reveal
        if message["s"] == "act" and message["a"]["type"] == "play":
            assert message["a"]["card"] in [c for s, c in _laid_in(sides, message["k"]) if s == sender]
        if message["s"] == "act" and message["a"]["type"] == "discard":
            assert message["a"] == {"type": "discard"}


def _laid_in(sides, number):
    laid = []
    for move in replay_moves(sides[0].final):
        if move.game.hand_number == number and move.action["type"] == "play":
            laid.append((move.game.to_act, move.action["card"]))
    return laid


def test_each_side_reads_only_its_own_cards_and_the_starter_before_the_play():
    def before_first_card(log):
        return any(m["s"] == "act" and m["a"]["type"] == "play" for _, m in log)
    sides, _ = play("reading", 61, until=before_first_card)
    ann, bob = sides
    for me in (ann, bob):
        hand = me.hands[1]
        mine = set(range(0, 6)) if me.me != me.state.dealer else set(range(6, 12))
        assert set(hand.read_cards) - {12} <= mine


def _refused(tamper, match, seed="cheat", **kwargs):
    with pytest.raises(SealError, match=match):
        play(seed, 61, tamper=tamper, **kwargs)


def test_a_duplicated_card_in_a_shuffle_is_refused_at_once():
    def tamper(sender, message):
        if sender == 0 and message["s"] == "deck":
            deck = message["deck"]
            message = dict(message, deck=deck[:64] + deck[:64] + deck[128:])
        return message
    _refused(tamper, "Ann's deck holds the same sealed card twice")


NOT_THE_CARDS = "Ann's deck is not the 52 cards each locked once under one lock"


def test_a_shuffle_with_a_card_locked_again_is_refused_by_its_proof(monkeypatch):
    honest = SealedHand.first_deck
    calls = []

    def relocking(self):
        text = honest(self)
        if not calls:  # Ann's first hand: her last card under another lock (no duplicate to see)
            calls.append(self)
            self.first[-1] = ristretto.mul(12345, ristretto.CARD_POINTS[0])
            text = self._first_text = sealed.deck_text(self.first)  # its roots made from it too
        return text

    monkeypatch.setattr(SealedHand, "first_deck", relocking)
    _refused(None, NOT_THE_CARDS)


FIVES = [c for c in range(52) if RANK_OF[c] == 4]


@pytest.mark.parametrize("seed", ["guess-%d" % k for k in range(8)])
def test_a_deck_with_the_fives_locked_otherwise_stops_the_friend_the_same_way_whatever_it_holds(monkeypatch, seed):
    """Ann locks the four fives under another key (her proof made honestly over that deck, as
    well as any could be). Bob stops with the same sentence in every deal, holding a five or not,
    and sends nothing once he has read his cards: Ann learns nothing of his hand."""
    honest = SealedHand.first_deck

    def relocking(self):
        text = honest(self)
        if self.seat == 0 and self.first is not None and not getattr(self, "relocked", False):
            self.relocked = True
            self.first = [ristretto.mul(self._secret + 1, ristretto.CARD_POINTS[c]) if c in FIVES else point
                          for c, point in zip(self._order, self.first)]
            text = self._first_text = sealed.deck_text(self.first)
            self._shuffle_text = self._proving = None  # its proof made over this deck
        return text

    monkeypatch.setattr(SealedHand, "first_deck", relocking)
    sent = []

    def watch(sender, message):
        sent.append((sender, message["s"], message["k"]))
        return message

    with pytest.raises(SealError, match=NOT_THE_CARDS):
        play(seed, 61, tamper=watch)
    opened = next(k for k, (sender, step, number) in enumerate(sent) if step == "open" and number == 1)
    assert [step for sender, step, number in sent[opened:] if sender == 1 and number == 1] == []


def test_a_wrong_opening_is_refused():
    def repeated(sender, message):
        if sender == 1 and message["s"] == "final":
            opens = [list(o) for o in message["open"]]
            opens[0][1] = opens[1][1]  # another of her cards
            message = dict(message, open=opens)
        return message
    _refused(repeated, "Bob opened the same card twice")

    def wrong_key(sender, message):
        if sender == 1 and message["s"] == "act" and message["a"]["type"] == "play":
            opens = [list(o) for o in message["open"]]
            opens[0][1] = (12345).to_bytes(32, "little").hex()  # not the key of that position
            message = dict(message, open=opens)
        return message
    _refused(wrong_key, "Bob's opening of position [0-9]+ is not a card")


def test_a_card_of_the_friend_opened_wrongly_to_test_a_guess_is_refused_at_the_proof_before_he_sends_more():
    seed = "guess"
    seeds = [derive_seed(derive_seed(seed, "s0"), 1), derive_seed(derive_seed(seed, "s1"), 1)]
    deck = fairdeal.shuffled_deck(fairdeal.joint_seed(*seeds))

    def tamper(sender, message):
        # Ann guesses Bob's first card right and shifts its opening to another card: it reads as
        # a card (the wrong one) only because the guess is right; his page must not go on.
        if sender == 0 and message["s"] == "open" and message["k"] == 1:
            position, share = message["open"][0]
            point = ristretto.decode(bytes.fromhex(share))
            shift = ristretto.add(ristretto.CARD_POINTS[(deck[position] + 1) % 52],
                                  ristretto.neg(ristretto.CARD_POINTS[deck[position]]))
            moved = ristretto.add(point, shift)
            text = hexlify(ristretto.encode(moved)).decode("ascii")
            roots = [sealed.roots_text([moved], [text])] + message["roots"][1:]  # its root as well
            message = dict(message, open=[[position, text]] + message["open"][1:], roots=roots)
        return message

    sent = []

    def watch(sender, message):
        message = tamper(sender, message)
        sent.append((sender, message["s"]))
        return message

    with pytest.raises(SealError, match="Ann's proof that it opened your cards right does not hold"):
        play(seed, 61, tamper=watch)
    after = sent[sent.index((0, "open")) + 1:]
    assert (1, "rest") not in after and (1, "act") not in after  # nothing more from Bob


def test_a_move_without_the_proof_of_the_openings_is_refused():
    def tamper(sender, message):
        return None if sender == 0 and message["s"] == "proof" else message
    _refused(tamper, "Ann has not shown that it opened your cards right")


def test_an_own_card_opened_as_another_card_of_the_deck_is_found_at_the_check():
    a, b = "0" * 31 + "7", "0" * 31 + "9"
    ann, bob = SealedHand(0, a, "Bob"), SealedHand(1, b, "Ann")
    bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text())
    ann.take_final(bob.commitment)
    ann.read_own(0, bob.own_index(13))  # the index of a card dealt elsewhere (blind to Bob)
    while not bob.final_step():
        pass
    ann.take_part(bob.final_part(list(range(52))), list(range(52)))
    with pytest.raises(SealError, match="Bob opened position 1 as a card it does not hold"):
        ann.check(b)


def test_a_card_laid_that_is_not_the_one_dealt_there_is_found_at_the_check():
    seeds = [derive_seed(derive_seed("forge", "s0"), 1), derive_seed(derive_seed("forge", "s1"), 1)]
    deck = fairdeal.shuffled_deck(fairdeal.joint_seed(*seeds))
    forged_once = []

    def tamper(sender, message):
        # Ann holds Bob's key for each of her positions (he opened them for her), so she can open
        # one as any card: she lays a card of the same rank that nobody holds (the play goes on
        # the same on both sides), and Bob's check at the end of the hand finds it.
        if (sender == 0 and message["s"] == "act" and message["a"]["type"] == "play" and message["k"] == 1
                and not forged_once and any(RANK_OF[c] == RANK_OF[message["a"]["card"]] for c in deck[13:])):
            forged_once.append(message)
            position = message["open"][0][0]
            card = next(c for c in deck[13:] if RANK_OF[c] == RANK_OF[message["a"]["card"]])
            forged = ristretto.mul(sealed.key_of(seeds[1], position), ristretto.CARD_POINTS[card])
            message = dict(message, a={"type": "play", "card": card},
                           open=[[position, hexlify(ristretto.encode(forged)).decode("ascii")]])
        return message

    with pytest.raises(SealError, match="Ann opened position [0-9]+ as a card it does not hold"):
        play("forge", 61, tamper=tamper)


def test_a_seed_that_does_not_match_its_commitment_is_refused():
    def tamper(sender, message):
        if sender == 1 and message["s"] == "reveal":
            message = dict(message, seed="f" * 32)
        return message
    _refused(tamper, "Bob's key for this hand does not match the commitment")


def test_a_go_sent_in_place_of_a_card_is_refused():
    lied = []

    def tamper_lie(sender, message):
        if (sender == 1 and message["s"] == "act" and message["a"]["type"] == "play" and not lied
                and message["k"] == 1):
            lied.append(message)
            return {"s": "go", "k": 1, "i": 1, "at": message["n"] - 2}
        return message

    with pytest.raises(SealError, match="Bob"):
        play("liar", 61, tamper=tamper_lie)


def test_a_secret_that_does_not_match_its_commitment_is_refused_at_the_end():
    def tamper(sender, message):
        if sender == 0 and message["s"] == "secret":
            message = dict(message, secret="e" * 32)
        return message
    _refused(tamper, "Ann's secret does not match the commitment")


def test_a_message_of_no_known_kind_gets_a_sentence():
    sides, _ = _pair("shape")
    for message in (None, [], {"s": "deal", "k": 1}, {"s": "act"}, {"s": "act", "k": "1"}):
        with pytest.raises(SealError, match="no known kind"):
            sides[0].receive(message)


def test_the_full_seed_names_both_secrets():
    assert full_seed("sealed:a:b", "c", "d") == "sealed:a:b:c:d"


def test_the_proof_of_the_openings_holds_for_them_only():
    ann, bob = SealedHand(0, "0" * 31 + "7", "Bob"), SealedHand(1, "0" * 31 + "9", "Ann")
    bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text())
    ann.take_final(bob.commitment)
    masked = list(range(6, 12))
    ann.take_part(bob.masked_part(masked), masked, masked=True)
    opens = ann.open_masked()
    proof = ann.proof()
    unlock, texts, shares = ann.unlock_text(), ann._masked_texts, [share for _, share in opens]
    assert sealed.is_proof(unlock, texts, shares, proof)
    assert not sealed.is_proof(unlock, texts, shares[1:] + shares[:1], proof)  # the openings moved about
    other = hexlify(ristretto.encode(ristretto.mul(5, ristretto.BASE))).decode("ascii")
    assert not sealed.is_proof(other, texts, shares, proof)  # another key's
    for bad in (None, "", proof[:-2], "zz" + proof[2:], proof[:32] + "ff" * 32):
        assert not sealed.is_proof(unlock, texts, shares, bad)
    bob.take_opened(opens)
    with pytest.raises(SealError, match="Ann's proof that it opened your cards right does not hold"):
        bob.take_proof(proof[:-4] + ("0000" if proof[-4:] != "0000" else "1111"))
    bob.take_proof(proof)
    assert bob.proved


def test_the_friends_masks_worked_out_ahead_are_his_masks_and_taken_once():
    seed = "0" * 31 + "6"
    sealed.prepare(seed, 1)
    ahead = SealedHand(1, seed, "Ann")
    assert sorted(ahead._masks) == list(range(2 * sealed.MASKED))  # his six, whoever deals
    assert all(ristretto.equal(point, ristretto.mul(sealed.mask_of(seed, j), ristretto.BASE))
               for j, point in ahead._masks.items())
    assert not SealedHand(1, seed, "Ann")._masks


def test_the_points_come_with_their_decoding_roots_and_a_wrong_one_is_refused():
    """Each side sends the roots of the points it sends (its deck and U, the masked six, the
    openings of the six), so the other decodes them with no exponentiation; a wrong root is a
    damaged point, refused with the sentence of one."""
    a, b = "0" * 31 + "7", "0" * 31 + "9"
    deck = fairdeal.shuffled_deck(fairdeal.joint_seed(a, b))
    theirs = list(range(6, 12))

    def hands():
        ann, bob = SealedHand(0, a, "Bob"), SealedHand(1, b, "Ann")
        return ann, bob

    ann, bob = hands()
    roots = ann.first_roots()
    assert len(roots) == 53 * 64 and ann.first_roots() is roots
    bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text(), roots)
    ann.take_final(bob.commitment)
    ann.take_part(bob.masked_part(theirs), theirs, masked=True, roots=bob.masked_roots)
    opens = ann.open_masked()
    assert [j for j, _ in opens] == theirs and len(ann.open_roots) == 6
    assert [share for _, share in opens] == [ann.share(j) for j in theirs]  # as one opening each encodes it
    assert bob.read_all(opens, ann.open_roots) == dict(zip(theirs, deck[6:12]))

    def flipped(text, at):  # one root of a text changed (still even, another number)
        digit = "2" if text[at] != "2" else "4"
        return text[:at] + digit + text[at + 1:]

    ann, bob = hands()
    index = fairdeal.shuffled_deck(b)[6]  # the card of her deck his position 6 holds
    with pytest.raises(SealError, match="Ann's deck holds something that is not a sealed card"):
        bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text(), flipped(ann.first_roots(), index * 64))
    assert bob.first is None and bob.their_commitment is None  # the whole deck checked before any of it is taken
    ann, bob = hands()
    with pytest.raises(SealError, match="came without the point that opens your cards"):
        bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text(), flipped(ann.first_roots(), 52 * 64))
    with pytest.raises(SealError, match="Ann's deck holds something that is not a sealed card"):
        bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text(), ann.first_roots()[:-2])
    ann, bob = hands()
    bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text(), ann.first_roots())
    ann.take_final(bob.commitment)
    with pytest.raises(SealError, match="Bob's deck holds something that is not a sealed card"):
        ann.take_part(bob.masked_part(theirs), theirs, masked=True, roots=flipped(bob.masked_roots, 64 * 2))
    ann, bob = hands()
    bob.take_first(ann.first_deck(), ann.commitment, ann.unlock_text(), ann.first_roots())
    ann.take_final(bob.commitment)
    ann.take_part(bob.masked_part(theirs), theirs, masked=True, roots=bob.masked_roots)
    opens = ann.open_masked()
    wrong = list(ann.open_roots)
    wrong[3] = flipped(wrong[3], 0)
    with pytest.raises(SealError, match="Ann's opening of a card is not a sealed card"):
        bob.read_all(opens, wrong)
    with pytest.raises(SealError, match="Ann's opening of a card is damaged"):
        bob.read_all(opens, ann.open_roots[:5] + ["zz" * 32])


def test_no_side_holds_a_card_of_the_next_hand_while_a_hand_is_played(monkeypatch):
    """The next hand is sealed during this one, but its openings wait for this hand's end: until
    then neither side has read a card of it, nor kept anything that opens one (its saved game
    taken up again reads none either)."""
    sides, seen = [None, None], []
    original = SealedGame.take_messages

    def take(self):  # the sides as the harness plays them, looked at each time they are asked
        sides[self.me] = self
        hand = self.state.hand_number if self.state is not None else 1
        later = self.hands.get(hand + 1)
        if hand not in self.joints and later is not None:
            seen.append(bool(later.read_cards) or bool(self.ready.get(hand + 1)))
            if len(seen) % 40 == 1:
                seen.append(bool(from_dict(json.loads(json.dumps(self.to_dict()))).ready.get(hand + 1)))
        return original(self)

    monkeypatch.setattr(SealedGame, "take_messages", take)
    done, _ = play("next-hand-sealed", 61)
    assert done[0].final is not None and len(seen) > 20 and not any(seen)
