"""How a game's seed becomes the seed of each hand and of the cut for first deal.

A game's seed (any text) derives the seed of hand N as the first 32 hex digits of the SHA-256
of ``f"{seed}:{N}"``, and the cut's from ``f"{seed}:cut"``: any game can be dealt again from its
seed. A sealed friend game (``engine/sealed_game.py``) has the seed
``"sealed:<a>:<b>:<p0>:<p1>"`` once it is over: its cut follows from ``"sealed:<a>:<b>"`` (known to
both players from the start), and hand N from the joint seed of the two players' own seeds for
it, ``derive_seed(p0, N)`` and ``derive_seed(p1, N)`` (``fairdeal.joint_seed``).
"""

from engine import fairdeal
from engine.compat import sha256_hex

SEALED_PREFIX = "sealed:"


def derive_seed(base: str, key: "int | str") -> str:
    """Derive a fair-deal seed from a game seed: first 32 hex digits of sha256(f"{base}:{key}").

    >>> derive_seed("7", 1) == derive_seed(7, 1), len(derive_seed("7", "cut"))
    (True, 32)
    """
    return sha256_hex(f"{base}:{key}")[:32]


def hand_seed(base: str, number: int) -> str:
    """The seed hand ``number`` is dealt from (see the module docstring); ValueError for a sealed
    game's seed without the players' own seeds.

    >>> hand_seed("7", 1) == derive_seed("7", 1)
    True
    """
    if base.startswith(SEALED_PREFIX):
        parts = base[len(SEALED_PREFIX):].split(":")
        if len(parts) != 4:
            raise ValueError("a sealed game's deals need both players' own seeds")
        return fairdeal.joint_seed(derive_seed(parts[2], number), derive_seed(parts[3], number))
    return derive_seed(base, number)


def cut_seed(base: str) -> str:
    """The seed of the cut for first deal (a sealed game's follows from its public part)."""
    if base.startswith(SEALED_PREFIX):
        base = ":".join(base.split(":")[:3])
    return derive_seed(base, "cut")
