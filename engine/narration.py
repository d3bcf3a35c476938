"""How the game is said at the table: who sits where, cards for display, the words of every event.

engine/host.py answers the game page; this module gives its replies their words. ``narrate``
adds to each event what to announce, the way players speak: "fifteen for two", "a pair royal
for six", "one for the go", "one for last". ``Seating`` names the seats (you, the computer, the
left computer, a person's own name); ``card_info`` (engine.cards) is a card's display data; ``result`` is the
end of the game for a banner.

>>> Seating(2).says(1, "lay"), play_words([{"reason": "pair_royal", "points": 6, "cards": [1, 2, 3]}])
('The computer lays', 'a pair royal for six')
"""

from engine.cards import CARD_SPOKEN, RANK_OF, card_info, display_order  # noqa: F401 (card_info: host and friend_sealed import it from here)
from engine.game import PERSON, SKUNK_LINES, GameState
from engine.scoring import number_name

YOUR_SEAT = 0
"""The seat of the person playing on this page (a seat number; what sits there is a seat kind,
``engine.game.PERSON``)."""

COMPUTER_SEAT = 1
"""The computer's seat in a two-player game against it."""


SUBJECT = ("you", "the computer")


COMPUTER_WORDS = {
    2: (("you", "You"), ("the computer", "Computer")),
    3: (("you", "You"), ("the left computer", "Left"), ("the right computer", "Right")),
    4: (("you", "You"), ("the left opponent", "Left"), ("your partner", "Partner"),
        ("the right opponent", "Right")),
}


PLAY_ITEM_WORDS = {"fifteen": "fifteen", "thirty_one": "thirty-one", "pair": "a pair",
                   "pair_royal": "a pair royal", "double_pair_royal": "a double pair royal"}


SHOW_ITEM_WORDS = {"fifteen": "Fifteen", "pair": "Pair", "flush": "Flush", "nobs": "His nobs"}


SKUNK_WORDS = {"skunk": "skunked", "double_skunk": "double skunked"}


class Seating:
    """The people and computers at the table, and how the commentary names them.

    One person (seat 0) against computers, or two people sharing one device (pass and play,
    two players, both seats human, called by the names they gave), or two people on two devices
    (a friend game): called by their names, but each page speaks to its own seat ``you`` as "you".

    >>> Seating(3).subject(2), Seating(3).names
    ('the right computer', ['You', 'Left', 'Right'])
    >>> Seating(2, ["Ann", "Bob"]).subject(1), Seating(2, ["Ann", "Bob"]).humans
    ('Bob', [0, 1])
    >>> Seating(2, ["Ann", "Bob"], you=1).says(1, "lay"), Seating(2, ["Ann", "Bob"], you=1).says(0, "lay")
    ('You lay', 'Ann lays')
    """

    @classmethod
    def of(cls, state: GameState, you: int | None = None) -> "Seating":
        """The seating a game was started with (its seats and people's names); ``you``: the seat
        a friend game's page speaks to."""
        return cls(state.players, state.names if state.seats.count(PERSON) > 1 else None, you)

    def __init__(self, players: int = 2, pass_names: list[str] | None = None, you: int | None = None) -> None:
        self.players = players
        self.passing = pass_names is not None
        self.you = you if self.passing else YOUR_SEAT
        if self.passing:
            self.humans = list(range(players))
            self.subjects = list(pass_names)
            if you is not None:
                self.subjects[you] = "you"
            self.names = list(pass_names)
        else:
            self.humans = [YOUR_SEAT]
            words = COMPUTER_WORDS[players]
            self.subjects = [w[0] for w in words]
            self.names = [w[1] for w in words]

    def is_you(self, seat: int) -> bool:
        """True if the commentary speaks to this seat as "you"."""
        return seat == self.you

    def subject(self, seat: int) -> str:
        """The seat as the subject of a sentence: "you", "the computer", "Ann"."""
        return self.subjects[seat]

    def possessive(self, seat: int) -> str:
        """"your", "the computer's", "Ann's"."""
        return "your" if self.is_you(seat) else self.subjects[seat] + "'s"

    def owner(self, seat: int) -> str:
        """"yours", "the computer's", "Ann's"."""
        return "yours" if self.is_you(seat) else self.subjects[seat] + "'s"

    def clause(self, seat: int, verb: str) -> str:
        """Subject and verb agreeing: "you lay", "the computer lays", "Ann lays"."""
        if not self.is_you(seat):
            verb = verb + ("es" if verb.endswith(("s", "sh", "ch")) else "s")
        return self.subject(seat) + " " + verb

    def says(self, seat: int, verb: str) -> str:
        """The clause with a capital: "You lay", "The computer lays"."""
        return _cap(self.clause(seat, verb))

    def side_words(self, seat: int) -> str:
        """Who wins with this seat: "you and your partner", "your opponents", or the subject."""
        if self.players == 4 and not self.passing:
            return "you and your partner" if seat % 2 == 0 else "your opponents"
        return self.subject(seat)


