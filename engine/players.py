"""Computer opponents: ``get_player(name, seed)`` returns a player that picks one legal action.

A player is asked ``player.choose(view, legal_actions)`` and returns one of ``legal_actions``
(the very dict from that list). It sees only what its seat may know: ``view`` is the plain dict
``GameState.view(seat)`` returns (see engine.game); no player ever gets the game state, and
this module does not import engine.game. Decisions depend on nothing but the seed and the
view: a player keeps no memory between calls, so a fresh player with the same seed makes the
same choice from the same view, and a page can make a new player for every move::

    view = state.view(seat)
    action = get_player("hard", seed=7).choose(view, view["legal_actions"])
    state.apply(action)

The players:

- ``easy``: a beginner. Half the time it throws any two cards; otherwise it keeps the four
  that look best as dealt (fifteens, pairs, runs and a flush among those four alone), never
  thinking of the starter or the crib. In the play it lays the first card that fits, unless
  a card scores at once. Counts its own hand, and claims its own cards' points in the play,
  correctly under muggins (every player here does).
- ``hard``: discards by ``analysis.discard_options`` (the dealer maximises the expected hand
  plus the crib, the pone the hand minus the crib, exactly over the 46 possible starters);
  near the end of the game the pone keeps the hand most likely to count out. In the play it
  prices every legal card: the points it scores now, minus the next player's expected best
  reply over the cards it cannot see (weighted by how many of each rank are unseen, and by
  the chance of holding one), net of its own best counter, with the habits of strong players
  (no five led, four or lower preferred as a lead, lead from a pair, low cards kept for the
  end of a count). Near the end it plays the board: it pegs out when it can, and when its
  own count will take it home it plays only to keep the dealer from pegging out first.

- ``expert`` (engine.expert, two players): hard's discards; in the play it deals the cards it
  cannot see out to the other side many times over, as likely as a careful discard makes each
  hand, and searches each deal to the end of the play (engine.pegging_search), playing for the
  game near the end. With three or four players it plays as hard does.

Three and four players (one card thrown, several opponents) are played by the same rules:
the throw is priced by the crib table's one-card figure, the reply by the next seat to play.

>>> from engine.game import new_game
>>> state = new_game(seed="doc")
>>> view = state.view(state.to_act)
>>> action = get_player("hard", seed=1).choose(view, view["legal_actions"])
>>> action in view["legal_actions"], action["type"]
(True, 'discard')
"""

from engine.analysis import discard_options
from engine.cards import RANK_OF, SUIT_OF, VALUE_OF
from engine.compat import comb, combinations, round_to
from engine.fairdeal import Sfc32, keyed_generator
from engine.scoring import (
    FIFTEEN,
    HAND_FLUSH,
    MAX_COUNT,
    PAIR,
    THIRTY_ONE,
    score_play,
    score_show,
    show_total,
)

PLAYER_NAMES = ("easy", "hard", "expert")  # append only: share codes store the index
_PAIR_POINTS = (0, 0, 2, 6, 12)  # same-rank cards in a row at the end of the count -> points

WIN = 1000.0  # the value of pegging out: beats any number of points
LOSS = 60.0  # what a reply that pegs the opponent out costs (about a game's worth of points)
SAFE_OWN_WEIGHT = 0.1  # the pone whose count gets it home: its own pegging barely matters


