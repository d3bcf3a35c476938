"""The game page's host: new games, actions and resumed games answered with replies for the page.

A game seats two to four players, people and computers by level (people sharing one device
play "pass and play"; a friend game's page holds one seat of two). The page keeps the game's
JSON and sends it with every request; these functions load it, apply one action and answer
with a ``reply`` for one person's seat (``seat``, by default the first person's)::

    {"game": <to_json text>, "view": <view(seat), count hints removed>, "events": [events_for(seat),
     each with "say": the words to announce], "to_act": a seat or None, "awaiting": "discard" |
     "play" | "claim" | "count" | "computer" | "over", "cards": {"<int>": card display data for every
     card the reply mentions}, "practice": bool, "practice_seed": str | None, "outcome": the
     result in words once the game is over, "result": its parts for a banner (see ``result``)}

The view never holds a card that seat may not see. In the muggins count and claim phases the
engine's legal actions (every claim from 0 to 29) are dropped from the view, and ``awaiting``
says a count (of a hand or crib) or a claim (for the card just laid) is due. Narration follows how players speak at the table:
"fifteen for two", "a pair royal for six", "one for the go", "one for last".

>>> reply = start({"difficulty": "easy", "target": 61, "muggins": False, "seed": "doc"})
>>> reply["view"]["phase"], reply["awaiting"], reply["practice"], len(reply["view"]["hand"])
('discard', 'discard', True, 6)
>>> [e["type"] for e in reply["events"]][:3]
['cut', 'deal', 'hand']
"""

from engine import record
from engine.compat import strict_json
from engine.game import MAX_SEED_TEXT, PERSON, PLAYER_COUNTS, TARGETS, GameState, events_for, new_game
from engine.record import from_json
from engine.messages import quoted, visible_text
from engine.narration import (DEFAULT_SEATING, YOUR_SEAT, Seating, card_info, display_order, dress_show, event_cards,
                              game_over_words, narrate, result, view_cards)
from engine.players import PLAYER_NAMES



MAX_NAME = 20  # characters in a pass-and-play player's name


SAVED_GAME_UNREADABLE = "Your saved game could not be resumed."


def page_view(state: GameState, seat: int = YOUR_SEAT, view: dict | None = None) -> dict:
    """A seat's view for the page (or ``view``, taken earlier): cards in display order, shows
    with labels, no list of counts in a muggins claim (the person types the points)."""
    view = state.view(seat) if view is None else view
    view["hand"] = sorted(view["hand"], key=display_order)
    if view["revealed"]:
        view["revealed"]["held"] = [sorted(h, key=display_order) for h in view["revealed"]["held"]]
    if view["phase"] in ("count", "claim"):
        view["legal_actions"] = []
    for shown in view["shown"]:
        dress_show(shown)
    return view


def awaiting(state: GameState, seating: Seating = DEFAULT_SEATING) -> str:
    """What the game waits for: "discard", "play", "claim" or "count" from a person, "computer",
    "over"."""
    if state.is_over:
        return "over"
    if state.seats[state.to_act] != PERSON:
        return "computer"
    return state.phase


def reply(state: GameState, events: list[dict], seating: Seating = DEFAULT_SEATING,
          seat: int = YOUR_SEAT) -> dict:
    """The answer to the page after a new game, an action or a resume (see the module doc).

    With two people at the table (pass and play) the events carry nothing private (no dealt
    hands): each person's cards come only in the view of their own seat, asked for by ``seat``.
    """
    view = page_view(state, seat)
    if seating.passing:
        mine = [e for e in events if "visible_to" not in e]
    else:
        mine = events_for(seat, events)
    shown = narrate(mine, seating)
    for e in shown:
        if e["type"] == "hand":
            e["cards"] = sorted(e["cards"], key=display_order)
    cards = view_cards(view) | event_cards(shown)
    text = state.to_json()
    _remember(text, state)
    answer = {
        "game": text,
        "view": view,
        "events": shown,
        "to_act": state.to_act,
        "awaiting": awaiting(state, seating),
        "cards": {str(c): card_info(c) for c in sorted(cards)},
        "seats": list(state.seats),
        "practice": state.practice,
        "practice_seed": state.base_seed if state.practice else None,
        "outcome": None if not state.is_over else game_over_words(
            {"winner": state.winner, "scores": state.scores, "skunks": state.skunks, "target": state.target},
            seating),
        "result": result(state, seating),
    }
    if state.players != 2 or seating.passing:
        answer.update({"players": state.players, "seat": seat, "humans": list(seating.humans),
                       "names": list(seating.names), "pass_and_play": seating.passing})
    return answer


