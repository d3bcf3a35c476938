"""What a game proves about being a bot lab game: one seat played exactly as a match's computer.

The bot lab plays a visitor's bot against one of the engine's computers in matches
(engine/match.py), and writes each game down as a code with both seats as people, since the
bot cannot be asked again where the game is replayed. A code's names say nothing (anyone can
write "Your bot"), so a page may call a game a bot lab game only if ``lab_opponent`` finds
that one seat made every one of its moves as the computer seated second in that match game
would have: ``players.get_player(level, SECOND_SEED.format(seed))``, asked from that seat's
views in turn.

>>> from engine.game import new_game
>>> lab_opponent(new_game(seed="lab-doc", seats=["person", "person"], names=["A", "B"])) is None
True
"""

from engine.game import PERSON, GameState
from engine.players import get_player
from engine.record import replay_moves

LAB_LEVELS = ("easy", "hard")  # the computers the bot lab's page plays a bot against
SECOND_SEED = "{}:second"  # the seed of the second-named player of a match game, from the game's seed


def lab_opponent(state: GameState) -> "tuple | None":
    """``(bot_seat, level)`` for a finished two-seat practice game in which one seat played
    exactly as the ``level`` computer of a match would (see the module's docstring), the
    other being the bot; else None."""
    if not (state.players == 2 and state.practice and state.is_over and list(state.seats) == [PERSON, PERSON]):
        return None
    seed = SECOND_SEED.format(state.base_seed)
    candidates = {(seat, level): get_player(level, seed=seed) for seat in (0, 1) for level in LAB_LEVELS}
    for move in replay_moves(state):
        seat = move.game.to_act
        view = None
        for key in sorted(candidates):
            if key[0] != seat:
                continue
            if view is None:
                view = move.game.view(seat)
            if candidates[key].choose(view, view["legal_actions"]) != move.action:
                del candidates[key]
        if not candidates:
            return None
    proven = sorted(candidates)
    if len(proven) != 1:
        return None
    opponent, level = proven[0]
    return 1 - opponent, level