class Player:
    """A computer opponent: ``choose(view, legal_actions)`` returns one of the legal actions."""

    name = "player"

    def __init__(self, seed: int | str = 0) -> None:
        """Make a player; the seed fixes every choice it makes (same seed, same view, same move)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ValueError(f"a player's seed is text or a whole number, got {type(seed).__name__}")
        self.seed = str(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    def choose(self, view: dict, legal_actions: "Sequence[dict]") -> dict:
        """Return one of legal_actions (the same dict) for the seat whose view this is."""
        if not isinstance(view, dict) or "hand" not in view:
            raise ValueError("choose needs a seat's view (the dict GameState.view(seat) returns)")
        if not legal_actions:
            raise ValueError("no legal actions: it is not this seat's turn")
        kind = legal_actions[0].get("type")
        if any(a.get("type") != kind for a in legal_actions):
            raise ValueError("legal_actions mixes action types")
        if kind == "discard":
            action = self.choose_discard(view, legal_actions)
        elif kind == "play":
            action = self.choose_play(view, legal_actions)
        elif kind == "count":
            action = choose_count(view, legal_actions)
        elif kind == "claim":
            action = choose_claim(view, legal_actions)
        else:
            raise ValueError(f"unknown action type {kind!r}")
        return action

    def choose_discard(self, view: dict, legal_actions: "Sequence[dict]") -> dict:
        """Pick the cards to throw to the crib."""
        raise NotImplementedError

    def choose_play(self, view: dict, legal_actions: "Sequence[dict]") -> dict:
        """Pick the card to lay in the play."""
        raise NotImplementedError

    def rng(self, view: dict, what: str) -> Sfc32:
        """A random source fixed by the seed and this decision's view (no state between calls)."""
        laid = len(view.get("laid") or ())
        return keyed_generator(f"{self.name}|{self.seed}|{view.get('commitment')}|"
                               f"{view.get('hand_number')}|{what}|{sorted(view['hand'])}|{laid}")


def get_player(name: str, seed: int | str = 0) -> Player:
    """Return the computer opponent called name ("easy", "hard" or "expert") with this seed.

    >>> get_player("easy", 3)
    EasyPlayer(seed='3')
    """
    if name == "expert":
        from engine.expert import ExpertPlayer  # it builds on this module

        return ExpertPlayer(seed)
    cls = _PLAYERS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"no computer opponent called {name!r} (choose from {', '.join(PLAYER_NAMES)})")
    return cls(seed)


# --------------------------------------------------------------------------------------------
# What a view tells a seat


def side_of(view: dict, seat: int) -> int:
    """The score track a seat plays for: its partnership with four players, else itself."""
    return seat % 2 if view["players"] == 4 else seat


def owns_crib(view: dict) -> bool:
    """True when the crib of this hand counts for the viewing seat's side."""
    return side_of(view, view["seat"]) == side_of(view, view["dealer"])


def seen_cards(view: dict) -> set[int]:
    """Every card the viewing seat has seen this hand: its own, the starter, the cards laid."""
    seen = set(view["hand"])
    seen.update(view.get("discards") or ())
    seen.update(view.get("played") or ())
    seen.update(c for _, c in view.get("laid") or ())
    if view.get("starter") is not None:
        seen.add(view["starter"])
    if view.get("crib"):
        seen.update(view["crib"])
    return seen


def unseen_cards(view: dict) -> list[int]:
    """The cards the viewing seat cannot see: other hands, the crib, the rest of the deck."""
    seen = seen_cards(view)
    return [c for c in range(52) if c not in seen]


def choose_count(view: dict, legal_actions: "Sequence[dict]") -> dict:
    """Claim the true count of the hand or crib being shown (muggins), from the view's record."""
    counting = view.get("counting")
    if not counting:
        raise ValueError("the view has no hand or crib being counted")
    total = score_show(counting["cards"], counting["starter"], crib=counting["show"] == "crib").total
    for action in legal_actions:
        if action.get("points") == total:
            return action
    return max(legal_actions, key=lambda a: a["points"])


def choose_claim(view: dict, legal_actions: "Sequence[dict]") -> dict:
    """Claim the true points of the card just laid (muggins with pegging claims), from the view."""
    if not view.get("claiming") or not view.get("current"):
        raise ValueError("the view has no card whose points are to be claimed")
    total = score_play([c for _, c in view["current"]]).total
    for action in legal_actions:
        if action.get("points") == total:
            return action
    return max(legal_actions, key=lambda a: a["points"])


# --------------------------------------------------------------------------------------------
# Points in the play, by rank (suits play no part)


