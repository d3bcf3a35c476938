"""The page's answers for a sealed friend game: its start, own moves, the sealing work, the friend's messages.

A sealed game (``engine/sealed_game.py``) is played over the direct connection: each hand's
deck is shuffled and locked by both sides, so neither page holds a card before the rules show
it. The page keeps the game as an opaque text (``game``: this side's ``SealedGame.to_dict``
with the messages it sent and how many it took), and each call answers with the new text. The
worker holds the game object between calls, so a move costs no replay; a text it does not
hold (after a reload) is taken up again from its log.

Messages between the pages are ``{"t": "seal", "id": game id, "q": place, "m": message}``,
numbered from 0 for each side, and ``{"t": "seal-hello", "id", "got": messages taken}``, sent
when a connection opens: the other side sends again every message from ``got`` on, so nothing
lost while the connection was down is missing, and a message taken twice is ignored. The first
message of each side is ``{"s": "begin", "seal": commitment, "v": VERSION}``, its commitment to
its own secret, checked when the secret comes at the end (the inviter's also against the short
form its invitation carries, if it does: ``friend.seal_digest``).

Every answer is ``{"game", "send": [texts], "table": a table reply or null, "work": true while
a shuffle waits for ``work``, "final": the finished game's JSON (checked) or null, "calls": the
calls the game has answered}``. Until this side has read its first hand, ``begin`` and ``join``
answer with no table; ``preview`` (asked by the page if the cards are a while coming) and
``resume`` give the table at that hand's cut and deal, every card face down (``preview_reply``).
Anything refused raises ``friend.FriendError`` with the sentence to show; the game the page holds
stays as it was.

>>> a, b, s0, s1 = "1" * 32, "2" * 32, "3" * 32, "4" * 32
>>> invite = friend.make_invite("Ann", 61, False, a)
>>> reply = friend.make_reply(friend.read_invite(invite), "Bob", b)
>>> ann = begin({"invite": invite, "reply": reply, "seat": 0, "secret": a, "seal_secret": s0})
>>> bob = begin({"invite": invite, "reply": reply, "seat": 1, "inviter_secret": a, "seal_secret": s1})
>>> face_down = preview({"game": ann["game"]})["table"]
>>> ann["work"], ann["table"], face_down["view"]["sealing"], face_down["view"]["hand"], len(bob["send"])
(True, None, True, [], 1)
"""

from engine import fairdeal, friend, host, sealed, seeds
from engine.friend_host import request_secret
from engine.compat import canonical_json, strict_json
from engine.game import IllegalActionError, events_for
from engine.narration import Seating, card_info, event_cards, narrate, view_cards
from engine.sealed import SealError
from engine.sealed_exchange import hand_positions
from engine.sealed_game import SealedGame, as_sent, from_dict, public_seed
from engine.seeds import INVITER_DEALS, derive_seed

FORMAT = "cribbage-sealed-friend-2"
OLD_FORMATS = ("cribbage-sealed-friend-1",)
VERSION = 3
"""The sealed deck's exchange, named in each side's first message: both pages must speak the same."""
KEEP = 4  # games the worker holds between calls
SEAL, HELLO = "seal", "seal-hello"
_HELD: list = []  # [game id and seat, kept dict, SealedGame, its text], the last KEEP games answered

FriendError = friend.FriendError


def _key(kept: dict) -> str:
    return kept["id"] + ":" + str(kept["game"]["me"])


def _hold(kept: dict, game: SealedGame, text: str) -> None:
    for entry in _HELD:
        if entry[0] == _key(kept):
            _HELD.remove(entry)
            break
    _HELD.append([_key(kept), kept, game, text])
    while len(_HELD) > KEEP:
        _HELD.pop(0)


def _forget(kept: dict) -> None:
    """Drop the worker's object for a game whose call was refused (or failed): the next call
    takes the game up again from the page's text, which a refused call leaves as it was, so
    nothing a refused message began to change outlives the refusal."""
    _HELD[:] = [entry for entry in _HELD if entry[0] != _key(kept)]


def _read(text: object) -> object:
    """A message or a kept game's JSON, read strictly (``compat.strict_json``), or None."""
    try:
        return strict_json(text) if isinstance(text, str) else None
    except ValueError:
        return None


