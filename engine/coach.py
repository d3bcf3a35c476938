"""The coach: hints for the decision on offer and reviews of a hand and a game, from views only.

Everything here is worked out from what the person's seat could see at the time (its view), with
the computers' own measures: ``analysis.discard_options`` for the fifteen discards (expected
hand and crib, exactly, as the calculator ranks them) and the hard computer's pricing of each card in the play
(``hard.HardPlayer.play_prices``: the points a card makes now, less what the other side can
expect to make in reply, with the board position weighed in). A loss is what a decision cost
against the best one by those measures, in expected points; it is never negative.

- ``discard_hint(view)``: the discards ranked, best first (hand, crib, net for the seat);
- ``play_hint(view)``: the cards that may be laid, best first, each with its reasons in words;
- ``prepare(view)``: the discard hint worked out ahead, so that asking for it is instant;
- ``review_hand(state, hand_number, seat)``: the seat's discard and plays in one finished hand
  against the best, and in muggins games what its counts and claims missed or over-claimed;
- ``review_game(state, seat)``: every hand reviewed, the totals lost to discards, to pegging
  and to miscounts, and the costliest decisions.

>>> from engine.game import new_game
>>> state = new_game(seed="coach-doc", seats=["person", "hard"])
>>> hint = discard_hint(state.view(0))
>>> len(hint["options"]), hint["options"][0]["loss"]
(15, 0.0)
"""

from engine.analysis import discard_options
from engine.cards import CARD_NAMES, CARD_SPOKEN, RANK_OF, VALUE_OF
from engine.compat import Memo, round_to
from engine.game import PERSON, GameState
from engine.hard import HardPlayer
from engine.messages import quoted
from engine.opponent import owns_crib, unseen_cards
from engine.pegging import MAX_COUNT, peg_points
from engine.record import replay_moves, restart
from engine.scoring import score_play, score_show

PRICER = HardPlayer("coach")
DIGITS = 2  # decimals of the figures shown
WORST_KEPT = 5  # costliest decisions listed for a game
RISK_WORDS = (("fifteen", "could make fifteen on it"), ("thirty-one", "could make 31 on it"),
              ("a pair", "could pair it"), ("a run", "could make a run with it"))


def _round(value: float) -> float:
    return round_to(value, DIGITS)


def _ranked(hand: tuple, dealer: bool) -> list:
    return [(o.net, o) for o in discard_options(list(hand), dealer)]


_RANKED = Memo(_ranked, size=8)
"""The rankings worked out last: a hint prepared ahead (``prepare``), the hint itself and a review
of the same hand share one (the ranking takes a few hundred milliseconds in the browser)."""


def _discard_options(view: dict) -> list:
    """The discard options of a view with their net in expected points, best first (the order
    of ``analysis.discard_options``: hand plus or minus crib, as the calculator ranks them)."""
    return _RANKED(tuple(sorted(view["hand"])), owns_crib(view))


def prepare(view: dict) -> bool:
    """Work out the discard hint of this view ahead of being asked, so that asking is instant;
    True if there was one to work out (a discard on offer)."""
    if view.get("phase") != "discard" or not view.get("legal_actions"):
        return False
    _discard_options(view)
    return True


def discard_hint(view: dict) -> dict:
    """Every way to discard from this view, best first: ``{"options": [...], "dealer": bool}``.

    Each option is ``DiscardOption.to_dict()`` plus ``value`` (its net, in expected points) and
    ``loss`` (how much less than the best it is worth).
    """
    if view.get("phase") != "discard" or not view.get("legal_actions"):
        raise ValueError("There is no discard to make now.")
    valued = _discard_options(view)
    best = valued[0][0]
    options = []
    for value, option in valued:
        item = option.to_dict()
        item["value"], item["loss"] = _round(value), _round(max(0.0, best - value))
        options.append(item)
    return {"options": options, "dealer": owns_crib(view)}