def peg_points(ranks: "Sequence[int]", count: int) -> int:
    """Points for the last card of a count, from the ranks laid since the reset and the count.

    The same figures as ``scoring.score_play``, without building its items (for search loops).

    >>> peg_points([3, 5, 4], 15)  # 4, 6, 5: fifteen and a run of three
    5
    """
    points = FIFTEEN if count == 15 else THIRTY_ONE if count == MAX_COUNT else 0
    n = len(ranks)
    last = ranks[-1]
    same = 1
    while same < n and ranks[n - 1 - same] == last:
        same += 1
    if same > 1:
        return points + _PAIR_POINTS[min(same, 4)]
    # The longest run ending with the last card: grow the tail back while its ranks are
    # distinct (a repeated rank ends every longer tail's chance) and note when they are consecutive.
    low = high = last
    seen = 1 << last
    run = 0
    for i in range(n - 2, -1, -1):
        r = ranks[i]
        bit = 1 << r
        if seen & bit:
            break
        seen |= bit
        if r < low:
            low = r
        elif r > high:
            high = r
        if high - low == n - 1 - i >= 2:
            run = n - i
    return points + run


_RANK_VALUE = tuple(min(r + 1, 10) for r in range(13))


def _solo(ranks: list[int], count: int, rest: list[int], across: bool) -> int:
    """Most points a seat makes laying its rest cards alone (nobody else can lay a card).

    It must go on laying while a card fits; when none does it pegs the go (1, or nothing more
    after 31, which scored already). With across=True the others are out of cards, so it leads
    again after each reset until its cards are gone (the last card pegs 1 the same way).
    """
    best = -1
    for i, r in enumerate(rest):
        value = _RANK_VALUE[r]
        if count + value <= MAX_COUNT and (i == 0 or r not in rest[:i]):
            total = count + value
            seq = ranks + [r]
            points = peg_points(seq, total) + _solo(seq, total, rest[:i] + rest[i + 1:], across)
            if points > best:
                best = points
    if best >= 0:
        return best
    end = 0 if count == MAX_COUNT or not ranks else 1
    if across and rest:
        return end + _solo([], 0, rest, across)
    return end


def _expected_best(replies: list[tuple[float, int]], unseen: int, held: int, none_value: float) -> float:
    """Expected value of the best reply a hand of `held` cards drawn from `unseen` cards holds.

    replies: (value to the replier, number of unseen cards giving it); none_value: the value
    when the hand holds no card that can be laid. Exact for a hand drawn uniformly.
    """
    if held <= 0 or unseen <= 0:
        return none_value
    held = min(held, unseen)
    all_hands = comb(unseen, held)
    expected = 0.0
    seen = 0
    p_none = 1.0
    for value, cards in sorted(replies, key=lambda item: (-item[0], -item[1])):  # no ties: same order everywhere
        seen += cards
        p_after = comb(unseen - seen, held) / all_hands
        expected += value * (p_none - p_after)
        p_none = p_after
    return expected + p_none * none_value


# --------------------------------------------------------------------------------------------
# Easy: a beginner


def four_card_points(cards: "Sequence[int]") -> int:
    """Points a beginner sees in four cards before the cut: fifteens, pairs, runs, a flush.

    >>> from engine.cards import parse_cards
    >>> four_card_points(parse_cards("5H 5S JD 4C"))  # two fifteens and a pair
    6
    """
    ranks = [RANK_OF[c] for c in cards]
    points = 0
    for size in (2, 3, 4):
        for combo in combinations(ranks, size):
            if sum(_RANK_VALUE[r] for r in combo) == 15:
                points += FIFTEEN
    for a, b in combinations(ranks, 2):
        if a == b:
            points += PAIR
    distinct = sorted(set(ranks))
    for length in (4, 3):
        runs = 0
        for start in range(len(distinct) - length + 1):
            window = distinct[start:start + length]
            if window[-1] - window[0] == length - 1:
                ways = 1
                for r in window:
                    ways *= ranks.count(r)
                runs += ways * length
        if runs:
            points += runs
            break
    if len({SUIT_OF[c] for c in cards}) == 1:
        points += HAND_FLUSH
    return points


