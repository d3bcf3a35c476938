"""The game log rebuilt from a saved game (engine/host.py ``said``, resume_game with ``log``):
the same lines, in the same order, as the page was told while the game was played."""

from engine import host
from engine.scoring import score_show


def person_move(reply: dict) -> dict:
    """A simple player: the first two cards to the crib, the first card it may lay, the true count."""
    view = reply["view"]
    if reply["awaiting"] == "discard":
        return {"type": "discard", "cards": view["hand"][:2]}
    if reply["awaiting"] == "play":
        legal = {a["card"] for a in view["legal_actions"]}
        return {"type": "play", "card": next(c for c in view["hand"] if c in legal)}
    counting = view["counting"]
    return {"type": "count", "points": score_show(counting["cards"], counting["starter"],
                                                  crib=counting["show"] == "crib").total}


def played(seed: str, moves: int, **options) -> tuple[dict, list[str]]:
    """A practice game after ``moves`` replies, and every line said to seat 0 on the way."""
    reply = host.start({"difficulty": "easy", "target": 61, "seed": seed, **options})
    lines = [e["say"] for e in reply["events"] if e["say"]]
    for _ in range(moves):
        if reply["awaiting"] == "over":
            break
        if reply["awaiting"] == "computer":
            reply = host.computer_move({"game": reply["game"], "difficulty": "easy"})
        else:
            action = person_move(reply)
            if action["type"] == "discard" and options.get("players", 2) > 2:
                action["cards"] = action["cards"][:1]
            reply = host.act({"game": reply["game"], "action": action})
        lines += [e["say"] for e in reply["events"] if e["say"]]
    return reply, lines


def test_the_log_of_a_resumed_game_is_what_was_said():
    for moves in (0, 3, 17, 40, 400):
        reply, lines = played("log-unit", moves)
        resumed = host.resume({"game": reply["game"], "log": True})
        again = [e["say"] for e in resumed["events"] if e["say"]]
        assert resumed["said"] + again == lines, moves
        assert not any("computer's six cards" in line.lower() for line in resumed["said"])


def test_three_players_and_no_log_unless_asked():
    reply, lines = played("log-three", 30, players=3)
    resumed = host.resume({"game": reply["game"], "log": True})
    assert resumed["said"] + [e["say"] for e in resumed["events"] if e["say"]] == lines
    assert "said" not in host.resume({"game": reply["game"]})