def _reasons(view: dict, card: int) -> list[str]:
    """Why a card is good or risky, in a few words each."""
    ranks_now = [RANK_OF[c] for _, c in view["current"]]
    count = view["count"] + VALUE_OF[card]
    seq = ranks_now + [RANK_OF[card]]
    reasons = []
    points = peg_points(seq, count)
    if points:
        reasons.append(f"scores {points} now")
    unseen = unseen_cards(view)
    risks = []
    for reply in unseen:
        total = count + VALUE_OF[reply]
        if total > MAX_COUNT:
            continue
        made = peg_points(seq + [RANK_OF[reply]], total)
        if not made:
            continue
        if total == 15:
            risks.append("fifteen")
        elif total == MAX_COUNT:
            risks.append("thirty-one")
        elif RANK_OF[reply] == RANK_OF[card]:
            risks.append("a pair")
        else:
            risks.append("a run")
    for risk, words in RISK_WORDS:
        n = risks.count(risk)
        if n:
            reasons.append(f"{n} unseen card{'s' if n != 1 else ''} {words}")
    if count == MAX_COUNT:
        reasons.append("the count starts again")
    elif count < 15 and not points:
        reasons.append(f"leaves the count at {count}")
    elif 21 <= count < MAX_COUNT:
        reasons.append(f"leaves the count at {count}: only cards of {MAX_COUNT - count} or less can follow")
    return reasons


def play_hint(view: dict) -> dict:
    """The cards that may be laid from this view, best first: ``{"cards": [...]}``, each
    ``{"card", "name", "spoken", "price", "loss", "reasons"}``."""
    legal = [a["card"] for a in view.get("legal_actions") or [] if a.get("type") == "play"]
    if view.get("phase") != "play" or not legal:
        raise ValueError("There is no card to lay now.")
    prices = PRICER.play_prices(view, legal) if len(legal) > 1 else [0.0]
    ranked = sorted(zip(prices, legal), key=lambda pair: (-round_to(pair[0], 9), pair[1]))
    best = ranked[0][0]
    return {"cards": [{"card": card, "name": CARD_NAMES[card], "spoken": CARD_SPOKEN[card],
                       "price": _round(price), "loss": _round(max(0.0, best - price)),
                       "reasons": _reasons(view, card)} for price, card in ranked]}


# --------------------------------------------------------------------------------------------
# Reviews


def _decisions(state: GameState, seat: int, hand_number: "int | None" = None) -> list:
    """The seat's decisions (of one hand, or of the whole game), replayed from the game's seed and
    actions: each ``{"view", "action", "made", "gave", "dealt", "kept"}``, where ``made`` is the
    pegging its own action scored for its side, ``gave`` what the next other seat's action
    scored for the other side(s) straight after, and ``dealt``/``kept`` its cards that hand."""
    replayed = restart(state)
    side = replayed.side_of(seat)
    found = []
    waiting = None  # the seat's last play, until another seat's action answers it
    dealt, kept = {}, {}
    for move in replay_moves(state, replayed):
        action = move.action
        number, actor = replayed.hand_number, replayed.to_act
        mine = actor == seat and (hand_number is None or number == hand_number)
        if mine:
            view = replayed.view(seat)
            if action["type"] == "discard":
                dealt[number] = sorted(view["hand"])
                kept[number] = sorted(c for c in view["hand"] if c not in action["cards"])
            found.append({"view": view, "action": action, "made": 0, "gave": 0})
        pegged = [(e["seat"], e["points"]) for e in move.apply()
                  if e["type"] == "score" and e["source"] == "pegging"]
        if mine:
            found[-1]["made"] = sum(p for who, p in pegged if replayed.side_of(who) == side)
            if action["type"] == "claim" and waiting is not None:
                waiting["made"] += found[-1]["made"]  # a claimed card scores with its claim
            else:
                waiting = found[-1] if action["type"] == "play" else None
        elif waiting is not None and actor != seat:
            if replayed.side_of(actor) != side:
                waiting["gave"] += sum(p for who, p in pegged if replayed.side_of(who) != side)
            if not (action["type"] == "play" and replayed.phase == "claim"):
                waiting = None  # the answer is complete (a claimed card once its claim is in)
    for decision in found:
        number = decision["view"]["hand_number"]
        decision["dealt"], decision["kept"] = dealt.get(number, []), kept.get(number, [])
    return found