def _difficulty(request: dict) -> str:
    difficulty = request.get("difficulty", "easy")
    if difficulty not in PLAYER_NAMES:
        names = ", ".join(PLAYER_NAMES[:-1]) + " or " + PLAYER_NAMES[-1]
        raise ValueError(f"The computer plays {names}, not {quoted(difficulty)}.")
    return difficulty


_LAST = {"text": None, "state": None}
"""The game of the last reply, by its text: the page sends that text back with its next call,
which then needs no replay of the whole game. Only an exact match of the text is used."""


def _remember(text: str, state: GameState) -> None:
    _LAST["text"], _LAST["state"] = text, state


def _load(request: dict) -> GameState:
    """The request's game: the last reply's (the same text) or its record replayed and checked."""
    text = request.get("game")
    if not isinstance(text, str):
        raise ValueError("The request has no game (the game's JSON text).")
    if text == _LAST["text"]:
        state = _LAST["state"]
        _remember(None, None)  # it is about to change; the reply remembers the new text
        return state
    return from_json(text)


def _peek(request: dict) -> GameState:
    """The request's game for a question that leaves it as it is (the last reply's stays known)."""
    text = request.get("game")
    if not isinstance(text, str):
        raise ValueError("The request has no game (the game's JSON text).")
    if text != _LAST["text"]:
        _remember(text, from_json(text))
    return _LAST["state"]


def held_game(request: dict) -> GameState:
    """The request's ``game`` for any caller: the last reply's state when the text is the same
    (no replay), else its record replayed and checked. A game just resumed may still owe the
    check of its computers' moves (``check_step``); ``checked_game`` settles it first."""
    return _peek(request)


_OWED = {"state": None, "moves": None}
"""The check a resumed game still owes (``resume``): the game held as it was resumed (the same
object while it is played on) and its computers' moves still to be asked for again
(record.check_computers). Another game held owes nothing."""


def _owe(state: GameState) -> bool:
    """Note the check ``state``, replayed without it, owes; True if it owes none."""
    owes = any(kind != PERSON for kind in state.seats)
    _OWED["state"], _OWED["moves"] = (state, record.check_computers(state)) if owes else (None, None)
    return not owes


def _settle(steps: int) -> bool:
    """Ask ``steps`` more of the held game's computer moves again (-1: all); True once none is
    owed. A move that is not the computer's own refuses the game, as ``resume`` would have."""
    state = _LAST["state"]
    if state is None or _OWED["state"] is not state:
        return True
    try:
        while steps != 0:
            next(_OWED["moves"])
            steps -= 1
        return False
    except StopIteration:
        _OWED["state"] = _OWED["moves"] = None
        return True
    except ValueError as error:
        _OWED["state"] = _OWED["moves"] = None
        _remember(None, None)
        raise ValueError(f"{SAVED_GAME_UNREADABLE} ({error})") from None


def check_step(request: dict) -> dict:
    """One step of the check the game held still owes since it was resumed: one of its
    computers' moves asked for again. ``{"done": true}`` once nothing is owed (or another game
    is held); refused, as a saved game that cannot be resumed, at a move that is not the
    computer's own."""
    return {"done": _settle(1)}


def checked_game(request: dict) -> GameState:
    """``held_game``, with any check it still owes made first (for what counts a game)."""
    state = held_game(request)
    _settle(-1)
    return state


def seating_request(request: dict, players: int) -> "list[str] | None":
    """The people's names for a new game shared on one device (``pass_and_play``), else None."""
    passing = request.get("pass_and_play", False)
    if not isinstance(passing, bool):
        raise ValueError("Pass and play is on or off (true or false).")
    if not passing:
        return None
    if players != 2:
        raise ValueError("Two people can share one device in a two-player game only.")
    names = request.get("names")
    if not isinstance(names, list) or len(names) != 2:
        raise ValueError("Pass and play needs the two players' names.")
    clean = []
    for k, name in enumerate(names):
        name = visible_text(name) if isinstance(name, str) else ""
        if not name:
            raise ValueError(f"Player {k + 1} needs a name.")
        if len(name) > MAX_NAME:
            raise ValueError(f"A name is at most {MAX_NAME} characters: {name[:MAX_NAME]}\u2026")
        clean.append(name)
    if _ascii_lower(clean[0]) == _ascii_lower(clean[1]):
        raise ValueError("The two players need different names.")
    return clean


