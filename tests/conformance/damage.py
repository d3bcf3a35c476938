"""Damaged input for the conformance work: saved games, game codes, statistics and daily results
spoiled in a fixed, deterministic way, for both interpreters to refuse (or take) alike.

``damaged_inputs()`` lists (label, endpoint, request) triples built the same way in CPython and
MicroPython: truncations, type swaps (bools, floats, strings, lists for ints), numbers out of
range or too big for a machine word, floats where ints belong, duplicate keys, JSON that only a
lax parser takes (trailing commas, NaN, single quotes, raw control characters, lone
surrogates), unicode in every text, and changes whose check (the record's, the code's) is made
to match, so the damage reaches the rules behind the check. Runs in MicroPython too (keep to
the subset the engine uses: no dict order, nothing CPython-only).
"""

from binascii import a2b_base64, b2a_base64

from engine import fairdeal, record, record_format, share
from engine.compat import canonical_json, sha256_hex
from engine.game import new_game
from engine.players import get_player

BIG = 10 ** 30
WORD = 2 ** 63
INT_SWAPS = (("true", True), ("false", False), ("null", None), ("float", 2.0), ("half", 2.5), ("text", "2"),
             ("list", [2]), ("object", {"n": 2}), ("negative", -1), ("zero", 0), ("word", WORD),
             ("big", BIG), ("minus big", -BIG))
TEXT_SWAPS = (("true", True), ("null", None), ("int", 7), ("float", 7.0), ("empty", ""), ("list", ["x"]),
              ("unicode", "\u00e9\u00e8\u4e2d\U0001f0a1"), ("bidi", "\u202eAnn\u2066"), ("nul", "a\x00b"),
              ("long", "x" * 300))
NUMBER_TEXTS = ("NaN", "Infinity", "-Infinity", "1e400", "2.0", "2e0", "0.2e1", "02", "+2", "2.", ".2", "0x2",
                "-0", "2 ", "20000000000000000000000000000000000000000", "1E1", "true", "1_0")


def seeded(key):
    """A predictable stand-in for the browser's crypto (see work.fake_seed_source)."""
    counter = [0]

    def random_bytes(n):
        counter[0] += 1
        return bytes(int(sha256_hex(key + ":" + str(counter[0]))[2 * i:2 * i + 2], 16) for i in range(n))

    return random_bytes


def played(seed, seats, steps, muggins=False, names=None, practice=True):
    """A game played ``steps`` decisions in: people take a legal action by turn, computers their own."""
    if not practice:
        fairdeal.use_seed_source(seeded("damage:" + str(seed)))
    state = new_game(seed=seed if practice else None, muggins=muggins, seats=seats, names=names)
    fairdeal.use_seed_source(None)
    computers = {}
    for step in range(steps):
        if state.is_over:
            break
        seat = state.to_act
        level = state.seats[seat]
        if level == "person":
            legal = state.legal_actions()
            state.apply(legal[(step * 7) % len(legal)])
        else:
            if level not in computers:
                computers[level] = get_player(level, seed=record.COMPUTER_SEED)
            view = state.view(seat)
            state.apply(computers[level].choose(view, view["legal_actions"]))
    return state


def base_games():
    """The games the damage starts from: (label, saved record dict)."""
    games = [
        ("hard", played("damage-1", ["person", "hard"], 14)),
        ("muggins", played("damage-2", ["person", "easy"], 40, muggins=True)),
        ("names", played("damage-3", ["person", "person"], 12, names=["Ann", "Bob"])),
        ("fresh", played("damage-4", ["person", "hard"], 9, practice=False)),
    ]
    return [(label, state.to_dict()) for label, state in games]


def text_of(data):
    """A record as the canonical text a page saves."""
    return canonical_json(data)


def with_check(data):
    """The record with its check made to match (left as it is if the check cannot be worked out)."""
    data = dict(data)
    try:
        data["check"] = record_format.record_check(data)
    except Exception:  # the damage stops the check itself: the record keeps its old one
        pass
    return data


DROP = ("drop",)  # as a value for ``changed``: remove the field


