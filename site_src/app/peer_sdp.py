"""Session descriptions of a direct connection, made short enough for a link and rebuilt again.

Pure Python that CPython and MicroPython both run (no typing, no re; plain str methods). A
WebRTC data channel between two browsers needs an offer and an answer (SDP, about 700 characters
each with no ICE servers). Of that the other side needs only the ICE user fragment and password,
the DTLS certificate's SHA-256 fingerprint, the DTLS setup role and the network candidates;
everything else is the same for every data-channel-only connection and is rebuilt from a template.

    text = compact_description(pc_local_sdp)          # about 130 characters for two candidates
    sdp = expand_description(text, "answer")           # for setRemoteDescription

The compact text (URL-safe: letters, digits, ``-``, ``_`` and ``.``) is six fields joined by
``.``:

1. ``2`` (the connection's version: this format, and several texts to one message as
   peer_link frames them; version 1 sent each text alone), then ``o`` (offer) or ``a`` (answer),
   then the setup role:
   ``a`` actpass, ``c`` active, ``p`` passive;
2. the ICE user fragment and 3. the ICE password, their ``+`` and ``/`` written ``-`` and ``_``
   (ICE's characters are exactly base64's, so this is one to one);
4. the fingerprint's 32 bytes in base64url (43 characters);
5. the candidates (UDP, component 1, host or server-reflexive, highest priority first, at most
   MAX_CANDIDATES of them in at most MAX_RECORD_BYTES) as base64url of one record each: a byte ``kind | type << 2``, the address,
   then the port (2 bytes). Kinds: 0 IPv4 (4 bytes), 1 IPv6 (16 bytes), 2 an mDNS name
   ``<uuid>.local`` (the UUID's 16 bytes), 3 another host name (a length byte, then its
   letters). Types: 0 host, 1 srflx. Priorities and foundations are not kept: the rebuilt
   description gives the candidates falling priorities in the same order;
6. a check: base64url of the first CHECK_BYTES bytes of the SHA-256 of the text before it, so a
   code damaged on its way is refused here rather than failing to connect later.

Bad text raises ValueError with a short message fit to show the player.
"""

import hashlib

VERSION = "2"
KINDS = {"offer": "o", "answer": "a"}
SETUP_ROLES = {"actpass": "a", "active": "c", "passive": "p"}
MAX_TEXT = 1000  # characters of compact text accepted; a real one is 100-350
MAX_SDP = 20000  # characters of SDP accepted by compact_description
MAX_CANDIDATES = 8
MAX_RECORD_BYTES = 180  # of candidate records in one code (240 characters): the rest are left out
CHECK_BYTES = 3
FINGERPRINT_BYTES = 32
MIN_UFRAG, MAX_UFRAG = 4, 256
MIN_PWD, MAX_PWD = 22, 256
MAX_NAME = 253
SCTP_PORT = 5000
MAX_MESSAGE_SIZE = 262144

KIND_IPV4, KIND_IPV6, KIND_MDNS, KIND_NAME = 0, 1, 2, 3
CANDIDATE_TYPES = ("host", "srflx")
TYPE_PREFERENCES = (126, 100)  # RFC 8445's recommended type preferences, host and srflx
MDNS_SUFFIX = ".local"

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
ICE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
HEX = "0123456789abcdef"
NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-."

NOT_A_CODE = "This is not a connection code."
DAMAGED = "This connection code is damaged or incomplete: copy the whole code again."
TOO_LONG = "This connection code is too long to be real."
WRONG_VERSION = "This connection code comes from a different version of the site."
NOT_OFFER = "This is a reply code, not an invitation."
NOT_ANSWER = "This is an invitation code, not a reply."
NOT_DATA_CHANNEL = "This session description is not a data-channel-only connection."


def _b64_encode(data):
    """base64url of bytes, without padding."""
    out = []
    bits, value = 0, 0
    for byte in data:
        value = (value << 8) | byte
        bits += 8
        while bits >= 6:
            bits -= 6
            out.append(B64[(value >> bits) & 63])
        value &= (1 << bits) - 1
    if bits:
        out.append(B64[(value << (6 - bits)) & 63])
    return "".join(out)


