"""Bots written in Python: a ``choose(view, legal_actions)`` function seated as a player.

A bot is a Python file (or text) that defines one function::

    def choose(view, legal_actions):
        return legal_actions[0]

The game calls it whenever the bot's seat must decide, with ``view``, everything that seat may
know (a plain dict, the same as the engine's own players get), and ``legal_actions``, the list
of every move allowed now. It returns one of those actions. There are two kinds of decision in
a two-player game:

- the discard: every action is ``{"type": "discard", "cards": [a, b]}``, the two cards thrown
  to the crib (15 choices from six cards);
- the play: every action is ``{"type": "play", "card": c}``, one card that fits under 31. A
  seat with no card that fits says go by itself: the bot is never asked.

A match with muggins adds two more: ``{"type": "claim", "points": n}`` for the points of the
card the bot has just laid (``view["claiming"]``), and ``{"type": "count", "points": n}`` for
the hand or crib it shows (``view["counting"]``), each n from 0 to 29; points missed, and points
claimed too many, go to the other side (``engine.players.choose_claim`` and ``choose_count``
claim exactly).

Cards are whole numbers 0 to 51: ``rank = card % 13`` (0 is the ace, 12 the king) and
``suit = card // 13`` (clubs, diamonds, hearts, spades). ``engine.cards`` names them
(``card_name(c)`` gives "5H") and holds ``RANK_OF``, ``SUIT_OF`` and ``VALUE_OF`` (the count
value: face cards are 10). The fields a bot uses most:

- ``view["hand"]``: its cards not yet laid; ``view["seat"]``, ``view["dealer"]``: whose crib
  it is (``view["seat"] == view["dealer"]`` when the crib is the bot's);
- ``view["scores"]`` by seat and ``view["target"]`` (121);
- in the play, ``view["count"]`` (0 to 31), ``view["current"]``, the ``[seat, card]`` pairs laid
  since the count last went back to 0, and ``view["laid"]``, every card laid this hand;
- ``view["starter"]``: the card cut, or None during the discard.

Helpers worth importing: ``engine.analysis.discard_options(hand, is_dealer)`` ranks every
discard by its exact expected points; ``engine.players.peg_points(ranks, count)`` gives the
points the last card of a count makes; ``engine.scoring.score_show(hand, starter)`` counts a
hand; ``engine.players.get_player("hard").choose(view, legal_actions)`` asks the engine's own
player, to copy or to beat.

The bot gets its own copies of the view and the actions (changing them changes nothing in the
game). An answer that is not one of the legal actions, or an exception (``SystemExit`` and
``KeyboardInterrupt`` among them), stops the match with a message naming the bot's line at fault
(``BotError``).

To play your bot against the engine's players on your own computer, from a copy of the site's
source: ``python -m engine match --bot mybot.py hard --games 100``.
"""

import os

BOT_FILE = "bot.py"  # the file name a bot's tracebacks give when its source has none
FUNCTION = "choose"
MAX_SHOWN_ACTIONS = 4  # legal actions listed in the message about an answer that is not one


class BotError(ValueError):
    """A bot that cannot play: it does not compile, raised an exception or answered wrongly.

    ``message`` says what went wrong in one line; ``line`` is the bot's line at fault (None if
    not the bot's own); ``frames`` are the bot's own frames, outermost first, as
    ``(line_number, function, source_line)``; ``kind`` is "syntax", "exception", "answer"
    (not a legal action) or "missing" (no choose function or no file).
    """

    def __init__(self, message: str, kind: str = "exception", line: int | None = None,
                 frames: list | None = None, filename: str = BOT_FILE) -> None:
        """Hold what went wrong and where."""
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.line = line
        self.frames = list(frames or [])
        self.filename = filename

    def __reduce__(self):
        return (BotError, (self.message, self.kind, self.line, self.frames, self.filename))

    def report(self) -> str:
        """The error as a short traceback of the bot's own lines, then the message."""
        lines = []
        if self.frames:
            lines.append("Traceback (the bot's own lines, most recent call last):")
            for number, function, text in self.frames:
                where = f"  {self.filename}, line {number}" + (f", in {function}" if function != "<module>" else "")
                lines.append(where)
                if text:
                    lines.append("    " + text.strip())
        lines.append(self.message)
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """The error as a JSON-ready dict (message, kind, line, frames, report)."""
        return {"message": self.message, "kind": self.kind, "line": self.line,
                "frames": [list(f) for f in self.frames], "report": self.report()}


def _source_line(lines: list[str], number: int | None) -> str:
    if number is None or not 1 <= number <= len(lines):
        return ""
    return lines[number - 1].rstrip("\n")


def _syntax_error(error: SyntaxError, filename: str, lines: list[str]) -> BotError:
    number = error.lineno
    text = error.text if error.text is not None else _source_line(lines, number)
    message = f"{type(error).__name__}: {error.msg} (line {number})" if number else f"{type(error).__name__}: {error.msg}"
    frames = [(number, "<module>", (text or "").rstrip("\n"))] if number else []
    return BotError(message, "syntax", number, frames, filename)