def _held(request: dict) -> tuple:
    """The request's game: the worker's own object for it (the text of any earlier answer names
    the same game: calls are taken in order), else taken up from the text (after a reload)."""
    text = request.get("game")
    if not isinstance(text, str):
        raise FriendError("The request has no sealed game.")
    for entry in _HELD:
        if entry[3] == text:  # the text of this game's last answer: no need to read it
            return entry[1], entry[2]
    kept = _read(text)
    if isinstance(kept, dict) and kept.get("format") in OLD_FORMATS:
        raise FriendError("This sealed game was begun by an earlier version of the site and cannot go on here.")
    if not isinstance(kept, dict) or kept.get("format") != FORMAT:
        raise FriendError("This is not a sealed friend game kept on this device.")
    if not (isinstance(kept.get("id"), str) and isinstance(kept.get("sent"), list)
            and type(kept.get("got")) is int and isinstance(kept.get("game"), dict)
            and type(kept.get("calls")) is int and kept["game"].get("me") in (0, 1)):
        raise FriendError("This sealed friend game is damaged.")
    for entry in _HELD:
        if entry[0] == _key(kept) and entry[1]["calls"] >= kept["calls"]:
            return entry[1], entry[2]
    try:
        game = from_dict(kept["game"])
    except (SealError, ValueError) as error:
        raise FriendError(str(error)) from None
    return kept, game


def _wrap(kept: dict, message: dict) -> str:
    text = canonical_json({"t": SEAL, "id": kept["id"], "q": len(kept["sent"]), "m": message})
    kept["sent"].append(as_sent(message))  # sent again after a reconnection (a deck's proof made again)
    return text


def _answer(kept: dict, game: SealedGame, send: list, table: bool = True, waited: object = "") -> dict:
    """The answer after a call: the messages the call left, the table (none before this side has
    read its first hand), the game's new text. Given ``waited`` (``_is_waiting`` before the call),
    the table only if the call moved the game on: a message that only seals a later hand leaves
    the table as it is on the page."""
    for message in game.take_messages():
        send.append(_wrap(kept, message))
    events = game.take_events()
    kept["game"] = game.to_dict()
    kept["calls"] += 1
    text = canonical_json(kept)
    _hold(kept, game, text)
    if waited != "":
        table = table and (bool(events) or waited != _is_waiting(game))
    reply = table_reply(game, events) if table else None
    if reply is not None:
        reply["game"] = text
    return {"game": text, "send": send, "table": reply, "work": bool(game.deferred),
            "final": game.final.to_json() if game.final is not None else None, "calls": kept["calls"]}


def _is_waiting(game: SealedGame) -> "bool | None":
    """True while the game waits for the other side, None before the first deal is ready."""
    state = game.state
    if state is None:
        return None
    return bool(game.pending or (not state.is_over and state.to_act != game.me) or (state.is_over and game.final is None))


def table_reply(game: SealedGame, events: list) -> "dict | None":
    """The page's table reply (``host.reply``) for this side's seat: the other side's cards as
    the sealed game's view has them, "friend" while the game waits for the other side."""
    state, seat = game.state, game.me
    if state is None:
        return None
    return _seat_reply(state, events, seat, host.page_view(state, seat, game.view()), bool(_is_waiting(game)),
                       friend.describe(state, seat))


def preview_reply(game: SealedGame) -> "dict | None":
    """Before this side has read its first hand: the table at that hand's cut and deal, with no
    card of the deal in it (the view's ``sealing`` is True, and the game waits for the other
    side). None once the hand is read."""
    state = game.preview()
    if state is None:
        return None
    view = host.page_view(state, game.me)
    view.update({"hand": [], "legal_actions": [], "sealing": True})
    events = [e for e in state.start_events if e["type"] in ("cut", "deal")]  # no "hand": no card
    return _seat_reply(state, events, game.me, view, True, "Sealing the first deal")


def _seat_reply(state, events: list, seat: int, view: dict, waiting: bool, turn: str) -> dict:
    """``host.reply`` for the seat with ``view``: only the cards the view and the events show are
    named (no stand-in's name), "friend" when ``waiting``; ``turn``: the words for the list of games."""
    answer = host.reply(state, events, Seating.of(state, seat), seat)
    answer["view"] = view
    shown = view_cards(view) | event_cards(answer["events"])
    answer["cards"] = {str(c): card_info(c) for c in sorted(shown)}
    if waiting:
        answer["awaiting"] = "friend"
    answer["sealed"] = True
    answer["friend"] = {"seat": seat, "turn": turn}
    return answer


