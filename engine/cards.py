"""Cards as small ints: ``card = suit * 13 + rank``, with lookup tables built once at import.

Ranks 0..12 are A 2 3 4 5 6 7 8 9 10 J Q K; suits 0..3 are clubs, diamonds, hearts, spades.
``DECK`` (0..51) is therefore the fair-deal start order, A♣ first and K♠ last.

>>> card_name(parse_card("10s")), card_pretty(parse_card("QC")), card_spoken(parse_card("a♥"))
('10S', 'Q♣', 'ace of hearts')
>>> [card_name(c) for c in parse_cards("5H, 5S 5D jc")]
['5H', '5S', '5D', 'JC']
"""

from engine.messages import quoted


RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
SUIT_GLYPHS: tuple[str, ...] = ("♣", "♦", "♥", "♠")
RANK_WORDS: tuple[str, ...] = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)
RANK_PLURALS: tuple[str, ...] = (
    "aces", "twos", "threes", "fours", "fives", "sixes", "sevens",
    "eights", "nines", "tens", "jacks", "queens", "kings",
)
SUIT_WORDS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")

ACE, JACK, QUEEN, KING = 0, 10, 11, 12
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

DECK: tuple[int, ...] = tuple(range(52))
RANK_OF: tuple[int, ...] = tuple(c % 13 for c in DECK)
SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in DECK)
VALUE_OF: tuple[int, ...] = tuple(min(r + 1, 10) for r in RANK_OF)

CARD_NAMES: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in DECK)
CARD_PRETTY: tuple[str, ...] = tuple(RANKS[c % 13] + SUIT_GLYPHS[c // 13] for c in DECK)
CARD_SPOKEN: tuple[str, ...] = tuple(f"{RANK_WORDS[c % 13]} of {SUIT_WORDS[c // 13]}" for c in DECK)

_RANK_TOKENS: dict[str, int] = {name.upper(): r for r, name in enumerate(RANKS)}
_RANK_TOKENS["T"] = 9
_SUIT_TOKENS: dict[str, int] = {}
for _s, (_letter, _glyph) in enumerate(zip(SUITS, SUIT_GLYPHS)):
    _SUIT_TOKENS[_letter] = _s
    _SUIT_TOKENS[_glyph] = _s
for _s, _glyph in enumerate("♧♢♡♤"):  # the outline glyphs some keyboards and fonts produce
    _SUIT_TOKENS[_glyph] = _s
del _s, _letter, _glyph


def make_card(rank: int, suit: int) -> int:
    """Return the card int for a rank (0..12) and a suit (0..3).

    >>> card_name(make_card(JACK, DIAMONDS))
    'JD'
    """
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise ValueError(f"no card has rank {quoted(rank)} and suit {quoted(suit)}")
    return suit * 13 + rank


def is_card(value: object) -> bool:
    """Tell whether value is a card int (0..51; bools are not cards)."""
    return type(value) is int and 0 <= value < 52


def parse_card(text: str) -> int:
    """Parse one card such as "5H", "5h", "10S", "TS", "J♦" or "q♣" into its int.

    >>> parse_card("AC"), parse_card("K♠"), parse_card("td") == parse_card("10D")
    (0, 51, True)
    """
    if not isinstance(text, str):
        raise ValueError(f"not a card: {quoted(text)}")
    token = text.strip().replace("\ufe0f", "")  # drop the emoji variation selector ("♥️")
    if len(token) < 2:
        raise ValueError(f"not a card: {quoted(text)} (expected a rank and a suit, like 5H or 10♠)")
    rank_text, suit_text = token[:-1].upper(), token[-1].upper()
    rank = _RANK_TOKENS.get(rank_text)
    if rank is None:
        raise ValueError(f"unknown rank {quoted(rank_text)} in card {quoted(text)} (ranks: A 2-10 T J Q K)")
    suit = _SUIT_TOKENS.get(suit_text)
    if suit is None:
        raise ValueError(f"unknown suit {quoted(suit_text)} in card {quoted(text)} (suits: C D H S or ♣ ♦ ♥ ♠)")
    return suit * 13 + rank


def parse_cards(cards: "str | list[str | int]", count: int | None = None) -> list[int]:
    """Parse cards separated by spaces or commas (or an iterable of names or ints) into ints.

    Duplicates and, when count is given, a wrong number of cards raise ValueError.

    >>> parse_cards("5H 5S", count=2)
    [30, 43]
    >>> parse_cards(["JD", 3])
    [23, 3]
    """
    if isinstance(cards, str):
        tokens: list[str | int] = cards.replace(",", " ").replace(";", " ").split()
    else:
        tokens = list(cards)
    result: list[int] = []
    seen: dict[int, str | int] = {}
    for token in tokens:
        if isinstance(token, str):
            card = parse_card(token)
        elif is_card(token):
            card = token  # type: ignore[assignment]
        else:
            raise ValueError(f"not a card: {quoted(token)}")
        if card in seen:
            raise ValueError(f"duplicate card {quoted(token)} (the {CARD_SPOKEN[card]} appears twice)")
        seen[card] = token
        result.append(card)
    if count is not None and len(result) != count:
        raise ValueError(f"expected {count} cards, got {len(result)}")
    return result


def _check(card: int) -> int:
    if not is_card(card):
        raise ValueError(f"not a card: {quoted(card)} (card ints run from 0 to 51)")
    return card


def card_name(card: int) -> str:
    """Return the short name of a card: "5H", "10S", "JD".

    >>> card_name(0), card_name(51)
    ('AC', 'KS')
    """
    return CARD_NAMES[_check(card)]


def card_pretty(card: int) -> str:
    """Return the card with its suit glyph: "5♥", "10♠".

    >>> card_pretty(parse_card("5H"))
    '5♥'
    """
    return CARD_PRETTY[_check(card)]


def card_spoken(card: int) -> str:
    """Return the card in words, for screen readers and speech: "five of hearts".

    >>> card_spoken(parse_card("JD"))
    'jack of diamonds'
    """
    return CARD_SPOKEN[_check(card)]


def cards_name(cards: "list[int]") -> str:
    """Return short names joined by spaces: "5H 5S JC".

    >>> cards_name([4, 17])
    '5C 5D'
    """
    return " ".join(card_name(c) for c in cards)


def card_info(card: int) -> dict:
    """Display data for one card: names, rank, suit letter and glyph, counting value.

    >>> card_info(30)["spoken"], card_info(30)["pretty"], card_info(30)["suit"]
    ('five of hearts', '5♥', 'H')
    """
    return {"name": CARD_NAMES[card], "pretty": CARD_PRETTY[card], "spoken": CARD_SPOKEN[card],
            "rank": RANKS[RANK_OF[card]], "suit": SUITS[card // 13], "glyph": SUIT_GLYPHS[card // 13],
            "value": VALUE_OF[card]}


def display_order(card: int) -> tuple[int, int]:
    """Sort key for showing cards as players hold them: by rank (ace low), then suit.

    >>> cards_name(sorted(parse_cards("KC 5S 5D AH"), key=display_order))
    'AH 5D 5S KC'
    """
    return (RANK_OF[card], card // 13)
