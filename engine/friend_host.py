"""The game page's answers for a friend game: invitations, its start, own moves, the friend's messages.

Each function takes the page's request (a dict) and answers with a dict; a friend game's table
replies are ``host.reply``'s, for the page's own seat, with ``awaiting`` "friend" while the other
seat is to move, and ``moves`` (how many moves the game holds). What arrives from the other side
(a message, a pasted reply, a link) is checked by ``engine.friend``; anything refused raises
``friend.FriendError`` with the sentence to show, and the game the page holds stays as it was.

The page keeps, for each friend game: the invitation text, the reply text (once there is one),
its seat, its own secret and the game's JSON (null until both secrets are known).

>>> a = "2" * 32
>>> made = invite({"name": "Ann", "target": 61, "muggins": False, "secret": a})
>>> accepted = accept({"invite": made["invite"], "name": "Bob", "secret": "3" * 32})
>>> table = begin({"invite": made["invite"], "reply": accepted["reply"], "seat": 0, "secret": a})
>>> table["awaiting"], table["moves"], table["view"]["seat"]
('discard', 0, 0)
"""

from engine import friend, host, meeting, seeds
from engine.narration import Seating
from engine.record import all_actions

FriendError = friend.FriendError


def _text(request: dict, key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str):
        raise FriendError(f"The request has no {key}.")
    return value


def _seat(request: dict) -> int:
    seat = request.get("seat")
    if type(seat) is not int or seat not in (0, 1):
        raise FriendError("A friend game's seat is 0 (the inviter) or 1 (the friend).")
    return seat


def request_secret(request: dict, key: str = "secret") -> str:
    """The request's secret under ``key`` (``seal_secret``: the one a live game's sealed deck
    follows from), else a new one."""
    secret = request.get(key)
    if secret is None:
        return friend.new_secret()
    if not isinstance(secret, str) or not friend.fairdeal.is_normal_seed(secret):
        raise FriendError("A secret is 32 hex digits.")
    return secret


def table_reply(state, events: list, seat: int) -> dict:
    """The page's reply for its seat in a friend game (host.reply), awaiting "friend" while the
    other seat is to move."""
    answer = host.reply(state, events, Seating.of(state, seat), seat)
    if not state.is_over and state.to_act != seat:
        answer["awaiting"] = "friend"
    answer["moves"] = len(all_actions(state))
    answer["friend"] = {"seat": seat, "turn": friend.describe(state, seat)}
    return answer


def invite(request: dict) -> dict:
    """A new invitation: ``name``, ``target``, ``muggins``, the connection offer ``signal`` (or null;
    ``friend.MEET_SIGNAL`` with ``meet``, the meeting point's [address, key]) and optionally the ``secret`` and ``seal_secret`` to use; the reply holds the text and the
    secrets to keep (``seal_secret`` null for play by link only)."""
    secret = request_secret(request)
    signal = request.get("signal")
    seal = request_secret(request, "seal_secret") if signal is not None else None
    text = friend.make_invite(request.get("name"), request.get("target", 121), request.get("muggins", False),
                              secret, signal, seal, request.get("meet"))
    found = friend.read_invite(text)
    return {"invite": text, "secret": secret, "seal_secret": seal, "id": found["id"], "length": len(text)}


def read_invite(request: dict) -> dict:
    """What an invitation says: its ``id``, the inviter's ``name``, ``target``, ``muggins``, ``signal``
    and ``meet`` (its meeting point: ``{"url", "key", "topic"}``, or null)."""
    found = friend.read_invite(request.get("invite"))
    answer = {key: found[key] for key in ("id", "name", "target", "muggins", "signal")}
    meet = found.get(friend.MEET_KEY)
    answer["meet"] = None if meet is None else {"url": meet[0], "key": meet[1], "topic": meeting.topic(meet[1])}
    return answer


def accept(request: dict) -> dict:
    """The friend's reply to ``invite``: ``name``, the connection answer ``signal`` (or null),
    optionally the ``secret`` and ``seal_secret`` to use. To a live invitation with a sealed deck,
    the reply opens the inviter's first six (``seeds.reply_opens``) and ``seal_secret`` is the
    secret to keep (else null). The answer's ``hello`` is the friend's greeting while it has no
    game (``hello``'s message for no move held), for the page to send as the connection opens
    without asking again."""
    found = friend.read_invite(request.get("invite"))
    secret = request_secret(request)
    signal = request.get("signal")
    seal = request_secret(request, "seal_secret") if signal is not None and friend.SEAL_KEY in found else None
    text = friend.make_reply(found, request.get("name"), secret, signal,
                             seeds.reply_opens(seal) if seal is not None else None)
    return {"reply": text, "secret": secret, "seal_secret": seal, "id": found["id"], "length": len(text),
            "hello": friend.hello_message(found["id"], 0)}


def read_reply(request: dict) -> dict:
    """What a pasted ``reply`` to ``invite`` says: the friend's ``name`` and ``signal``."""
    found = friend.read_invite(request.get("invite"))
    answer = friend.read_reply(request.get("reply"), found)
    return {"id": found["id"], "name": answer["name"], "signal": answer["signal"]}


def _parts(request: dict) -> tuple:
    """The request's invitation and reply, read, and the secrets known by seat."""
    found = friend.read_invite(_text(request, "invite"))
    answer = friend.read_reply(_text(request, "reply"), found)
    seat = _seat(request)
    mine = request_secret(request) if request.get("secret") is not None else None
    if mine is None:
        raise FriendError("The request has no secret.")
    if seat == 1 and mine != answer["secret"]:
        raise FriendError("This reply was not made on this device.")
    if seat == 0 and friend.commitment(mine) != found["commit"]:
        raise FriendError("This invitation was not made on this device.")
    secrets = [mine if seat == 0 else None, answer["secret"]]
    return found, answer, seat, secrets