def _b64_decode(text):
    """Bytes of unpadded base64url text; ValueError unless it is exactly that."""
    out = bytearray()
    bits, value = 0, 0
    for char in text:
        index = B64.find(char)
        if index < 0:
            raise ValueError(NOT_A_CODE)
        value = (value << 6) | index
        bits += 6
        if bits >= 8:
            bits -= 8
            out.append((value >> bits) & 255)
            value &= (1 << bits) - 1
    if bits >= 6 or value:  # a lone sixth character, or stray bits: not what _b64_encode writes
        raise ValueError(DAMAGED)
    return bytes(out)


def _check(text):
    """The check field for the text before it."""
    return _b64_encode(hashlib.sha256(text.encode()).digest()[:CHECK_BYTES])


def _ice_to_url(value, low, high, what):
    if not low <= len(value) <= high:
        raise ValueError(NOT_DATA_CHANNEL + " (ICE " + what + " length)")
    out = []
    for char in value:
        index = ICE_CHARS.find(char)
        if index < 0:
            raise ValueError(NOT_DATA_CHANNEL + " (ICE " + what + ")")
        out.append(B64[index])
    return "".join(out)


def _url_to_ice(value, low, high):
    if not low <= len(value) <= high:
        raise ValueError(DAMAGED)
    out = []
    for char in value:
        index = B64.find(char)
        if index < 0:
            raise ValueError(NOT_A_CODE)
        out.append(ICE_CHARS[index])
    return "".join(out)


def _is_digits(text):
    for char in text:
        if not "0" <= char <= "9":
            return False
    return len(text) > 0


def _is_hex(text):
    for char in text:
        if HEX.find(char) < 0:
            return False
    return len(text) > 0


def _ipv4_bytes(text):
    """The 4 bytes of a dotted IPv4 address, or None."""
    parts = text.split(".")
    if len(parts) != 4:
        return None
    out = bytearray()
    for part in parts:
        if not _is_digits(part) or len(part) > 3 or int(part) > 255:
            return None
        out.append(int(part))
    return bytes(out)


def _ipv6_bytes(text):
    """The 16 bytes of an IPv6 address (with ``::`` and a dotted IPv4 tail allowed), or None."""
    text = text.lower()
    if text.count("::") > 1 or ":" not in text:
        return None
    tail = b""
    if "." in text:  # the last 32 bits written as an IPv4 address
        cut = text.rfind(":")
        tail = _ipv4_bytes(text[cut + 1:])
        if tail is None:
            return None
        text = text[:cut + 1]
        if not text.endswith("::"):
            text = text[:-1]
    halves = text.split("::")
    groups = []
    for half in halves:
        groups.append([] if half == "" else half.split(":"))
    wanted = 8 - len(tail) // 2
    count = sum(len(g) for g in groups)
    if len(groups) == 2:
        if count >= wanted:
            return None
        words = groups[0] + ["0"] * (wanted - count) + groups[1]
    else:
        if count != wanted:
            return None
        words = groups[0]
    out = bytearray()
    for word in words:
        if not 1 <= len(word) <= 4 or not _is_hex(word):
            return None
        value = int(word, 16)
        out.append(value >> 8)
        out.append(value & 255)
    return bytes(out) + tail


def _ipv6_text(data):
    return ":".join("%x" % ((data[i] << 8) | data[i + 1]) for i in range(0, 16, 2))


def _uuid_bytes(name):
    """The 16 bytes of a lowercase ``<uuid>.local`` name, or None."""
    if not name.endswith(MDNS_SUFFIX):
        return None
    uuid = name[:-len(MDNS_SUFFIX)]
    parts = uuid.split("-")
    if [len(p) for p in parts] != [8, 4, 4, 4, 12]:
        return None
    digits = "".join(parts)
    if not _is_hex(digits):
        return None
    return bytes(int(digits[i:i + 2], 16) for i in range(0, 32, 2))


def _uuid_text(data):
    digits = "".join("%02x" % byte for byte in data)
    return (digits[:8] + "-" + digits[8:12] + "-" + digits[12:16] + "-" + digits[16:20] + "-"
            + digits[20:] + MDNS_SUFFIX)


def _is_name(name):
    if not 1 <= len(name) <= MAX_NAME or name.startswith(".") or name.startswith("-"):
        return False
    for char in name:
        if NAME_CHARS.find(char) < 0:
            return False
    return True


def _address_record(address):
    """(kind, address bytes) of a candidate's address, or None if it cannot be carried."""
    found = _ipv4_bytes(address)
    if found is not None:
        return KIND_IPV4, found
    found = _ipv6_bytes(address)
    if found is not None:
        return KIND_IPV6, found
    found = _uuid_bytes(address)
    if found is not None:
        return KIND_MDNS, found
    if _is_name(address):
        encoded = address.encode()
        return KIND_NAME, bytes([len(encoded)]) + encoded
    return None