DEFAULT_SEATING = Seating(2)


def _add_cards(found: set[int], cards) -> None:
    for c in cards or ():
        if type(c) is int:
            found.add(c)


def _show_cards(found: set[int], record: dict) -> None:
    _add_cards(found, record.get("cards"))
    if record.get("starter") is not None:
        found.add(record["starter"])
    for item in record.get("items") or ():
        _add_cards(found, item.get("cards"))


def view_cards(view: dict) -> set[int]:
    """Every card a view mentions (its own cards, the table, the shows, the final reveal)."""
    found: set[int] = set()
    for key in ("hand", "discards", "played", "crib"):
        _add_cards(found, view.get(key))
    _add_cards(found, [c for _, c in view.get("laid") or ()])
    if view.get("starter") is not None:
        found.add(view["starter"])
    for record in view.get("shown") or ():
        _show_cards(found, record)
    if view.get("counting"):
        _show_cards(found, view["counting"])
    revealed = view.get("revealed")
    if revealed:
        for hand in revealed["hands"]:
            _add_cards(found, hand)
        _add_cards(found, revealed["crib_dealt"])
        found.add(revealed["starter"])
    return found


def event_cards(events: list[dict]) -> set[int]:
    """Every card the events mention."""
    found: set[int] = set()
    for e in events:
        kind = e["type"]
        if kind == "cut":
            _add_cards(found, [c for _, c in e["cuts"]])
        elif kind in ("hand", "score"):
            _add_cards(found, e["cards"])
        elif kind in ("starter", "play"):
            found.add(e["card"])
        elif kind in ("count_turn", "show"):
            _show_cards(found, e)
    return found


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _points(n: int) -> str:
    return f"{number_name(n)} point" + ("" if n == 1 else "s")


def play_words(items: list[dict]) -> str:
    """What a player says for the points of one card in the play: "fifteen and a pair for four".

    >>> play_words([{"reason": "pair_royal", "points": 6, "cards": [1, 14, 27]}])
    'a pair royal for six'
    >>> play_words([{"reason": "fifteen", "points": 2, "cards": [4]},
    ...             {"reason": "run", "points": 3, "cards": [1, 2, 3]}])
    'fifteen and a run of three for five'
    """
    parts = []
    for item in items:
        if item["reason"] == "run":
            parts.append(f"a run of {number_name(len(item['cards']))}")
        else:
            parts.append(PLAY_ITEM_WORDS.get(item["reason"], item["reason"].replace("_", " ")))
    total = sum(item["points"] for item in items)
    return " and ".join(parts) + f" for {number_name(total)}"


def item_label(item: dict) -> str:
    """A show item's label: "Fifteen", "Pair", "Run of three", "Flush", "His nobs"."""
    if item["kind"] == "run":
        return f"Run of {number_name(len(item['cards']))}"
    return SHOW_ITEM_WORDS.get(item["kind"], _cap(item["kind"]))