def changed(data, path, value):
    """A copy of a nested record with the value at ``path`` (keys and indexes) replaced or added;
    a value of ``DROP`` removes it."""
    if not path:
        return value
    head = path[0]
    if isinstance(data, list):
        out = list(data)
        if value is DROP and len(path) == 1:
            del out[head]
        else:
            out[head] = changed(out[head], path[1:], value)
        return out
    out = {key: data[key] for key in data}
    if value is DROP and len(path) == 1:
        del out[head]
    else:
        out[head] = changed(out.get(head), path[1:], value)
    return out


def first_path(data, kind):
    """The path to the first action of ``kind`` in a record, or None."""
    for h, hand in enumerate(data["hands"]):
        for a, action in enumerate(hand["actions"]):
            if action["type"] == kind:
                return ["hands", h, "actions", a]
    return None


def record_damage(label, data):
    """(label, text) of damaged saves of one game."""
    text = text_of(data)
    out = []
    for k in range(12):  # truncations
        out.append(("cut " + str(k), text[:len(text) * k // 12]))
    out.append(("cut last", text[:-1]))
    for tail in (" ", "\n", "x", "]", ",", "\x00", "{}", " \t\r\n"):
        out.append(("tail " + canonical_json(tail), text + tail))
    out.append(("bom", "\ufeff" + text))
    out.append(("trailing comma", text[:-1] + ",}"))
    out.append(("single quotes", text.replace('"', "'")))
    out.append(("array", "[" + text + "]"))
    out.append(("duplicate version first", '{"version":1,' + text[1:]))
    out.append(("duplicate version last", text[:-1] + ',"version":1}'))
    out.append(("duplicate target", text[:-1] + ',"target":61}'))
    out.append(("duplicate check", text[:-1] + ',"check":"0000000000000000"}'))
    out.append(("duplicate same", text[:-1] + ',"players":' + str(data["players"]) + '}'))
    for number in NUMBER_TEXTS:
        out.append(("players " + number, text.replace('"players":' + str(data["players"]), '"players":' + number)))
        out.append(("version " + number, text.replace('"version":2', '"version":' + number)))
    seed = canonical_json(data["seed"])
    for escaped in ('"\\u0078' + seed[1:], '"\\ud800"', '"\\udc00\\ud800"', '"\\x41"', '"\\u00"', '"a\tb"',
                    '"a\nb"', '"a\x7fb"', '"\\/"', '"\\U00000041"', '"\\u0000"'):
        out.append(("seed " + canonical_json(escaped), text.replace('"seed":' + seed, '"seed":' + escaped)))
    # Changes with the check made to match: the damage reaches the rules.
    for key in ("version", "players", "target"):
        for name, value in INT_SWAPS:
            out.append((key + " " + name, text_of(with_check(changed(data, [key], value)))))
    for key in ("muggins", "practice", "hinted"):
        for name, value in (("int", 1), ("zero", 0), ("text", "true"), ("null", None), ("false", False),
                            ("true", True), ("float", 1.0)):
            out.append((key + " " + name, text_of(with_check(changed(data, [key], value)))))
    for key in ("seed", "format", "check"):
        for name, value in TEXT_SWAPS:
            out.append((key + " " + name, text_of(with_check(changed(data, [key], value)))))
    for name, value in TEXT_SWAPS + (("short", ["a"]), ("three", ["a", "b", "c"]), ("ints", [1, 2]),
                                     ("long name", ["a" * 41, "b"]), ("empty name", ["", "b"]),
                                     ("bidi names", ["\u202eAnn", "B\u2067ob"]), ("pair", ["Ann", "Bob"])):
        out.append(("names " + name, text_of(with_check(changed(data, ["names"], value)))))
    for name, value in (("text", "person"), ("empty", []), ("one", ["person"]), ("int", [0, 1]),
                        ("unknown", ["person", "wizard"]), ("caps", ["Person", "hard"]),
                        ("no person", ["hard", "hard"]), ("unicode", ["person", "h\u00e4rd"]),
                        ("bool", ["person", True])):
        out.append(("seats " + name, text_of(with_check(changed(data, ["seats"], value)))))
    out.append(("no hands", text_of(with_check(changed(data, ["hands"], [])))))
    out.append(("hands object", text_of(with_check(changed(data, ["hands"], {"0": data["hands"][0]})))))
    out.append(("extra key", text_of(with_check(changed(data, ["extra"], 1)))))
    out.append(("no names key", text_of(with_check(changed(data, ["names"], DROP)))))
    commitment = data["hands"][0]["commitment"]
    for name, value in (("upper", commitment.upper()), ("short", commitment[:-1]), ("int", 5), ("null", None),
                        ("unicode", commitment[:-1] + "\u00e9")):
        out.append(("commitment " + name, text_of(with_check(changed(data, ["hands", 0, "commitment"], value)))))
    out.append(("hand extra key", text_of(with_check(changed(data, ["hands", 0, "x"], 1)))))
    for kind, field in (("play", "card"), ("count", "points")):
        path = first_path(data, kind)
        if path is None:
            continue
        for name, value in INT_SWAPS + (("card float", 4.0), ("card high", 52), ("thirty", 30)):
            out.append((kind + " " + field + " " + name,
                        text_of(with_check(changed(data, path + [field], value)))))
        out.append((kind + " extra key", text_of(with_check(changed(data, path + ["x"], 1)))))
        out.append((kind + " no field", text_of(with_check(changed(data, path + [field], DROP)))))
        out.append((kind + " type caps", text_of(with_check(changed(data, path + ["type"], kind[0].upper() + kind[1:])))))
    path = first_path(data, "discard")
    if path is not None:
        cards = data["hands"][path[1]]["actions"][path[3]]["cards"]
        for name, value in (("bools", [True, cards[-1]]), ("floats", [float(c) for c in cards]), ("one", cards[:1]),
                            ("twice", [cards[0], cards[0]]), ("reversed", list(reversed(cards))),
                            ("three", cards + [51]), ("text", " ".join(str(c) for c in cards)),
                            ("big", [BIG, cards[0]]), ("negative", [-1, cards[0]]), ("word", [WORD, cards[0]])):
            out.append(("discard " + name, text_of(with_check(changed(data, path + ["cards"], value)))))
    return [(label + ": " + name, damaged) for name, damaged in out]


def _code_text(body):
    """A code of these bytes with their check made to match."""
    check = bytes(int(sha256_hex(body)[2 * i:2 * i + 2], 16) for i in range(share.CHECK_BYTES))
    text = b2a_base64(body + check).decode("ascii").strip()
    return share.CODE_PREFIX + text.replace("+", "-").replace("/", "_").rstrip("=")


def _code_body(code):
    text = code[len(share.CODE_PREFIX):].replace("-", "+").replace("_", "/")
    return a2b_base64((text + "=" * (-len(text) % 4)).encode("ascii"))[:-share.CHECK_BYTES]


def code_damage():
    """(label, code) of damaged game codes, most with their check made to match."""
    state = played("damage-code", ["person", "person"], 10, names=["Ann", "Bob"])
    code = share.encode(state)
    body = _code_body(code)
    out = []
    for k in range(8):
        out.append(("cut " + str(k), code[:len(share.CODE_PREFIX) + (len(code) - 3) * k // 8]))
    out.append(("padded", code + "=="))
    out.append(("space inside", code[:10] + " " + code[10:]))
    out.append(("unicode", code[:10] + "\u00e9" + code[11:]))
    for at in range(len(body)):
        for flip in (1, 128):
            spoiled = bytes(body[:at]) + bytes([body[at] ^ flip]) + bytes(body[at + 1:])
            out.append(("flip " + str(at) + "/" + str(flip), _code_text(spoiled)))
    names_at = body.index(b"\x01\x03Ann") + 1  # the first name: its length, then its bytes
    head, rest = body[:names_at], body[names_at + 4:]
    for name, raw in (("bad utf-8", b"\xff\xfeA"), ("lone continuation", b"\x80"), ("overlong", b"\xc0\xaf"),
                      ("surrogate", b"\xed\xa0\x80"), ("cut sequence", b"A\xe2\x82"), ("bidi", "\u202eAnn".encode()),
                      ("isolate", "A\u2066nn\u2069".encode()), ("marks", "\u200eA\u200f\u061c".encode()),
                      ("nul", b"A\x00n"), ("empty", b""), ("long", b"x" * 41), ("emoji", "\U0001f0a1".encode())):
        out.append(("name " + name, _code_text(head + bytes([len(raw)]) + raw + rest)))
    return out


def stats_damage():
    """(label, text) of damaged statistics records."""
    from engine import stats

    good = stats.new_stats()
    out = [("good", canonical_json(good))]
    for key in sorted(good):
        for name, value in INT_SWAPS:
            out.append((key + " " + name, canonical_json(changed(good, [key], value))))
    text = canonical_json(good)
    for k in range(6):
        out.append(("cut " + str(k), text[:len(text) * k // 6]))
    out.append(("duplicate", text[:-1] + ',"version":9}'))
    return out


def friend_damage():
    """Friend texts spoiled: invitations and replies (base64 of every length, lax JSON inside),
    messages between the pages (lax JSON, wrong kinds, an unsealed start of a sealed game), a
    sealed game's first messages and its save: (label, endpoint, request) triples."""
    from engine import friend, friend_sealed
    a, b = "1" * 32, "2" * 32
    link = friend.make_invite("Ann", 61, False, a)
    live = friend.make_invite("Ann", 61, False, a, "o1.offer", "3" * 32)
    link_reply = friend.make_reply(friend.read_invite(link), "Bob", b)
    live_reply = friend.make_reply(friend.read_invite(live), "Bob", b, "a1.answer")
    gid = friend.read_invite(link)["id"]
    items = []
    body = link[len(friend.INVITE_PREFIX):]
    for cut in (1, 2, 3, 5, 6, 7):
        items.append(("invite cut %d" % cut, "friend_read_invite", {"invite": friend.INVITE_PREFIX + body[:-cut]}))
    for name, inner in (("trailing comma", '{"v":1,}'), ("leading zero", '{"v":01}'), ("bad escape", '{"v":"\\d"}'),
                        ("nan", '{"v":NaN}'), ("single quotes", "{'v':1}"), ("duplicate", '{"v":1,"v":1}')):
        text = friend.INVITE_PREFIX + b2a_base64(inner.encode("utf-8")).decode("ascii").strip().rstrip("=")
        items.append(("invite " + name, "friend_read_invite", {"invite": text.replace("+", "-").replace("/", "_")}))
    items.append(("reply cut", "friend_read_reply", {"invite": link, "reply": link_reply[:-1]}))
    parts = {"invite": link, "reply": link_reply, "seat": 1, "secret": b, "game": None}
    for name, message in (("lax json", '{"t":"chat","id":"%s","text":"hi",}' % gid),
                          ("leading zero", '{"t":"hello","id":"%s","n":01}' % gid),
                          ("bad escape", '{"t":"chat","id":"%s","text":"\\d"}' % gid),
                          ("not text", 5), ("no kind", '{"id":"%s"}' % gid), ("huge", "x" * 9000)):
        items.append(("message " + name, "friend_receive", dict(parts, message=message)))
    downgrade = friend.hello_message(gid, 0, a)
    items.append(("unsealed start of a sealed game", "friend_receive",
                  {"invite": live, "reply": live_reply, "seat": 1, "secret": b, "game": None, "message": downgrade}))
    begun = friend_sealed.begin({"invite": link, "reply": link_reply, "seat": 0, "secret": a, "seal_secret": "4" * 32})
    first = begun["send"][0]
    for name, text in (("lax", first[:-1] + ",}"), ("cut", first[:-9]), ("not json", "seal"),
                       ("another game", first.replace(gid, "0" * 16))):
        items.append(("sealed first message " + name, "sealed_join",
                      {"invite": link, "reply": link_reply, "secret": b, "message": text, "seal_secret": "5" * 32}))
    save = begun["game"]
    for name, text in (("lax", save[:-1] + ",}"), ("cut", save[:-30]), ("leading zero", save.replace('"calls":1', '"calls":01')),
                       ("escape", save.replace('"format"', '"\\format"', 1))):
        items.append(("sealed save " + name, "sealed_resume", {"game": text}))
    return items


def damaged_inputs():
    """Every damaged input: (label, endpoint, request)."""
    items = friend_damage()
    for label, data in base_games():
        for name, text in record_damage(label, data):
            items.append(("save " + name, "resume_game", {"game": text}))
    for name, code in code_damage():
        items.append(("code " + name, "replay_game", {"code": code}))
    for name, text in stats_damage():
        items.append(("stats " + name, "stats_check", {"stats_text": text}))
    return items