def prepare(request: dict) -> dict:
    """A side's ``seal_secret`` (the one given, which the invitation commits to or the reply's
    openings follow from, else drawn now, before the game begins), and the heavy part of its
    first hand worked out ahead (kept by the worker for ``begin`` or ``join``): the inviter's
    shuffle, while the invitation waits for its reply (``seat`` 0, the default), or the friend's
    masks, once the reply is made (``seat`` 1: for its six of either first hand, as either seat
    may deal it, from the seed that hand then follows from: two seeds if the reply opened the
    inviter's six, when ``seal_secret`` is given). Answers ``{"seal_secret"}``."""
    seat = request.get("seat", 0)
    if seat not in (0, 1) or type(seat) is not int:
        raise FriendError("A friend game's seat is 0 (the inviter) or 1 (the friend).")
    early = request.get("seal_secret") is not None
    own = request_secret(request, "seal_secret")
    if seat == 0 or not early:
        sealed.prepare(derive_seed(own, 1), seat)
    else:  # its six are 6-11 of its own seed when it deals, 0-5 of the other when the inviter does
        sealed.prepare(derive_seed(own, 1), 1, hand_positions(1, 1))
        sealed.prepare(derive_seed(own, INVITER_DEALS), 1, hand_positions(1, 0))
    return {"seal_secret": own}


def begin(request: dict) -> dict:
    """A side's sealed game, once both game secrets are known: ``invite``, ``reply``, ``seat``,
    the inviter's secret (``secret`` for seat 0, ``inviter_secret`` for seat 1: see ``join``)
    and this side's ``seal_secret`` (drawn if missing). The inviter's first message carries its
    secret (the friend's is in the reply)."""
    found = friend.read_invite(request.get("invite"))
    answer = friend.read_reply(request.get("reply"), found)
    seat = request.get("seat")
    if type(seat) is not int or seat not in (0, 1):
        raise FriendError("A friend game's seat is 0 (the inviter) or 1 (the friend).")
    inviter = request.get("secret") if seat == 0 else request.get("inviter_secret")
    if not fairdeal.is_normal_seed(inviter) or friend.commitment(inviter) != found["commit"]:
        raise FriendError(f"{found['name']}'s secret does not match the commitment in the invitation.")
    if seat == 1 and request.get("secret") not in (None, answer["secret"]):
        raise FriendError("This reply was not made on this device.")
    own = request_secret(request, "seal_secret")
    commits = [None, None]
    commits[seat] = fairdeal.commitment(own)
    early = friend.is_early(found, answer)
    if seat == 0 and found.get(friend.SEAL_KEY) not in (None, friend.seal_digest(commits[0])) \
            or seat == 1 and early and seeds.reply_opens(own) != answer[friend.OPEN_KEY]:
        raise FriendError("This game's sealed deck was not begun on this device.")
    game = SealedGame(seat, [found["name"], answer["name"]], found["target"], found["muggins"],
                      public_seed(inviter, answer["secret"], early), own, commits,
                      answer[friend.OPEN_KEY] if early and seat == 0 else None)
    kept = {"format": FORMAT, "id": found["id"], "sent": [], "got": 0, "game": None, "calls": 0}
    first = {"s": "begin", "seal": commits[seat], "v": VERSION}
    if seat == 0:
        first["secret"] = inviter
    send = [_wrap(kept, first)]
    if seat == 0:
        game.work()  # the first step of its shuffle (all of it, if worked out ahead: ``prepare``)
    return _answer(kept, game, send)


def is_first_message(text: object) -> bool:
    """True for the inviter's first message of a sealed game (the friend then ``join``s)."""
    message = _read(text)
    return isinstance(message, dict) and message.get("t") == SEAL and message.get("q") == 0


def join(request: dict) -> dict:
    """The friend's sealed game, from the inviter's first ``message`` (or ``messages``: the first
    and those that came with it) with ``invite``, ``reply``, ``secret`` (the friend's own, as in
    the reply) and ``seal_secret`` (optional, as ``prepare`` drew it)."""
    texts = request.get("messages")
    if texts is None:
        texts = [request.get("message")]
    try:
        message = _read(texts[0])
        inviter = message["m"]["secret"]
        commit = message["m"]["seal"]
    except (TypeError, KeyError, IndexError):
        raise FriendError("The first message of a sealed game lacks the inviter's secret.") from None
    seal = friend.read_invite(request.get("invite")).get(friend.SEAL_KEY)
    if seal is not None:
        try:
            matches = friend.seal_digest(fairdeal.parse_commitment(commit)) == seal
        except (ValueError, TypeError):  # no commitment (binascii's errors are ValueErrors)
            matches = False
        if not matches:
            raise FriendError("The inviter's commitment to its sealed deck is not the one in the invitation.")
    answer = begin(dict(request, seat=1, inviter_secret=inviter))
    taken = receive({"game": answer["game"], "messages": texts})
    taken["send"] = answer["send"] + taken["send"]
    return taken