def explain(error: BaseException, filename: str, source: str) -> BotError:
    """A BotError for an exception raised while running the bot's code, naming its lines."""
    lines = source.splitlines()
    if isinstance(error, BotError):
        return error
    if isinstance(error, SyntaxError) and error.filename == filename:
        return _syntax_error(error, filename, lines)
    import traceback

    frames = [(f.lineno, f.name, _source_line(lines, f.lineno))
              for f in traceback.extract_tb(error.__traceback__) if f.filename == filename]
    text = str(error)
    message = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return BotError(message, "exception", frames[-1][0] if frames else None, frames, filename)


def load_bot(source: str, filename: str = BOT_FILE):
    """Run a bot's source and return its ``choose`` function; BotError if it cannot be used."""
    if not isinstance(source, str):
        raise BotError("a bot's source is text", "missing", filename=filename)
    try:
        code = compile(source, filename, "exec")
    except SyntaxError as error:
        raise _syntax_error(error, filename, source.splitlines()) from None
    except ValueError as error:  # e.g. a NUL character in the text
        raise BotError(f"the bot's source cannot be read: {error}", "syntax", filename=filename) from None
    namespace = {"__name__": "bot", "__file__": filename}
    try:
        exec(code, namespace)
    except BaseException as error:  # SystemExit and KeyboardInterrupt too: the bot's, not the program's
        raise explain(error, filename, source) from None
    choose = namespace.get(FUNCTION)
    if not callable(choose):
        raise BotError(f"the bot defines no function {FUNCTION}(view, legal_actions)", "missing", filename=filename)
    return choose


def load_bot_file(path: str):
    """Read a bot's file and return its ``choose`` function (tracebacks name the file)."""
    try:
        with open(path, encoding="utf-8") as stream:
            source = stream.read()
    except OSError as error:
        raise BotError(f"cannot read {path}: {error.strerror or error}", "missing", filename=path) from None
    except UnicodeDecodeError:
        raise BotError(f"{path} is not UTF-8 text", "missing", filename=path) from None
    return load_bot(source, os.path.abspath(path)), source


def _same(action: object, legal: dict) -> bool:
    if not isinstance(action, dict):
        return False
    if action.get("type") == "discard" == legal.get("type") and isinstance(action.get("cards"), (list, tuple)):
        rest = {k: v for k, v in action.items() if k != "cards"}
        want = {k: v for k, v in legal.items() if k != "cards"}
        return rest == want and sorted(action["cards"], key=repr) == sorted(legal["cards"], key=repr)
    return action == legal


def plain_copy(value):
    """A deep copy of JSON-like data (dicts, lists, tuples as lists, plain values), the view's
    shape: several times faster than copy.deepcopy, which matters once a decision."""
    kind = type(value)
    if kind is dict:
        return {key: plain_copy(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [plain_copy(item) for item in value]
    return value


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


class BotPlayer:
    """A bot's choose function seated as a player: it gets copies, and its answer is checked.

    >>> choose = load_bot("def choose(view, legal_actions):\\n    return legal_actions[-1]\\n")
    >>> from engine.game import new_game
    >>> state = new_game(seed="doc")
    >>> view = state.view(state.to_act)
    >>> BotPlayer(choose).choose(view, view["legal_actions"]) == view["legal_actions"][-1]
    True
    """

    name = "bot"

    def __init__(self, choose, name: str = "bot", source: str = "", filename: str = BOT_FILE) -> None:
        """Seat ``choose(view, legal_actions)``; source and filename name its lines in errors."""
        self.function = choose
        self.name = name
        self.source = source
        self.filename = filename
        self.decisions = 0

    def __repr__(self) -> str:
        return f"BotPlayer({self.name!r})"

    def choose(self, view: dict, legal_actions: list) -> dict:
        """Ask the bot; return the legal action it chose (the very dict), or raise BotError."""
        self.decisions += 1
        try:
            answer = self.function(plain_copy(view), plain_copy(list(legal_actions)))
        except BaseException as error:  # SystemExit and KeyboardInterrupt too: they end the bot's match only
            raise explain(error, self.filename, self.source) from None
        for action in legal_actions:
            if _same(answer, action):
                return action
        shown = ", ".join(_short(a, 48) for a in legal_actions[:MAX_SHOWN_ACTIONS])
        more = f" and {len(legal_actions) - MAX_SHOWN_ACTIONS} more" if len(legal_actions) > MAX_SHOWN_ACTIONS else ""
        raise BotError(f"{FUNCTION} returned {_short(answer)}, which is not one of the legal actions "
                       f"({shown}{more})", "answer", filename=self.filename)


_loaded: dict = {}  # path -> (choose, source): a bot file is read once per process


def bot_from_file(path: str, name: str | None = None) -> BotPlayer:
    """A BotPlayer for the bot in a file (read and run once per process)."""
    key = os.path.abspath(path)
    if key not in _loaded:
        _loaded[key] = load_bot_file(path)
    choose, source = _loaded[key]
    return BotPlayer(choose, name or os.path.basename(path), source, key)


def bot_from_source(source: str, name: str = "bot", filename: str = BOT_FILE) -> BotPlayer:
    """A BotPlayer for a bot's source text (run now)."""
    return BotPlayer(load_bot(source, filename), name, source, filename)