def _candidate(line):
    """(priority, record bytes) of one ``a=candidate:`` value worth carrying, or None."""
    words = line.split()
    if len(words) < 8 or words[1] != "1" or words[2].lower() != "udp" or words[6] != "typ":
        return None
    if words[7] not in CANDIDATE_TYPES or not _is_digits(words[3]) or not _is_digits(words[5]):
        return None
    port = int(words[5])
    if not 0 < port < 65536:
        return None
    found = _address_record(words[4])
    if found is None:
        return None
    kind, address = found
    head = kind | (CANDIDATE_TYPES.index(words[7]) << 2)
    return int(words[3]), bytes([head]) + address + bytes([port >> 8, port & 255])


def compact_description(sdp):
    """The compact text of a full SDP offer or answer of a data-channel-only connection,
    gathered completely. ValueError if it is not one."""
    if not isinstance(sdp, str) or len(sdp) > MAX_SDP:
        raise ValueError(NOT_DATA_CHANNEL)
    values = {}
    candidates = []
    media = 0
    for raw in sdp.split("\n"):
        line = raw.strip()
        if line.startswith("m="):
            media += 1
            words = line[2:].split()
            if len(words) < 3 or words[0] != "application" or "DTLS/SCTP" not in words[2]:
                raise ValueError(NOT_DATA_CHANNEL)
        elif line.startswith("a=candidate:"):
            found = _candidate(line[len("a=candidate:"):])
            if found is not None and found[1] not in [record for _, _, record in candidates]:
                candidates.append((-found[0], len(candidates), found[1]))
        elif line.startswith("a="):
            name, _, value = line[2:].partition(":")
            if name in ("ice-ufrag", "ice-pwd", "fingerprint", "setup", "mid") and name not in values:
                values[name] = value.strip()
    if media != 1:
        raise ValueError(NOT_DATA_CHANNEL)
    for name in ("ice-ufrag", "ice-pwd", "fingerprint", "setup"):
        if name not in values:
            raise ValueError(NOT_DATA_CHANNEL + " (no " + name + ")")
    if values.get("mid", "0") != "0":
        raise ValueError(NOT_DATA_CHANNEL + " (mid)")
    setup = SETUP_ROLES.get(values["setup"])
    if setup is None:
        raise ValueError(NOT_DATA_CHANNEL + " (setup)")
    algorithm, _, digest = values["fingerprint"].partition(" ")
    octets = digest.strip().lower().split(":")
    if algorithm.lower() != "sha-256" or len(octets) != FINGERPRINT_BYTES:
        raise ValueError(NOT_DATA_CHANNEL + " (fingerprint)")
    for octet in octets:
        if len(octet) != 2 or not _is_hex(octet):
            raise ValueError(NOT_DATA_CHANNEL + " (fingerprint)")
    fingerprint = bytes(int(octet, 16) for octet in octets)
    kind = "a" if setup != "a" else "o"
    candidates.sort()  # highest priority first, ties in the order given
    records = b""
    count = 0
    for _, _, record in candidates:
        if count < MAX_CANDIDATES and len(records) + len(record) <= MAX_RECORD_BYTES:
            records += record
            count += 1
    body = ".".join([VERSION + kind + setup,
                     _ice_to_url(values["ice-ufrag"], MIN_UFRAG, MAX_UFRAG, "user fragment"),
                     _ice_to_url(values["ice-pwd"], MIN_PWD, MAX_PWD, "password"),
                     _b64_encode(fingerprint), _b64_encode(records)])
    return body + "." + _check(body)


