"""The engine's JSON-in, JSON-out face: the only engine functions the web pages call.

The browser runs the engine in a MicroPython worker (``site_src/workers/engine_worker.py``), which hands
every page message to ``call``. Requests and replies cross between the page and the worker as
JSON text, never as objects.

Adding a function for the pages is one decorated function taking and returning a plain dict::

    @endpoint
    def score_hand(request: dict) -> dict:
        \"\"\"Count a four-card hand with a starter.\"\"\"
        hand = cards.parse_cards(request["hand"], count=4)
        ...
        return result.to_dict()

``endpoint`` registers it under its own name; ``call("score_hand", request_json)`` decodes the
request, runs it and encodes the reply. Bad input raises ``ValueError`` (or
``KeyError``/``TypeError``) with a message fit to show a player; ``call`` turns that into an
error reply instead of an exception.

>>> json.loads(call("ping", "{}"))["result"]["engine"] == ENGINE_VERSION
True
>>> json.loads(call("no_such_thing", "{}"))["error"]["kind"]
'unknown'
"""

import json
import sys

from engine.compat import compact_json, joined_surrogates
from engine.messages import quoted, shortened

ENGINE_VERSION = "0.2.0"
API_VERSION = 1

ENDPOINTS = {}
"""Every function the pages may call, by name: ``func(request: dict) -> dict``."""

BAD_INPUT_ERRORS = (ValueError, KeyError, TypeError)
MAX_MESSAGE = 300  # characters of a bad-input message (they quote at most a short piece of the input)


def parse_request(request_json: "str | None") -> dict:
    """Decode a request: a JSON object (empty text means ``{}``); anything else is a ValueError."""
    if request_json is None or not str(request_json).strip():
        return {}
    try:
        request = json.loads(joined_surrogates(request_json))
    except (ValueError, RuntimeError):  # RuntimeError: nested too deep
        raise ValueError("The request is not valid JSON.") from None
    if not isinstance(request, dict):
        raise ValueError("The request must be a JSON object.")
    return request


def dump_reply(reply: dict) -> str:
    """Encode a reply as compact JSON text."""
    return compact_json(reply)


def endpoint(func):
    """Register ``func(request: dict) -> dict`` as the endpoint of the same name; return func."""
    name = func.__name__
    if name in ENDPOINTS or name == "call":
        raise ValueError(f"An endpoint named {quoted(name)} already exists.")
    ENDPOINTS[name] = func
    return func


def call(name: str, request_json: str = "{}") -> str:
    """Run endpoint ``name``; reply ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": ...}``.

    ``error`` is ``{"kind": "bad_input" | "unknown" | "internal", "message": str}``; a bad-input
    message is written for the player, an internal one says which exception it was.
    """
    func = ENDPOINTS.get(name)
    if func is None:
        return dump_reply(
            {"ok": False, "error": {"kind": "unknown", "message": f"The engine has no function {quoted(name)}."}}
        )
    try:
        result = func(parse_request(request_json))
    except BAD_INPUT_ERRORS as error:
        if isinstance(error, KeyError):
            message = f"The request is missing {quoted(error.args[0])}." if error.args else "The request is incomplete."
        elif isinstance(error, ValueError):
            message = shortened(str(error), MAX_MESSAGE)
        else:  # a TypeError is in Python's own words: say what it means instead
            message = "The request holds a value of the wrong kind."
        return dump_reply({"ok": False, "error": {"kind": "bad_input", "message": message}})
    except Exception as error:  # reported to the page as a clear message, not a traceback
        return dump_reply(
            {
                "ok": False,
                "error": {
                    "kind": "internal",
                    "message": f"The engine failed ({type(error).__name__}: {error}).",
                },
            }
        )
    return dump_reply({"ok": True, "result": result})


def interpreter_name() -> str:
    """The Python running the engine and its version: "CPython 3.11.7", "MicroPython 1.28.0"."""
    impl = sys.implementation
    name = {"cpython": "CPython", "micropython": "MicroPython"}.get(impl.name, impl.name)
    return "%s %d.%d.%d" % ((name,) + tuple(impl.version[:3]))


