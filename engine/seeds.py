"""How a game's seed becomes the seed of each hand and of the cut for first deal.

A game's seed (any text) derives the seed of hand N as the first 32 hex digits of the SHA-256
of ``f"{seed}:{N}"``, and the cut's from ``f"{seed}:cut"``: any game can be dealt again from its
seed. A sealed friend game (``engine/sealed_game.py``) has the seed
``"sealed:<a>:<b>:<p0>:<p1>"`` once it is over: its cut follows from ``"sealed:<a>:<b>"`` (known to
both players from the start), and hand N from the joint seed of the two players' own seeds for
it, ``derive_seed(p0, N)`` and ``derive_seed(p1, N)`` (``fairdeal.joint_seed``).

A sealed game begun with ``"sealed2:"`` differs in one seed: when seat 0 deals the first hand,
seat 1's seed for it is ``derive_seed(p1, "1d")``, not ``derive_seed(p1, 1)``. Seat 1 can then
tell seat 0 which cards of its own deck land in its first six before the cut is known, in the
reply (``reply_opens``): one seed's first six positions for the hand where seat 0 is the pone,
the other seed's next six for the hand where it deals, so the case that is not played tells
nothing of the case that is.
"""

from engine import fairdeal
from engine.compat import sha256_hex

SEALED_PREFIX = "sealed:"
SEALED_EARLY_PREFIX = "sealed2:"
"""A sealed game whose inviter reads its first six from the reply (see the module docstring)."""
INVITER_DEALS = "1d"
"""The key of seat 1's seed for the first hand of a ``"sealed2:"`` game in which seat 0 deals."""
HAND_CARDS = 6


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
    if is_sealed(base):
        parts = base.split(":")[1:]
        if len(parts) != 4:
            raise ValueError("a sealed game's deals need both players' own seeds")
        return fairdeal.joint_seed(own_seed(base, 0, parts[2], number), own_seed(base, 1, parts[3], number))
    return derive_seed(base, number)


def is_sealed(base: str) -> bool:
    """True for a sealed friend game's seed (public or full)."""
    return base.startswith(SEALED_PREFIX) or base.startswith(SEALED_EARLY_PREFIX)


def own_seed(base: str, seat: int, secret: str, number: int) -> str:
    """A seat's own seed for hand ``number`` of the sealed game of seed ``base`` (public or full),
    from that seat's secret (see the module docstring)."""
    if number == 1 and seat == 1 and base.startswith(SEALED_EARLY_PREFIX) \
            and fairdeal.cut_for_deal(cut_seed(base), 2).dealer == 0:
        return derive_seed(secret, INVITER_DEALS)
    return derive_seed(secret, number)


def reply_opens(secret: str) -> list:
    """Seat 1's openings of seat 0's first six in a ``"sealed2:"`` game, sent in the reply: the
    indices of seat 0's own deck its first-hand positions hold, six for the hand in which seat 0
    is the pone (positions 0-5, seat 1 dealing), then six for the hand in which it deals (6-11).

    >>> len(reply_opens("0" * 32)), reply_opens("0" * 32)[:6] == fairdeal.shuffled_deck(derive_seed("0" * 32, 1))[:6]
    (12, True)
    """
    return (fairdeal.shuffled_deck(derive_seed(secret, 1))[:HAND_CARDS]
            + fairdeal.shuffled_deck(derive_seed(secret, INVITER_DEALS))[HAND_CARDS:2 * HAND_CARDS])


def cut_seed(base: str) -> str:
    """The seed of the cut for first deal (a sealed game's follows from its public part)."""
    if is_sealed(base):
        base = ":".join(base.split(":")[:3])
    return derive_seed(base, "cut")