EASY_CARELESS = 0.5  # the share of easy's discards made without looking


class EasyPlayer(Player):
    """A beginner: keeps what looks good in the hand, ignores the crib, lays the first card that fits."""

    name = "easy"

    def choose_discard(self, view: dict, legal_actions: "Sequence[dict]") -> dict:
        """Half the time any old throw; else keep the four that look best as dealt (ties at random)."""
        rng = self.rng(view, "discard")
        if rng.random() < EASY_CARELESS:
            return rng.choice(list(legal_actions))
        hand = view["hand"]
        scored = []
        for action in legal_actions:
            keep = [c for c in hand if c not in action["cards"]]
            scored.append((four_card_points(keep), action))
        best = max(points for points, _ in scored)
        return rng.choice([a for points, a in scored if points == best])

    def choose_play(self, view: dict, legal_actions: "Sequence[dict]") -> dict:
        """Lay a card that scores at once (fifteen, pair, run, 31) if any; else the first that fits."""
        ranks = [RANK_OF[c] for _, c in view["current"]]
        count = view["count"]
        for action in legal_actions:
            card = action["card"]
            if peg_points(ranks + [RANK_OF[card]], count + VALUE_OF[card]) >= 2:
                return action
        return legal_actions[0]


# --------------------------------------------------------------------------------------------
# Hard


PONE_PEG_ALLOWANCE = 1  # points the pone may count on pegging before its hand is counted
HOME_WEIGHT = 20.0  # the discard value of certainty of counting out, in points of net


