"""A saved game's record as it is written: its fields, its canonical text and its check (engine.record reads it back).

The record's fields and the rules it is read by are ``engine.record``'s docstring. This module
only writes: ``GameState.to_dict`` and ``to_json`` call it, and ``engine.record`` checks a
record it loads with the same ``record_check``.
"""

from engine.compat import canonical_json, sha256_hex

FORMAT_NAME = "cribbage-game"
FORMAT_VERSION = 2
CHECK_DIGITS = 16


def to_record(state) -> dict:
    """The saved record of a game (a fresh dict), with its check."""
    hands = [{"commitment": h["commitment"], "actions": [dict(a) for a in h["actions"]]}
             for h in state.history]
    hands.append({"commitment": state.commitment, "actions": [dict(a) for a in state.actions]})
    record = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "players": state.players,
              "target": state.target, "muggins": state.muggins, "practice": state.practice,
              "seed": state.base_seed, "seats": list(state.seats),
              "names": None if state.names is None else list(state.names), "hands": hands}
    if state.hinted:
        record["hinted"] = True
    if state.peg_claims:
        record["peg_claims"] = True
    record["check"] = record_check(record)
    return record


def _action_text(action: dict) -> str:
    """One canonical action as canonical JSON, written directly (the quick path of record_text)."""
    kind = action["type"]
    if kind == "play":
        return '{"card":%d,"type":"play"}' % action["card"]
    if kind in ("count", "claim"):
        return '{"points":%d,"type":"%s"}' % (action["points"], kind)
    return '{"cards":[%s],"type":"discard"}' % ",".join(str(c) for c in action["cards"])


def record_text(record: dict) -> str:
    """The record as canonical JSON (keys sorted, no spaces): the same text in every interpreter.

    The hands are written directly rather than by ``compat.canonical_json``, which would take
    several times as long in the browser's interpreter for the part that grows, the actions.
    """
    parts = []
    for key in sorted(record):
        value = record[key]
        if key == "hands":
            text = "[" + ",".join('{"actions":[%s],"commitment":%s}' % (
                ",".join(_action_text(a) for a in h["actions"]), canonical_json(h["commitment"]))
                for h in value) + "]"
        else:
            text = canonical_json(value)
        parts.append(canonical_json(key) + ":" + text)
    return "{" + ",".join(parts) + "}"


def record_check(record: dict) -> str:
    """The record's check: the start of the SHA-256 of its canonical text without ``check``."""
    body = {key: value for key, value in record.items() if key != "check"}
    return sha256_hex(record_text(body))[:CHECK_DIGITS]