# --- endpoints -------------------------------------------------------------------------------


@endpoint
def ping(request: dict) -> dict:
    """Answer with the engine, API and Python versions; echo ``request["echo"]`` if given."""
    reply = {
        "engine": ENGINE_VERSION,
        "api": API_VERSION,
        "python": "%d.%d.%d" % tuple(sys.version_info[:3]),
        "interpreter": interpreter_name(),
        "platform": sys.platform,
        "endpoints": sorted(ENDPOINTS),
    }
    if "echo" in request:
        reply["echo"] = request["echo"]
    return reply


# --- the game page (engine/host.py: the people and computers at the table) ------------------


@endpoint
def new_game(request: dict) -> dict:
    """Start a game: ``difficulty`` (easy, hard), ``target`` (121, 61), ``muggins``, and an optional
    practice ``seed``; the reply holds the game's JSON, seat 0's view and the narrated events."""
    from engine import host

    return host.start(request)


@endpoint
def resume_game(request: dict) -> dict:
    """Check a saved ``game`` (JSON text) with engine.record and reply with its view; the check of
    its computers' moves is owed (``checked`` false) and made by ``check_game``."""
    from engine import host

    return host.resume(request)


@endpoint
def check_game(request: dict) -> dict:
    """One step of the check a resumed game still owes (its computers' moves asked for again, one
    a call): ``{"done": bool}``; refused with the reason at a move that is not the computer's."""
    from engine import host

    return host.check_step(request)


@endpoint
def act(request: dict) -> dict:
    """Apply the person's ``action`` to ``game``; an illegal action is refused with the reason."""
    from engine import host

    return host.act(request)


@endpoint
def computer_move(request: dict) -> dict:
    """Let the computer (``difficulty``) choose one action from its own view of ``game`` and apply it."""
    from engine import host

    return host.computer_move(request)


@endpoint
def hint(request: dict) -> dict:
    """The coach's hint for the person to act in ``game`` (engine/coach.py); marks the game hinted."""
    from engine import host

    return host.hint(request)


@endpoint
def prepare_hint(request: dict) -> dict:
    """Work out the person's hint in ``game`` ahead of asking (nothing shown, nothing marked)."""
    from engine import host

    return host.prepare_hint(request)


@endpoint
def review_hand(request: dict) -> dict:
    """A finished hand of ``game`` reviewed for the person: each decision against the best."""
    from engine import host

    return host.review_hand(request)


@endpoint
def review_game(request: dict) -> dict:
    """The ``game`` reviewed for the person: points lost to discards, pegging and miscounts."""
    from engine import host

    return host.review_game(request)


# --- friend games (engine/friend_host.py: two devices, one game) -----------------------------


FRIEND_CALLS = ("invite", "read_invite", "accept", "read_reply", "begin", "move", "hello", "chat", "receive",
                "open_link", "resume", "code_of", "code_id")
"""engine.friend_host's functions, each the endpoint ``friend_<name>`` (see there for what it takes)."""

SEALED_CALLS = ("prepare", "begin", "join", "preview", "work", "move", "hello", "receive", "resume")
"""engine.friend_sealed's functions (a sealed friend game), each the endpoint ``sealed_<name>``."""


def _module_call(module: str, name: str):
    """An endpoint that runs ``engine.<module>.<name>`` (the module imported on first use)."""
    def run(request: dict) -> dict:
        return getattr(__import__("engine." + module, None, None, [name]), name)(request)

    return run


for _name in FRIEND_CALLS:
    ENDPOINTS["friend_" + _name] = _module_call("friend_host", _name)
for _name in SEALED_CALLS:
    ENDPOINTS["sealed_" + _name] = _module_call("friend_sealed", _name)


# --- a friend game through a meeting point (engine/meeting.py) --------------------------------

@endpoint
def meet_key(request: dict) -> dict:
    """A fresh meeting key for a game's invitation and its topic: ``{"key", "topic"}``."""
    from engine import meeting

    key = meeting.new_meet_key()
    return {"key": key, "topic": meeting.topic(key)}