def _review_decision(decision: dict) -> "dict | None":
    """One decision against the best: what was done, what was best, the loss."""
    view, action = decision["view"], decision["action"]
    kind = action["type"]
    common = {"kind": kind, "hand_number": view["hand_number"], "dealer": owns_crib(view),
              "cards": decision["dealt"], "kept": decision["kept"], "starter": view.get("starter")}
    if kind == "discard":
        valued = _discard_options(view)
        best_value, best = valued[0]
        chosen = next(value for value, o in valued if list(o.throw) == sorted(action["cards"]))
        return dict(common, threw=sorted(action["cards"]), best=list(best.throw),
                    loss=_round(max(0.0, best_value - chosen)))
    if kind == "play":
        legal = [a["card"] for a in view["legal_actions"]]
        if len(legal) < 2:
            return None
        prices = PRICER.play_prices(view, legal)
        best_price, best_card = max(zip(prices, legal), key=lambda pair: (round_to(pair[0], 9), -pair[1]))
        played = prices[legal.index(action["card"])]
        return dict(common, count=view["count"], card=action["card"], best=best_card,
                    loss=_round(max(0.0, best_price - played)), made=decision["made"], gave=decision["gave"])
    if kind == "claim":
        total = score_play([c for _, c in view["current"]]).total
        return dict(common, count=view["count"], card=view["claiming"]["card"], claimed=action["points"],
                    total=total, loss=float(abs(total - action["points"])))
    counting = view["counting"]
    total = score_show(counting["cards"], counting["starter"], crib=counting["show"] == "crib").total
    return dict(common, show=counting["show"], counted=sorted(counting["cards"]), claimed=action["points"],
                total=total, loss=float(abs(total - action["points"])))


def _person(state: GameState, seat: "int | None") -> int:
    if seat is None:
        seat = state.seats.index(PERSON) if PERSON in state.seats else 0
    if type(seat) is not int or not 0 <= seat < state.players:
        raise ValueError(f"There is no seat {quoted(seat)} in a {state.players}-player game.")
    return seat


def review_hand(state: GameState, hand_number: int, seat: "int | None" = None) -> dict:
    """A finished hand reviewed for a seat: its decisions, each against the best, and the totals.

    ``{"hand_number", "decisions": [...], "discard", "pegging", "miscount", "total"}``: losses in
    expected points (a miscount's loss, in a count or a claim for a card, is the points missed or
    claimed too many).
    """
    seat = _person(state, seat)
    if hand_number == 0 and state.hand_number == 1:
        raise ValueError("No hand is over yet.")
    if type(hand_number) is not int or not 1 <= hand_number <= state.hand_number:
        raise ValueError(f"There is no hand {quoted(hand_number)} in this game.")
    if hand_number == state.hand_number and not state.is_over:
        raise ValueError("That hand is not over yet.")
    decisions = [d for d in map(_review_decision, _decisions(state, seat, hand_number)) if d is not None]
    return _totals({"hand_number": hand_number, "decisions": decisions})


def _totals(review: dict) -> dict:
    sums = {"discard": 0.0, "play": 0.0, "count": 0.0}
    for decision in review["decisions"]:
        sums["count" if decision["kind"] == "claim" else decision["kind"]] += decision["loss"]
    review.update({"discard": _round(sums["discard"]), "pegging": _round(sums["play"]),
                   "miscount": _round(sums["count"]), "total": _round(sum(sums.values()))})
    return review


def review_game(state: GameState, seat: "int | None" = None) -> dict:
    """The whole game reviewed for a seat: every hand's review, the totals, the costliest decisions."""
    seat = _person(state, seat)
    decisions = [d for d in map(_review_decision, _decisions(state, seat)) if d is not None]
    hands = {}
    for decision in decisions:
        hands.setdefault(decision["hand_number"], []).append(decision)
    review = _totals({"decisions": decisions})
    review["hands"] = [_totals({"hand_number": n, "decisions": hands[n]}) for n in sorted(hands)]
    # Ties keep the game's order (the decision's place is the last key: MicroPython's sort is not stable).
    costly = [(i, d) for i, d in enumerate(decisions) if d["loss"] > 0]
    costly.sort(key=lambda pair: (-pair[1]["loss"], pair[1]["hand_number"], pair[1]["kind"], pair[0]))
    review["worst"] = [d for _, d in costly[:WORST_KEPT]]
    del review["decisions"]
    return review