def _ascii_lower(text: str) -> str:
    """Text with A-Z lowered and every other character kept (the same in every interpreter)."""
    return "".join(chr(ord(ch) + 32) if "A" <= ch <= "Z" else ch for ch in text)


def _seat(request: dict, state: GameState) -> int:
    """The seat whose view the reply carries: ``seat`` (a person's seat), else the first person."""
    seat = request.get("seat", state.seats.index(PERSON))
    if type(seat) is not int or not 0 <= seat < state.players or state.seats[seat] != PERSON:
        raise ValueError(f"Seat {quoted(seat)} is not a person's seat at this table.")
    return seat


def start(request: dict) -> dict:
    """A new game: options difficulty, target (121 or 61), muggins, players (2, 3 or 4),
    pass_and_play with names (two people, one device), and seed for a practice game."""
    difficulty = _difficulty(request)
    target = request.get("target", 121)
    if type(target) is not int or target not in TARGETS:
        raise ValueError("The game is played to 121 or to 61 points.")
    muggins = request.get("muggins", False)
    if not isinstance(muggins, bool):
        raise ValueError("Muggins is on or off (true or false).")
    players = request.get("players", 2)
    if type(players) is not int or players not in PLAYER_COUNTS:
        raise ValueError("A game is for 2, 3 or 4 players.")
    names = seating_request(request, players)
    seats = [PERSON] * players if names is not None else [PERSON] + [difficulty] * (players - 1)
    seed = request.get("seed")
    if seed is not None and (not isinstance(seed, str) or not seed.strip() or len(seed) > MAX_SEED_TEXT):
        raise ValueError(f"A practice seed is 1 to {MAX_SEED_TEXT} characters of text.")
    state = new_game(seed=seed.strip() if seed else None, target=target, muggins=muggins, players=players,
                     seats=seats, names=names)
    return reply(state, state.start_events, Seating.of(state), _seat(request, state))


def resume(request: dict) -> dict:
    """A saved game, replayed and checked (engine.record), with the view of ``seat``.

    The check that each seated computer made its own moves is owed, not made (the expert's take
    seconds in MicroPython): ``checked`` is false while any is owed, and the page then asks for
    ``check_step`` until it is done; what counts the game (``checked_game``) makes it first.

    The reply's events are those since a person last acted, and ``view_before`` the seat's
    view just before that (null if nobody has acted yet): the page shows them again from
    there, so a reload comes back to the table as it was, from the game itself.
    """
    text = request.get("game")
    if not isinstance(text, str):
        raise ValueError("The request has no game (the game's JSON text).")
    try:
        data = strict_json(text)  # as strict in MicroPython as in CPython (engine.compat)
    except (ValueError, RuntimeError):
        data = None
    try:
        state, events, before = record.replay(data, tail=True, check=False)
    except ValueError as error:
        raise ValueError(f"{SAVED_GAME_UNREADABLE} ({error})") from None
    seating = Seating.of(state)
    seat = _seat(request, state)
    answer = reply(state, events, seating, seat)
    answer["checked"] = _owe(state)
    answer["view_before"] = None if before is None else page_view(state, seat, before(seat))
    if answer["view_before"] is not None:
        answer["cards"].update({str(c): card_info(c) for c in sorted(view_cards(answer["view_before"]))})
    if request.get("log") is True:  # the page's game log, up to the moves it shows again
        again = len([e for e in answer["events"] if e["say"]])
        lines = said(state, seating, seat)
        answer["said"] = lines[:len(lines) - again] if again else lines
    return answer


def said(state: GameState, seating: Seating = DEFAULT_SEATING, seat: int = YOUR_SEAT) -> list[str]:
    """Every line said to ``seat`` so far in the game, in order, as the page said them when they
    happened (the events a seat may see, narrated): the game log, rebuilt from the game.

    >>> game = new_game(seed="said-doc", seats=[PERSON, "easy"])
    >>> lines = said(game)
    >>> lines[-1].startswith("Your six cards")
    True
    """
    game = record.restart(state)
    events = list(game.start_events)
    for move in record.replay_moves(state, game):
        events.extend(move.apply())
    mine = [e for e in events if "visible_to" not in e] if seating.passing else events_for(seat, events)
    return [e["say"] for e in narrate(mine, seating) if e["say"]]