@endpoint
def meet_seal(request: dict) -> dict:
    """A friend game's messages as notes for the meeting point: ``key``, ``tie`` (the reply's
    text, or "" for the reply itself), ``seat`` (the sender's), ``number`` (the first note's),
    ``texts``. Answers ``{"notes", "number"}``, the next note's number after them."""
    from engine import meeting

    number, texts = request.get("number"), request.get("texts")
    if type(number) is not int or number < 0 or not isinstance(texts, list):
        raise ValueError("A note's number is a whole number and its texts a list.")
    notes = meeting.seal_notes(request.get("key"), _tie(request.get("tie")), request.get("seat"), number, texts)
    return {"notes": notes, "number": number + len(notes)}


@endpoint
def meet_open(request: dict) -> dict:
    """Notes from the meeting point, for the mailbox of the other seat: ``key``, ``tie`` (null
    before the reply is read), ``seat`` (the sender's), ``box`` (the mailbox, null for a new one),
    ``notes``. Answers ``{"box", "texts", "waiting", "refused"}`` (meeting.open_notes)."""
    from engine import meeting

    key, notes, box = request.get("key"), request.get("notes"), request.get("box")
    meeting.parse_meet_key(key)
    tie = request.get("tie")
    if not isinstance(notes, list) or (tie is not None and not isinstance(tie, str)):
        raise ValueError("The notes to open are a list, and the tie a text or null.")
    box = meeting.new_box() if box is None else box
    if not meeting.is_box(box):
        raise ValueError("This game's mailbox for the meeting point is damaged.")
    texts, waiting, refused = meeting.open_notes(key, tie, request.get("seat"), box, notes)
    return {"box": box, "texts": texts, "waiting": waiting, "refused": refused}