def _read_candidates(data):
    """Candidate lines (without ``a=``) from the candidate records."""
    lines = []
    at = 0
    while at < len(data):
        head = data[at]
        kind, ctype = head & 3, head >> 2
        if ctype >= len(CANDIDATE_TYPES):
            raise ValueError(DAMAGED)
        at += 1
        if kind == KIND_IPV4:
            size = 4
        elif kind == KIND_NAME:
            if at >= len(data):
                raise ValueError(DAMAGED)
            size = data[at]
            at += 1
        else:
            size = 16
        if at + size + 2 > len(data):
            raise ValueError(DAMAGED)
        raw = data[at:at + size]
        port = (data[at + size] << 8) | data[at + size + 1]
        at += size + 2
        if kind == KIND_IPV4:
            address = ".".join(str(byte) for byte in raw)
        elif kind == KIND_IPV6:
            address = _ipv6_text(raw)
        elif kind == KIND_MDNS:
            address = _uuid_text(raw)
        else:
            address = "".join(chr(byte) for byte in raw)
            if not _is_name(address):
                raise ValueError(DAMAGED)
        if port == 0:
            raise ValueError(DAMAGED)
        index = len(lines)
        if index >= MAX_CANDIDATES:
            raise ValueError(DAMAGED)
        priority = (TYPE_PREFERENCES[ctype] << 24) | ((65535 - index) << 8) | 255
        line = ("candidate:%d 1 udp %d %s %d typ %s" % (index + 1, priority, address, port, CANDIDATE_TYPES[ctype]))
        if ctype == 1:
            line += " raddr 0.0.0.0 rport 0"
        lines.append((line + " generation 0", port))
    return lines


def _parse(text):
    """(kind letter, setup role, ufrag, pwd, fingerprint bytes, candidate lines) of compact text."""
    if not isinstance(text, str):
        raise ValueError(NOT_A_CODE)
    if len(text) > MAX_TEXT:
        raise ValueError(TOO_LONG)
    text = "".join(text.split())  # a messenger may break a long code over lines
    if not text:
        raise ValueError(NOT_A_CODE)
    for char in text:
        if char != "." and B64.find(char) < 0:
            raise ValueError(NOT_A_CODE)
    fields = text.split(".")
    head = fields[0]
    if len(head) != 3 or head[1] not in "oa" or head[2] not in "acp":
        raise ValueError(NOT_A_CODE)
    if head[0] != VERSION:
        raise ValueError(WRONG_VERSION)
    if len(fields) != 6:
        raise ValueError(DAMAGED)
    body = text[:text.rfind(".")]
    if fields[5] != _check(body):
        raise ValueError(DAMAGED)
    setup = None
    for role, letter in SETUP_ROLES.items():
        if letter == head[2]:
            setup = role
    if (head[1] == "o") != (setup == "actpass"):
        raise ValueError(DAMAGED)
    ufrag = _url_to_ice(fields[1], MIN_UFRAG, MAX_UFRAG)
    pwd = _url_to_ice(fields[2], MIN_PWD, MAX_PWD)
    fingerprint = _b64_decode(fields[3])
    if len(fingerprint) != FINGERPRINT_BYTES:
        raise ValueError(DAMAGED)
    return head[1], setup, ufrag, pwd, fingerprint, _read_candidates(_b64_decode(fields[4]))


def is_code_start(text):
    """True for text that starts as a compact code of any version does (``1o``, ``2a``...)."""
    return isinstance(text, str) and len(text) >= 2 and text[0] in "0123456789" and text[1] in "oa"


def expand_description(text, kind):
    """The full SDP (``kind`` "offer" or "answer") that compact ``text`` stands for, fit for
    RTCPeerConnection.setRemoteDescription. ValueError with a short message if it is not one."""
    if kind not in KINDS:
        raise ValueError("kind must be 'offer' or 'answer'")
    letter, setup, ufrag, pwd, fingerprint, candidates = _parse(text)
    if letter != KINDS[kind]:
        raise ValueError(NOT_OFFER if kind == "offer" else NOT_ANSWER)
    session = int.from_bytes(fingerprint[:7], "big") + 1
    port = candidates[0][1] if candidates else 9
    lines = ["v=0", "o=- %d 2 IN IP4 127.0.0.1" % session, "s=-", "t=0 0", "a=group:BUNDLE 0",
             "a=msid-semantic: WMS", "m=application %d UDP/DTLS/SCTP webrtc-datachannel" % port,
             "c=IN IP4 0.0.0.0"]
    lines.extend("a=" + line for line, _ in candidates)
    lines.extend(["a=ice-ufrag:" + ufrag, "a=ice-pwd:" + pwd,
                  "a=fingerprint:sha-256 " + ":".join("%02X" % byte for byte in fingerprint),
                  "a=setup:" + setup, "a=mid:0", "a=sctp-port:%d" % SCTP_PORT,
                  "a=max-message-size:%d" % MAX_MESSAGE_SIZE])
    return "\r\n".join(lines) + "\r\n"


def description_kind(text):
    """"offer" or "answer": which kind of description compact ``text`` is. ValueError if bad."""
    return "offer" if _parse(text)[0] == "o" else "answer"