def resume(request: dict) -> dict:
    """A sealed ``game`` kept on the device: the table as it is, face down before its first hand
    is read (the game taken up again if the worker does not hold it), with the log said so far
    (``said``)."""
    kept, game = _held(request)
    game.take_events()
    answer = _answer(kept, game, [])
    if answer["table"] is None:
        answer["table"] = preview({"game": answer["game"]})["table"]
    else:
        answer["table"]["said"] = _said(game)
    return answer


def _said(game: SealedGame) -> list:
    """The game log as this side's table said it so far (host.said's, for a sealed game)."""
    seating = Seating.of(game.state, game.me)
    return [event["say"] for event in narrate(events_for(game.me, game.told()), seating) if event["say"]]


def preview(request: dict) -> dict:
    """The page's sealed ``game`` before its first hand is read: ``{"table"}``, the table at that
    hand's deal face down (``preview_reply``), or None once the hand is read. The game is left
    as it is (its text too)."""
    _, game = _held(request)
    reply = preview_reply(game)
    if reply is not None:
        reply["game"] = request["game"]
    return {"table": reply}


def work(request: dict) -> dict:
    """One waiting shuffle of the page's sealed ``game`` (the page calls again while ``work``)."""
    kept, game = _held(request)
    try:
        game.work()
        return _answer(kept, game, [], table=False)
    except SealError as error:
        _forget(kept)
        raise FriendError(str(error)) from None
    except BaseException:
        _forget(kept)
        raise


def move(request: dict) -> dict:
    """The page's own ``action`` in its sealed ``game``."""
    kept, game = _held(request)
    try:
        game.act(request.get("action"))
        return _answer(kept, game, [])
    except IllegalActionError as error:
        _forget(kept)
        raise FriendError(f"That move cannot be made: {error}.") from None
    except SealError as error:
        _forget(kept)
        raise FriendError(str(error)) from None
    except BaseException:
        _forget(kept)
        raise


def hello(request: dict) -> dict:
    """The message that opens a connection: how many messages this side has taken."""
    kept, game = _held(request)
    return {"send": [canonical_json({"t": HELLO, "id": kept["id"], "got": kept["got"]})]}


def receive(request: dict) -> dict:
    """A ``message`` from the other page for the sealed ``game`` (or ``messages``, several that
    came together, taken in order with one answer): each taken in its place (one already taken
    is ignored; one that comes early asks for those before it again)."""
    kept, game = _held(request)
    texts = request.get("messages")
    if texts is None:
        texts = [request.get("message")]
    if not isinstance(texts, list) or not texts:
        raise FriendError("This message is not one of this sealed game's.")
    waiting = _is_waiting(game)
    send: list = []
    try:
        for text in texts:
            if not _take(kept, game, text, send):
                break
        return _answer(kept, game, send, waited=waiting)
    except BaseException:
        _forget(kept)
        raise


def _take(kept: dict, game: SealedGame, text: object, send: list) -> bool:
    """One message of ``receive``; False when it asks for lost ones again (the rest then waits)."""
    message = _read(text)
    if not isinstance(message, dict) or message.get("id") != kept["id"] or message.get("t") not in (SEAL, HELLO):
        raise FriendError("This message is not one of this sealed game's.")
    if message["t"] == HELLO:
        got = message.get("got")
        if type(got) is not int or not 0 <= got <= len(kept["sent"]):
            raise FriendError("The other page's greeting does not fit this game.")
        send.extend(canonical_json({"t": SEAL, "id": kept["id"], "q": q, "m": game.with_proof(kept["sent"][q])})
                    for q in range(got, len(kept["sent"])))
        return True
    place, inner = message.get("q"), message.get("m")
    if type(place) is not int or place < 0 or not isinstance(inner, dict):
        raise FriendError("This message is not one of this sealed game's.")
    if place < kept["got"]:
        return True
    if place > kept["got"]:  # messages were lost on the way: ask for them again
        send.append(canonical_json({"t": HELLO, "id": kept["id"], "got": kept["got"]}))
        return False
    try:
        if inner.get("s") == "begin":
            commit = inner.get("seal")
            if place != 0 or not isinstance(commit, str) or len(commit) != 64:
                raise SealError("The other page's first message is not its commitment.")
            if inner.get("v") != VERSION:
                raise SealError("The other page is another version of this site, which seals the deck "
                                "another way: both of you reload the page, then start the game again.")
            game.seal_commitments[game.other] = commit
        else:
            game.receive(inner)
    except SealError as error:
        raise FriendError(str(error)) from None
    kept["got"] += 1
    return True