def spoken_groups(record: dict) -> list[dict]:
    """Pair each phrase of a spoken show with the items it covers (for highlighting).

    Fifteens are said one by one, pairs of one rank together, all runs together, then the
    flush and nobs, in the order ``scoring.score_show`` lists them.
    """
    items = record["items"]
    phrases = record["spoken"].split(", ") if items else []
    groups: list[list[int]] = []
    i = 0
    while i < len(items):
        kind = items[i]["kind"]
        j = i + 1
        if kind == "pair":
            rank = RANK_OF[items[i]["cards"][0]]
            while j < len(items) and items[j]["kind"] == "pair" and RANK_OF[items[j]["cards"][0]] == rank:
                j += 1
        elif kind == "run":
            while j < len(items) and items[j]["kind"] == "run":
                j += 1
        groups.append(list(range(i, j)))
        i = j
    if len(groups) != len(phrases):  # never expected; fall back to one phrase for the lot
        return [{"text": record["spoken"], "items": list(range(len(items)))}]
    return [{"text": text, "items": group} for text, group in zip(phrases, groups)]


def dress_show(record: dict) -> dict:
    """Add labels to a show record's items and the phrase groups of its spoken count."""
    for item in record["items"]:
        item["label"] = item_label(item)
    record["phrases"] = spoken_groups(record)
    return record


def _whose(seat: int, what: str, seating: Seating = DEFAULT_SEATING) -> str:
    return f"{seating.possessive(seat)} {what}"


def _cut_words(event: dict, seating: Seating = DEFAULT_SEATING) -> str:
    cuts = event["cuts"]
    n = seating.players
    rounds = [cuts[i:i + n] for i in range(0, len(cuts), n)]
    said = []
    for k, group in enumerate(rounds):
        parts = [f"{seating.subject(seat)} the {CARD_SPOKEN[card]}" for seat, card in group]
        first_seat, first_card = group[0]
        parts[0] = f"{seating.subject(first_seat)} cut the {CARD_SPOKEN[first_card]}"
        text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        if k < len(rounds) - 1:
            text += ": a tie, so cut again"
        said.append(text)
    dealer = event["dealer"]
    lead = "so " + seating.clause(dealer, "deal") + " first"
    return _cap("; ".join(said)) + f": lower card deals, {lead}."


def narrate(events: list[dict], seating: Seating = DEFAULT_SEATING) -> list[dict]:
    """Add "say" (the words to announce, or "" for nothing) to each event, in place; return them.

    Points in the play are said with the card that scored them; their score events, and the
    items of a counted show, get ``"said": True`` (already announced) instead of words.
    """
    st = seating
    for i, e in enumerate(events):
        kind = e["type"]
        say = ""
        if kind == "cut":
            say = _cut_words(e, st)
        elif kind == "deal":
            say = f"Hand {e['hand_number']}. {st.says(e['dealer'], 'deal')}; the crib is {st.owner(e['dealer'])}."
        elif kind == "hand":
            dealt = sorted(e["cards"], key=display_order)
            say = (f"{_cap(st.possessive(e['seat']))} {number_name(len(dealt))} cards: "
                   + ", ".join(CARD_SPOKEN[c] for c in dealt) + ".")
        elif kind == "discard":
            count = e["count"]
            say = (f"{st.says(e['seat'], 'throw')} {number_name(count)} card{'s' if count != 1 else ''} "
                   "to the crib.")
        elif kind == "starter":
            say = f"The starter is the {CARD_SPOKEN[e['card']]}."
        elif kind == "play":
            scored = []
            j = i + 1
            while (j < len(events) and events[j]["type"] == "score" and events[j]["source"] == "pegging"
                   and events[j]["reason"] not in ("go", "last_card")):
                scored.append(events[j])
                events[j]["said"] = True
                j += 1
            words = number_name(e["count"])
            if scored and scored[0]["reason"] in ("fifteen", "thirty_one"):
                words = play_words(scored)  # "fifteen for two", "thirty-one for two"
            elif scored:
                words += ", " + play_words(scored)  # "eighteen, a pair royal for six"
            say = f"{st.says(e['seat'], 'lay')} the {CARD_SPOKEN[e['card']]}: {words}."
        elif kind == "go":
            say = ("You cannot lay a card without passing 31: go." if st.is_you(e["seat"])
                   else f"{_cap(st.subject(e['seat']))} cannot lay a card: go.")
        elif kind == "reset":
            say = "The count starts again from zero; " + st.clause(e["next"], "lead") + "."
        elif kind == "claim":
            say = _claim_words(e, st)
            if e["claimed"] >= e["total"]:
                j = i + 1
                while j < len(events) and events[j]["type"] == "score" and events[j]["source"] == "pegging" \
                        and events[j]["reason"] not in ("go", "last_card", "count"):
                    events[j]["said"] = True
                    j += 1
        elif kind == "count_turn":
            what = e["show"]
            say = (f"Count {_whose(e['seat'], what, st)}." if st.is_you(e["seat"])
                   else f"{st.says(e['seat'], 'count')} {_whose(e['seat'], what, st)}.")
        elif kind == "show":
            dress_show(e)
            for j in range(i + 1, len(events)):
                if events[j]["type"] != "score" or events[j].get("show") != e["show"] \
                        or events[j]["reason"] in ("muggins", "overclaim"):
                    break
                events[j]["said"] = True
            head = _cap(_whose(e["seat"], e["show"], st))
            if e["claimed"] is not None and e["claimed"] < e["total"]:
                say = (f"{head}: {st.subject(e['seat'])} claimed {number_name(e['claimed'])}, but it holds "
                       f"{number_name(e['total'])}: {e['spoken']}.")
            elif e["claimed"] is not None and e["claimed"] > e["total"]:
                say = (f"{head}: {st.subject(e['seat'])} claimed {number_name(e['claimed'])}, but it holds only "
                       f"{number_name(e['total'])}: {e['spoken']}.")
            else:
                say = f"{head}: {e['spoken']}." if e["items"] else f"{head}: nineteen, no points."
        elif kind == "score":
            say = _score_words(e, st)
        elif kind == "hand_end":
            say = f"End of hand {e['hand_number']}. Its seed is revealed: you can check the deal."
        elif kind == "game_over":
            say = game_over_words(e, st)
        e["say"] = "" if e.get("said") else say
    return events


