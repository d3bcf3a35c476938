"""A seat's view of a game: everything that seat may know and nothing more (its fields: engine.game's docstring)."""

from engine import fairdeal
from engine.scoring import SOURCES, score_show


def _show_record(state, step: int) -> dict:
    """The show counted at ``step`` of the hand's show order, as in its show event (no "type")."""
    seat, what = state._show_order()[step]
    result = score_show(state._show_cards(seat, what), state.starter, crib=(what == "crib"))
    event = state._show_event(step, result, state.claims[step] if state.muggins else None)
    del event["type"]
    return event


def seat_view(state, seat: int) -> dict:
    """What ``GameState.view(seat)`` returns for a seat already checked (JSON-ready).

    >>> from engine.game import new_game
    >>> view = seat_view(new_game(seed="views"), 1)
    >>> view["seat"], len(view["hand"]), view["legal_actions"], view["crib"], view["seed"]
    (1, 6, [], None, None)
    """
    over = state.phase == "over"
    order = state._show_order()
    shown = [_show_record(state, i) for i in range(min(state.show_step, len(order)))]
    counting = None
    if state.phase == "count":
        c_seat, what = order[state.show_step]
        counting = {"seat": c_seat, "show": what, "cards": state._show_cards(c_seat, what),
                    "starter": state.starter}
    claiming = None
    if state.phase == "claim":
        claiming = {"seat": state.to_act, "card": state.laid[-1][1]}
    crib_seen = (any(r["show"] == "crib" for r in shown)
                 or (counting is not None and counting["show"] == "crib"))
    last_hand = None
    if state.history:
        h = state.history[-1]
        last_hand = {"hand_number": h["hand"], "dealer": h["dealer"], "seed": h["seed"],
                     "commitment": fairdeal.commitment(h["seed"]) if h["seed"] else "",
                     "points": [sum(p) for p in h["points"]]}
    revealed = None
    if over:
        deal = state._deal
        revealed = {"hands": [sorted(int(c) for c in h) for h in deal.hands],
                    "crib_dealt": sorted(int(c) for c in deal.crib),
                    "starter": int(deal.starter),
                    "held": [list(h) for h in state.held],
                    "discards": [None if d is None else list(d) for d in state.discards],
                    "crib": list(state.crib)}
    return {
        "seat": seat, "players": state.players, "target": state.target, "muggins": state.muggins,
        "peg_claims": state.peg_claims,
        "hand_number": state.hand_number, "phase": state.phase, "to_act": state.to_act,
        "dealer": state.dealer, "pone": state.pone, "scores": state.scores, "backs": list(state.backs),
        "tally": [dict(zip(SOURCES, t)) for t in state.tally],
        "hand_points": [dict(zip(SOURCES, p)) for p in state.points],
        "hand": list(state.held[seat]),
        "discards": None if state.discards[seat] is None else list(state.discards[seat]),
        "played": [c for s, c in state.laid if s == seat],
        "hand_sizes": [len(h) for h in state.held],
        "discarded": [d is not None for d in state.discards],
        "crib_owner": state.dealer, "crib_size": len(state.crib),
        "crib": list(state.crib) if crib_seen else None,
        "starter": state.starter,
        "laid": [list(p) for p in state.laid], "count": state.count(),
        "current": [list(p) for p in state.laid[state.count_start:]],
        "go": list(state.gone),
        "shown": shown, "counting": counting, "claiming": claiming,
        "legal_actions": state.legal_actions() if seat == state.to_act else [],
        "commitment": state.commitment, "seed": state.seed if over else None,
        "last_hand": last_hand,
        "is_over": over, "winner": state.winner, "winners": state.winners, "skunk": state.skunk,
        "revealed": revealed,
    }