def _tie(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("A note's tie is a text.")
    return value


@endpoint
def qr_code(request: dict) -> dict:
    """The QR code of ``text`` (an invitation link): ``{"size": modules a side, "path": an SVG path
    of the dark modules}``, the quiet zone left to the page (engine/qr.py)."""
    from engine import qr

    size, path = qr.qr_path(request.get("text"))
    return {"size": size, "path": path}


# --- the hand calculator, the discard helper and the deal verifier ----------------------------

SHOW_CARDS = 5  # four in the hand or crib, then the starter


def _card_display(card: int) -> dict:
    """One card for the page: its int and its display data (``cards.card_info``)."""
    from engine import cards

    return dict(cards.card_info(card), card=card)


def _card_tokens(value: object, what: str) -> list:
    """Cards as given in a request (text separated by spaces or commas, or a list) as a list."""
    if isinstance(value, str):
        return value.replace(",", " ").replace(";", " ").split()
    if isinstance(value, list):
        return value
    raise ValueError(f"{what} must be card names such as 5H or 10♠, not {type(value).__name__}")


def _flag(request: dict, key: str, default: bool = False) -> bool:
    """A yes/no field: true/false, or 1/0 as a URL carries it."""
    value = request.get(key, default)
    if value in (True, 1, "1", "true"):
        return True
    if value in (False, 0, "0", "false", None, ""):
        return False
    raise ValueError(f"{key} must be true or false, not {quoted(value)}")


@endpoint
def score_hand(request: dict) -> dict:
    """Count a hand or crib: ``{hand, starter, crib}``, or ``{cards, crib}`` with the starter last.

    The reply is ``score_show(...).to_dict()`` plus display data: ``hand_cards`` and
    ``starter_card`` (``_card_display``) and ``pretty`` names on every item.
    """
    from engine import cards, scoring

    if "cards" in request:
        tokens = _card_tokens(request["cards"], "cards")
        if len(tokens) != SHOW_CARDS:
            raise ValueError(f"Enter five cards: the four in the hand, then the starter (got {len(tokens)}).")
    else:
        tokens = _card_tokens(request["hand"], "hand")
        if len(tokens) != SHOW_CARDS - 1:
            raise ValueError(f"A hand has four cards (got {len(tokens)}).")
        starter = request["starter"]
        if isinstance(starter, str) and len(starter.split()) != 1:
            raise ValueError("The starter is one card, such as 5C.")
        tokens = tokens + [starter]
    dealt = cards.parse_cards(tokens, count=SHOW_CARDS)  # clear messages for unknown and repeated cards
    result = scoring.score_show(dealt[:4], dealt[4], crib=_flag(request, "crib")).to_dict()
    for item in result["items"]:
        item["pretty"] = [cards.card_pretty(c) for c in item["cards"]]
    result["hand_cards"] = [_card_display(c) for c in dealt[:4]]
    result["starter_card"] = _card_display(dealt[4])
    return result


@endpoint
def discard_options(request: dict) -> dict:
    """Rank every way to keep four of the dealt cards: ``{cards, dealer}``, best net first.

    Each option is ``DiscardOption.to_dict()`` plus ``rank`` and display data for the kept and
    thrown cards, sorted by rank (engine.analysis.discard_options does the work).
    """
    from engine import analysis, cards

    dealt = cards.parse_cards(_card_tokens(request["cards"], "cards"))
    if len(dealt) != 6:
        raise ValueError(f"Pick the six cards you were dealt (got {len(dealt)}).")
    dealer = _flag(request, "dealer")
    options = []
    for rank, option in enumerate(analysis.discard_options(dealt, is_dealer=dealer), start=1):
        reply = option.to_dict()
        reply["rank"] = rank
        reply["keep_cards"] = [_card_display(c) for c in sorted(option.keep, key=cards.display_order)]
        reply["throw_cards"] = [_card_display(c) for c in sorted(option.throw, key=cards.display_order)]
        options.append(reply)
    return {"cards": [_card_display(c) for c in dealt], "dealer": dealer, "options": options}


@endpoint
def verify_deal(request: dict) -> dict:
    """Check a revealed ``seed`` against an optional ``commitment`` and list its 52 cards in order.

    ``matches`` is null when no commitment is given; ``cards`` holds position (from 1), card,
    name, pretty, spoken and owner (pone, dealer, starter, rest), as ``python -m engine deck``.
    """
    from engine import fairdeal

    seed = fairdeal.parse_seed(request["seed"])
    given = request.get("commitment")
    if given is not None and not isinstance(given, str):
        raise ValueError("The commitment must be text of 64 hex digits.")
    given = fairdeal.parse_commitment(given) if given and given.strip() else None
    players = request.get("players", 2)
    dealer = request.get("dealer", 0)
    owners = fairdeal.deal_owners(players, dealer)
    deck = fairdeal.shuffled_deck(seed)
    committed = fairdeal.commitment(seed)
    return {
        "seed": seed,
        "commitment": committed,
        "given_commitment": given,
        "matches": None if given is None else fairdeal.verify(seed, given),
        "players": players,
        "dealer": dealer,
        "cards": [dict(_card_display(card), position=i + 1, owner=owner)
                  for i, (card, owner) in enumerate(zip(deck, owners))],
    }


# --- game records: codes to share, replays, the deal of the day (engine/share.py, replay.py) ----

REPLAY_SEAT_HIDDEN = ("This game is not over yet, so its replay is seen from the player's own seat: "
                      "the computer's cards stay hidden until each hand is over.")


def _replayed(state, viewer=None) -> dict:
    """A game for the replay view: its steps as ``viewer`` (a seat) saw them, seating and the
    display data of every card.

    What the game is follows from the game itself: ``daily`` is the day of a deal of the day
    under its rules (``daily.day_of``), ``lab`` ``{"bot", "opponent"}`` for a game in which one
    seat played exactly as a bot lab match's computer would (``lab.lab_opponent``), whatever
    the link says. A seat the game may not be seen from yet (``replay.may_view``: a computer's,
    while the game is on) gives way to the first person's, with ``notice`` saying why."""
    from engine import daily, lab as bot_lab, narration, replay, share

    lab = bot_lab.lab_opponent(state)
    notice = None
    if viewer is not None and not replay.may_view(state, viewer):
        viewer, notice = None, REPLAY_SEAT_HIDDEN
    if viewer is None:
        viewer = lab[0] if lab is not None else replay.first_viewer(state)
    steps = replay.replay_steps(state, viewer)
    seating = narration.Seating.of(state)
    return {"code": share.encode(state), "steps": steps, "viewer": viewer, "players": state.players,
            "target": state.target,
            "names": list(seating.names), "seats": list(state.seats), "practice": state.practice,
            "daily": daily.day_of(state), "over": state.is_over, "scores": state.scores,
            "lab": None if lab is None else {"bot": lab[0], "opponent": lab[1]}, "notice": notice,
            "result": narration.result(state, seating),
            "cards": {str(c): narration.card_info(c) for c in range(52)}}


@endpoint
def share_code(request: dict) -> dict:
    """The code of a saved ``game`` (its JSON text): ``{"code", "length"}``."""
    from engine import host, share

    code = share.encode(host.held_game(request))
    return {"code": code, "length": len(code)}


@endpoint
def replay_game(request: dict) -> dict:
    """A game to replay, from a shared ``code`` or a saved ``game``: its steps and the code.

    ``seat`` (optional) is the seat it is seen from: its cards face up, at the bottom of the
    table (by default the first person's seat, else seat 0; a bot lab game's from the bot's).
    A game not yet over is seen only from a person's seat (``_replayed``).

    A code's computer moves are taken as it writes them down, each a legal move, and
    ``checked`` is false when some were (``share.is_checked``): the page shows the game, then
    asks ``check_code`` whether every one is the computer's own."""
    from engine import share
    from engine.record import from_json

    if "code" in request:
        state = share.decode(request["code"], check=False)
        checked = share.is_checked(request["code"])
    else:
        state, checked = from_json(request["game"]), True
    seat = request.get("seat")
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise ValueError("not a seat of this game: " + str(seat)[:8])
    reply = _replayed(state, seat)
    reply["checked"] = checked
    return reply


@endpoint
def check_code(request: dict) -> dict:
    """Check a shared ``code`` whole, each computer's move asked for again: ``{"checked": true}``,
    or refused (bad input) with the first move that is not the computer's own."""
    from engine import share

    share.decode(request["code"])
    return {"checked": True}


@endpoint
def code_seats(request: dict) -> dict:
    """Who sits where in the game a shared ``code`` holds, read without replaying it: ``seats``,
    each "person" or a computer's level (a page picks where to replay a game by it)."""
    from engine import share

    return {"seats": share.code_seats(request["code"])}


@endpoint
def daily_seed(request: dict) -> dict:
    """The deal of the day's rule for a ``day`` (YYYY-MM-DD) and a ``hand`` (from 1): its seed
    and commitment, and the game's own practice seed."""
    from engine import daily, fairdeal

    day, hand = request["day"], request.get("hand", 1)
    seed = daily.hand_seed(day, hand)
    return {"day": day, "hand": hand, "game_seed": daily.game_seed(day), "seed": seed,
            "commitment": fairdeal.commitment(seed), "level": daily.daily_level(),
            "target": daily.DAILY_TARGET}


@endpoint
def daily_result(request: dict) -> dict:
    """A finished deal of the day (``game``, its JSON text) as the page keeps and shares it:
    engine/daily.py's result with the game's ``code``. ``started`` is the day (YYYY-MM-DD) the
    page started the game: a game started on another day than its deal's counts for none, and
    is refused with the reason (``daily.counted_day``)."""
    from engine import daily, host, share

    state = host.checked_game(request)
    reply = daily.result(state)
    reason = daily.not_counted_reason(state, request.get("started"))
    if reason is not None:
        raise ValueError(reason)
    reply["code"] = share.encode(state)
    return reply


@endpoint
def daily_stats(request: dict) -> dict:
    """The stored daily results (``days``, not trusted: bad entries are left out) and the
    streak up to ``today`` (YYYY-MM-DD): ``{"days", "played", "won", "current", "best", "today"}``."""
    from engine import daily

    days = daily.check_days(request.get("days"))
    reply = daily.streak(days, request["today"])
    reply["days"] = days
    return reply


# --- the player's statistics (engine/stats.py; the person is seat 0) --------------------------


@endpoint
def stats_check(request: dict) -> dict:
    """Check stored statistics text (``stats_text``; null for a fresh record).

    Replies ``{"stats", "notice", "kept_aside", "problem"}``: ``stats`` is the record to use;
    ``kept_aside`` is true when the stored text is no record (the page keeps it under a backup
    key before saving anything over it; ``problem`` says why, for the console); ``notice`` is a
    sentence for the player, or None. Unknown fields and an overlong recent list are mended
    rather than refused.
    """
    from engine import stats

    text = request.get("stats_text")
    if text is not None and not isinstance(text, str):
        raise ValueError("stats_text must be text or null.")
    checked = stats.check_stats_text(text)
    refused = checked["problem"] is not None
    notice = stats.RESET_NOTICE if refused else (stats.REPAIR_NOTICE if checked["mended"] else None)
    return {"stats": checked["stats"], "notice": notice, "kept_aside": refused,
            "problem": checked["problem"], "mended": checked["mended"]}


@endpoint
def stats_record(request: dict) -> dict:
    """Add a finished ``game`` (its JSON text) to ``stats``, at the level its computer played.

    ``stats`` null means a fresh record. Replies ``{"stats", "recorded", "summary"}``; recorded is
    false when the same game was already counted. An unfinished game is refused.
    """
    from engine import host, stats

    game = request["game"]
    if isinstance(game, str):  # the page's game: the one held, its owed check made first
        game = host.checked_game(request)
    seat = request.get("seat", 0)
    current = stats.new_stats() if request.get("stats") is None else stats.parse_stats(request["stats"])
    summary = stats.game_summary(game, request.get("difficulty"), seat)
    updated = stats.record_game(current, summary)
    return {"stats": updated, "recorded": summary["id"] not in current["recent"], "summary": summary}


WARM_UP_MODULES = {
    "game": ("engine.host", "engine.analysis", "engine.players", "engine.stats", "engine.friend_host"),
    "calculator": (),
    "verifier": ("engine.fairdeal",),
    "replay": ("engine.replay", "engine.share"),
}
"""What each page's calls import (the game and its opponents, the verifier's deal, the replay's
codes); a request naming no page warms them all. The calculator's first call, a link's count, needs
only the scoring its worker imports as it starts: its discard ranking imports ``engine.analysis``
at its own first call, rather than before the count. A sealed friend game's modules are imported
by ``sealed_prepare``, before the game begins."""

WARM_UP_TABLES = ("replay",)
"""The pages whose first calls count show totals (the replay's check of the computer's moves):
their warm-up builds the show table as well. The other pages' first calls need no table (a deal,
a game resumed, the calculator's count of one hand), so their worker builds it once idle
(site_src/workers/engine_worker.py: ``idle``); a call that needs it sooner (a discard ranking
from the calculator's address) builds it then."""


@endpoint
def warm_up(request: dict) -> dict:
    """Import the modules and build the tables a page's first calls need, so they answer at once.

    ``page`` ("game", "calculator", "verifier" or "replay"; any other or none means all of them)
    chooses what. The engine's worker runs this as soon as it has started, while the page's own
    Python is still starting. Answers ``{"modules", "tables"}``: the modules imported, and whether
    the show table was built (``WARM_UP_TABLES``).
    """
    page = request.get("page")
    names = WARM_UP_MODULES.get(page) if isinstance(page, str) else None
    tables = names is None or page in WARM_UP_TABLES
    if names is None:
        names = sorted(set(name for group in WARM_UP_MODULES.values() for name in group))
    for name in names:
        __import__(name)
    if tables:
        from engine import scoring

        scoring.build_tables()
    return {"modules": list(names), "tables": tables}