def _score_words(e: dict, seating: Seating = DEFAULT_SEATING) -> str:
    st = seating
    seat = e["seat"]
    who = _cap(st.subject(seat))
    reason, points = e["reason"], e["points"]
    if reason == "his_heels":
        return f"His heels: two for {st.subject(seat)}."
    if reason == "go":
        return f"{who}: one for the go."
    if reason == "last_card":
        return f"{who}: one for last."
    if reason == "muggins":
        missed = st.subject((seat - 1) % st.players)  # the seat before claims what it missed
        return f"Muggins! {st.says(seat, 'take')} the {_points(points)} {missed} missed."
    if reason == "overclaim":
        over = st.subject((seat - 1) % st.players)  # the seat before claimed too many
        return f"Muggins! {st.says(seat, 'peg')} the {_points(points)} {over} claimed too many."
    if reason == "count":
        return f"{st.says(seat, 'peg')} {number_name(points)}."
    return f"{who}: {reason.replace('_', ' ')} for {number_name(points)}."


def _claim_words(e: dict, seating: Seating = DEFAULT_SEATING) -> str:
    """A claim for a card in the play: "You claim two: fifteen for two." or what it made instead.

    >>> _claim_words({"seat": 0, "card": 4, "claimed": 3, "total": 2,
    ...               "items": [{"reason": "fifteen", "points": 2, "cards": [4]}]})
    'You claim three, but the five of clubs made only two: fifteen for two.'
    """
    st = seating
    claimed, total = e["claimed"], e["total"]
    made = play_words(e["items"]) if e["items"] else "no points"
    card = CARD_SPOKEN[e["card"]]
    if claimed == total:
        return (f"{st.says(e['seat'], 'claim')} {number_name(total)}: {made}." if total
                else f"{st.says(e['seat'], 'claim')} no points for the {card}.")
    if not total:
        return f"{st.says(e['seat'], 'claim')} {number_name(claimed)}, but the {card} made no points."
    short = "only " if claimed > total else ""
    said = number_name(claimed) if claimed else "no points"
    return f"{st.says(e['seat'], 'claim')} {said}, but the {card} made {short}{number_name(total)}: {made}."