def begin(request: dict) -> dict:
    """The inviter's game, once the friend's ``reply`` is in: both secrets are known."""
    found, answer, seat, secrets = _parts(request)
    if seat != 0:
        raise FriendError("Only the inviter starts the game from the reply.")
    state = friend.start(found, answer, secrets[0])
    return table_reply(state, list(state.start_events), seat)


def move(request: dict) -> dict:
    """The page's own move (``action``) in its friend ``game``; the reply carries ``send``, the
    message for the other side."""
    seat = _seat(request)
    _text(request, "game")
    state = host.held_game(request)
    before = len(all_actions(state))
    action = request.get("action")
    events = friend.apply_move(state, seat, action)
    sent = all_actions(state)[before]
    answer = table_reply(state, events, seat)
    answer["send"] = [friend.act_message(friend.game_id(_commit(request)), before, sent)]
    return answer


def _commit(request: dict) -> str:
    return friend.read_invite(_text(request, "invite"))["commit"]


def hello(request: dict) -> dict:
    """The message that opens a connection, for the page's game as it stands."""
    found, answer, seat, secrets = _parts(request)
    game = request.get("game")
    count = 0 if not isinstance(game, str) else len(all_actions(host.held_game(request)))
    return {"send": [friend.hello_message(found["id"], count, secrets[0] if seat == 0 else None)]}


def chat(request: dict) -> dict:
    """A chat line to send: ``text`` cleaned; the reply holds the message and the line as shown."""
    found = friend.read_invite(_text(request, "invite"))
    line = friend.clean_chat(request.get("text"))
    return {"send": [friend.chat_message(found["id"], line)], "text": line}


def receive(request: dict) -> dict:
    """A ``message`` from the other page, checked and taken: ``{"kind", "table": a table reply or
    null, "chat": the line or null, "send": messages to answer with}``. Refused messages raise
    FriendError; the page's game is not changed by them."""
    found, answer, seat, secrets = _parts(request)
    message = friend.read_message(request.get("message"), found["id"])
    kind = message["t"]
    state = host.held_game(request) if isinstance(request.get("game"), str) else None
    out = {"kind": kind, "table": None, "chat": None, "send": []}
    if kind == "chat":
        out["chat"] = message["text"]
        return out
    if kind == "hello":
        if state is None:
            if seat == 1 and "secret" in message:
                state = friend.start(found, answer, message["secret"])
                out["table"] = table_reply(state, list(state.start_events), seat)
            elif seat == 1:
                raise FriendError(f"{found['name']}'s first message lacks the secret the deal needs.")
        if state is not None and message["n"] < len(all_actions(state)):
            out["send"].append(friend.sync_message(found["id"], state))
        return out
    if kind == "act":
        if state is None:
            raise FriendError("A move arrived before the game started.")
        if message["n"] > len(all_actions(state)):  # moves were lost on the way: ask for the game
            out["send"].append(friend.hello_message(found["id"], len(all_actions(state)),
                                                    secrets[0] if seat == 0 else None))
            return out
        events = friend.receive_act(state, seat, message)
        if events is not None:
            out["table"] = table_reply(state, events, seat)
        return out
    return _take_code(out, message["code"], state, found, answer, seat, secrets)


def open_link(request: dict) -> dict:
    """A move link's ``code`` for the page's friend game (``game`` or null before it starts)."""
    found, answer, seat, secrets = _parts(request)
    state = host.held_game(request) if isinstance(request.get("game"), str) else None
    out = {"kind": "sync", "table": None, "chat": None, "send": []}
    return _take_code(out, request.get("code"), state, found, answer, seat, secrets)


def _take_code(out: dict, code: object, state, found: dict, answer: dict, seat: int, secrets: list) -> dict:
    theirs = friend.read_code(code, seat, secrets)
    events = []
    if state is None:
        inviter = theirs.base_seed[len(friend.SEED_PREFIX):].split(":")[0]
        state = friend.start(found, answer, inviter)
        events = list(state.start_events)
    caught = friend.catch_up(state, seat, theirs)
    if caught is not None or events:
        out["table"] = table_reply(state, events + (caught or []), seat)
    return out


def resume(request: dict) -> dict:
    """A friend ``game`` kept on the device, replayed and checked, for its ``seat``: the table as it is."""
    seat = _seat(request)
    answer = host.resume({"game": _text(request, "game"), "seat": seat})
    state = host.held_game({"game": answer["game"]})
    return dict(table_reply(state, [], seat), view_before=None)


def code_of(request: dict) -> dict:
    """The move link's code for the page's friend ``game``: the whole game so far."""
    _text(request, "game")
    code = friend.share.encode(host.held_game(request))
    return {"code": code, "length": len(code)}


def code_id(request: dict) -> dict:
    """The friend game a move link's ``code`` belongs to, read from the inviter's secret in it
    (the code is checked in full once the page has the game's invitation)."""
    theirs = friend.share.decode(request.get("code"))
    seed = theirs.base_seed
    if not seed.startswith(friend.SEED_PREFIX) or len(seed.split(":")) != 3:
        raise FriendError("This link is not a friend game's.")
    inviter = seed.split(":")[1]
    if not friend.fairdeal.is_normal_seed(inviter):
        raise FriendError("This link is not a friend game's.")
    return {"id": friend.game_id(friend.commitment(inviter)), "names": theirs.names,
            "moves": len(all_actions(theirs))}