class HardPlayer(Player):
    """Discards by exact expectation (analysis.discard_options); pegs by pricing every card it can lay."""

    name = "hard"

    # -- the discard --------------------------------------------------------------------------

    def discard_value(self, view: dict, option) -> float:
        """The worth of a discard option: its net, or near home the chance to count out first."""
        value = option.net
        seat = view["seat"]
        need = view["target"] - view["scores"][seat]
        if not owns_crib(view) and view["players"] == 2 and need <= 29 + PONE_PEG_ALLOWANCE:
            # The pone counts first: the hand that most often gets home wins the game.
            value += HOME_WEIGHT * option.chance_at_least(need - PONE_PEG_ALLOWANCE)
        return value

    def choose_discard(self, view: dict, legal_actions: "Sequence[dict]") -> dict:
        """Throw what the best discard option throws."""
        by_cards = {tuple(a["cards"]): a for a in legal_actions}
        options = discard_options(view["hand"], owns_crib(view))
        best = max(options, key=lambda o: (round_to(self.discard_value(view, o), 9), [-c for c in o.keep]))
        return by_cards[tuple(sorted(best.throw))]

    # -- the play -----------------------------------------------------------------------------

    def choose_play(self, view: dict, legal_actions: "Sequence[dict]") -> dict:
        """Lay the card with the best price (ties: the lower card)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        prices = self.play_prices(view, [a["card"] for a in legal_actions])
        best = max(range(len(legal_actions)), key=lambda i: (round_to(prices[i], 9), -legal_actions[i]["card"]))
        return legal_actions[best]

    def play_prices(self, view: dict, candidates: "Sequence[int]") -> list[float]:
        """Price each card the seat may lay now (higher is better)."""
        seat, n = view["seat"], view["players"]
        hand = list(view["hand"])
        ranks_now = [RANK_OF[c] for _, c in view["current"]]
        count = view["count"]
        scores, target = view["scores"], view["target"]
        my_need = target - scores[seat]
        gone = set(view.get("go") or ())
        sizes = view["hand_sizes"]

        nxt = None  # the next seat that may lay a card after this one
        for i in range(1, n):
            s = (seat + i) % n
            if sizes[s] > 0 and s not in gone:
                nxt = s
                break
        others_out = all(sizes[s] == 0 for s in range(n) if s != seat)

        unseen = unseen_cards(view)
        unseen_by_rank = [0] * 13
        for c in unseen:
            unseen_by_rank[RANK_OF[c]] += 1

        # Board position: when the seat's own count will take it home and it counts before the
        # dealer (the pone), only the dealer pegging out can lose the game: its own points are
        # then worth next to nothing and every point the dealer pegs brings a peg-out nearer.
        mine = 1.0  # the weight of this seat's own points
        if n == 2 and not owns_crib(view) and view.get("starter") is not None:
            kept = hand + list(view.get("played") or ())
            if len(kept) == 4 and scores[seat] + show_total(kept, view["starter"]) >= target:
                mine = SAFE_OWN_WEIGHT
        opponent_next = nxt is not None and side_of(view, nxt) != side_of(view, seat)
        opp_need = target - scores[nxt] if nxt is not None else 999

        prices = []
        hand_ranks = [RANK_OF[c] for c in hand]
        for card in candidates:
            r = RANK_OF[card]
            total = count + VALUE_OF[card]
            seq = ranks_now + [r]
            points = peg_points(seq, total)
            rest = list(hand_ranks)
            rest.remove(r)

            if nxt is None:  # nobody else can lay a card in this count
                gain = points + _solo(seq, total, rest, others_out)
                habit = _habits(ranks_now, r, rest, total, points)
                prices.append(WIN + gain if gain >= my_need else gain + habit)
                continue
            if points >= my_need:
                prices.append(WIN + points)
                continue

            if total == MAX_COUNT:
                reply = 0.0
            else:
                replies = []
                for rr in range(13):
                    if not unseen_by_rank[rr] or total + _RANK_VALUE[rr] > MAX_COUNT:
                        continue
                    seq2 = seq + [rr]
                    total2 = total + _RANK_VALUE[rr]
                    their = peg_points(seq2, total2)
                    if opponent_next and their >= opp_need:
                        replies.append((LOSS, unseen_by_rank[rr]))
                        continue
                    counter = -1  # no card to answer with: they go on, or take the go
                    for i, d in enumerate(rest):
                        if total2 + _RANK_VALUE[d] <= MAX_COUNT and d not in rest[:i]:
                            counter = max(counter, peg_points(seq2 + [d], total2 + _RANK_VALUE[d]))
                    if not opponent_next:
                        value = float(their)
                    elif counter < 0:
                        value = their + 1.0
                    else:
                        value = their - mine * counter
                    replies.append((value, unseen_by_rank[rr]))
                none_value = -mine * _solo(seq, total, rest, False) if opponent_next else 0.0
                reply = _expected_best(replies, len(unseen), sizes[nxt], none_value)
            if opponent_next:
                price = mine * points - reply
            else:
                price = points + 0.5 * reply  # a partner's reply scores for this side
            prices.append(price + mine * _habits(ranks_now, r, rest, total, points))
        return prices


def _habits(ranks_now: list[int], r: int, rest: list[int], total: int, points: int) -> float:
    """Small adjustments strong players make beyond the immediate arithmetic."""
    bonus = 0.0
    if not ranks_now:  # a lead
        if r == 4:
            bonus -= 1.0  # never lead a five
        elif _RANK_VALUE[r] <= 4:
            bonus += 0.4  # nothing makes fifteen on it
        if r in rest:
            bonus += 0.3  # lead from a pair: a pair back is answered with three of a kind
        if rest and _RANK_VALUE[r] >= 10 and any(_RANK_VALUE[d] == 5 for d in rest):
            bonus += 0.1  # a ten led with a five kept can answer a five with fifteen
    elif points == 0 and _RANK_VALUE[r] <= 4 and total <= 20 and any(_RANK_VALUE[d] > 4 for d in rest):
        bonus -= 0.3  # keep low cards for the end of a count
    return bonus


_PLAYERS: dict[str, type[Player]] = {"easy": EasyPlayer, "hard": HardPlayer}