def _final_score(scores: list[int], winner: int, players: int, target: int = 0) -> str:
    """"121 to 100" (two sides), "121 to 100 and 95" (three players), from the scores on the
    board (``engine.game.on_board``): the game ends the moment a side reaches the ``target``, so
    the winner's score is the target.

    >>> _final_score([61, 40], 0, 2, 61)
    '61 to 40'
    >>> _final_score([121, 90, 80], 0, 3, 121)
    '121 to 90 and 80'
    """
    if players == 4:
        others = [str(scores[(winner + 1) % 4])]
    else:
        others = [str(scores[s]) for s in range(players) if s != winner]
    return f"{scores[winner]} to " + " and ".join(others)


def game_over_words(e: dict, seating: Seating = DEFAULT_SEATING) -> str:
    st = seating
    winner = e["winner"]
    scores = e["scores"]
    n = st.players
    if n == 2 and not st.passing:
        loser = 1 - winner
        text = ("You win" if winner == YOUR_SEAT else "The computer wins") + ", " + _final_score(
            scores, winner, n, e.get("target", 0))
        kind = e["skunks"][loser]
        if kind in SKUNK_WORDS:
            text += f": {'the computer is' if loser == COMPUTER_SEAT else 'you are'} {SKUNK_WORDS[kind]}"
        return text + "."
    side = st.side_words(winner)
    verb = "win" if (side.startswith("you") or side.startswith("your")) else "wins"
    text = f"{_cap(side)} {verb}, {_final_score(scores, winner, n, e.get('target', 0))}"
    losers = [winner + 1] if n == 4 else [s for s in range(n) if s != winner]
    called = []
    for loser in losers:
        kind = e["skunks"][loser % n]
        if kind in SKUNK_WORDS:
            who = st.side_words(loser % n)
            called.append(f"{who} {'are' if who.startswith('you') else 'is'} {SKUNK_WORDS[kind]}")
    if called:
        text += ": " + " and ".join(called)
    return text + "."


def result(state: GameState, seating: Seating = DEFAULT_SEATING) -> dict | None:
    """The end of the game for the page's banner: title, score and the skunk called out.

    >>> from engine.game import new_game
    >>> result(new_game(seed="doc")) is None
    True
    """
    if not state.is_over:
        return None
    winner = state.winner
    scores = state.scores
    single, double = SKUNK_LINES[state.target]
    if state.players == 2 and not seating.passing:
        loser = 1 - winner
        kind = state.skunks[loser]
        skunk = ""
        if kind == "double_skunk":
            skunk = f"Double skunk: {SUBJECT[loser]} finished below {double}."
        elif kind == "skunk":
            skunk = f"Skunk: {SUBJECT[loser]} finished below {single}."
        return {"winner": winner, "title": "You win!" if winner == YOUR_SEAT else "The computer wins",
                "score": _final_score(scores, winner, 2, state.target), "skunk": skunk, "skunk_kind": kind}
    n = state.players
    losers = [(winner + 1) % 4] if n == 4 else [s for s in range(n) if s != winner]
    worst, said = "none", []
    for loser in losers:
        kind = state.skunks[loser]
        if kind == "none":
            continue
        if SKUNK_KINDS_ORDER.index(kind) > SKUNK_KINDS_ORDER.index(worst):
            worst = kind
        line = double if kind == "double_skunk" else single
        who = seating.side_words(loser)
        said.append(f"{who} finished below {line}")
    skunk = ""
    if said:
        skunk = ("Double skunk: " if worst == "double_skunk" else "Skunk: ") + "; ".join(said) + "."
    side = seating.side_words(winner)
    won = (winner % 2 == 0) if n == 4 else (winner == YOUR_SEAT)
    if seating.passing and seating.is_you(winner):
        title, won = "You win!", True
    elif seating.passing:
        title = f"{side} wins!"
    elif side.startswith("you"):
        title = _cap(side) + " win!"
    else:
        title = _cap(side) + (" win" if side.startswith("your") else " wins")
    return {"winner": winner, "title": title, "score": _final_score(scores, winner, n, state.target),
            "skunk": skunk, "skunk_kind": worst, "won": won and (not seating.passing or seating.is_you(winner))}


SKUNK_KINDS_ORDER = ("none", "skunk", "double_skunk")