def act(request: dict) -> dict:
    """Apply a person's action (``seat``, default the first person's); an illegal one, or one for
    a computer's seat, is refused with the reason."""
    state = _load(request)
    seat = _seat(request, state)
    action = request.get("action")
    if not isinstance(action, dict):
        raise ValueError("The request has no action.")
    if state.is_over:
        raise ValueError("The game is over: start a new one.")
    seating = Seating.of(state)
    if state.to_act != seat:
        if state.seats[state.to_act] == PERSON:
            raise ValueError(f"It is {seating.subject(state.to_act)}'s turn.")
        raise ValueError("It is the computer's turn, not yours.")
    move = dict(action)
    move["seat"] = seat
    events = state.apply(move)
    return reply(state, events, seating, seat)


def computer_move(request: dict) -> dict:
    """Let the computer to act choose from its own view (at the level it was seated with) and apply
    its one action; refused when a person is to act."""
    state = _load(request)
    if state.is_over:
        raise ValueError("The game is over: start a new one.")
    seat = state.to_act
    level = state.seats[seat]
    if level == PERSON:
        raise ValueError("It is your turn, not the computer's.")
    events = state.apply(record.computer_action(state))
    return reply(state, events, Seating.of(state), _seat(request, state))


# --- the coach (engine/coach.py) -------------------------------------------------------------


_PREPARED = {"key": None, "hint": None}
"""The hint worked out last, by (game text, seat): ``prepare_hint`` works it out while the person
looks at the cards, and ``hint`` then answers at once. Only an exact match of the text is used."""


def _hintable(state: GameState, seat: int) -> bool:
    return not state.is_over and state.to_act == seat and state.phase in ("discard", "play")


def _work_out_hint(text: str, state: GameState, seat: int) -> dict:
    """The hint for the seat to act (see ``hint``), kept as the one prepared."""
    from engine import coach

    if _PREPARED["key"] == (text, seat):
        return _PREPARED["hint"]
    view = state.view(seat)
    if state.phase == "discard":
        found = coach.discard_hint(view)
        for rank, option in enumerate(found["options"], start=1):
            option["rank"] = rank
            option["keep_cards"] = [card_info(c) for c in sorted(option["keep"], key=display_order)]
            option["throw_cards"] = [card_info(c) for c in sorted(option["throw"], key=display_order)]
    else:
        found = coach.play_hint(view)
    found["phase"] = state.phase
    found = {"hint": found, "cards": {str(c): card_info(c) for c in sorted(view["hand"])}}
    _PREPARED["key"], _PREPARED["hint"] = (text, seat), found
    return found


def hint(request: dict) -> dict:
    """The coach's hint for the person to act (``seat``): the discards ranked, or the cards to lay
    with their reasons. The game is marked as played with hints: the reply's ``game`` is its new
    text, which the page keeps."""
    state = _peek(request)
    seat = _seat(request, state)
    if not _hintable(state, seat):
        raise ValueError("The coach has a hint only for your discard or your next card.")
    found = _work_out_hint(request["game"], state, seat)
    state.hinted = True
    text = state.to_json()
    _remember(text, state)
    _PREPARED["key"] = (text, seat)  # the same hint, should it be asked for again
    return {"hint": found["hint"], "game": text, "cards": found["cards"]}


def prepare_hint(request: dict) -> dict:
    """Work out the hint for the person to act (``seat``) before it is asked for, so that asking
    shows it at once: ``{"ready": bool}``. Nothing is shown and the game is not marked."""
    state = _peek(request)
    seat = _seat(request, state)
    if not _hintable(state, seat):
        return {"ready": False}
    _work_out_hint(request["game"], state, seat)
    return {"ready": True}


def _review_cards(review: dict) -> dict:
    """Display data for every card a review mentions."""
    seen = set()
    for decision in review.get("decisions", []) + review.get("worst", []):
        for key in ("cards", "threw", "best", "card", "kept", "counted", "starter"):
            value = decision.get(key)
            if isinstance(value, list):
                seen.update(value)
            elif isinstance(value, int) and not isinstance(value, bool):
                seen.add(value)
    return {str(c): card_info(c) for c in sorted(seen)}


def review_hand(request: dict) -> dict:
    """A finished hand (``hand_number``, default the last one finished) reviewed for ``seat``."""
    from engine import coach

    state = _peek(request)
    seat = _seat(request, state)
    number = request.get("hand_number", state.hand_number if state.is_over else state.hand_number - 1)
    review = coach.review_hand(state, number, seat)
    review["cards"] = _review_cards(review)
    return review


def review_game(request: dict) -> dict:
    """The whole game so far reviewed for ``seat``: totals, each hand's, the costliest decisions."""
    from engine import coach

    state = _peek(request)
    seat = _seat(request, state)
    review = coach.review_game(state, seat)
    review["cards"] = _review_cards(review)
    review["over"] = state.is_over
    return review
