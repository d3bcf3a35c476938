// The meeting point's frame: one connection to one Nostr relay, on behalf of the game page.
//
// The game page (site_src/app/meet_link.py) opens meet.html in an <iframe sandbox="allow-scripts">,
// so this document has an opaque origin: it can reach none of the site's storage, and its own
// Content-Security-Policy lets it open WebSockets, which the game page's does not. It holds no key
// of the game: the page hands it notes already encrypted (engine/meeting.py), and it signs each as
// a Nostr event with a key drawn for this frame alone (nostr-tools), filed under the game's topic.
//
// Messages with the page are JSON text. From the page: {op: "open", url, topic} once, then
// {op: "post", note}, {op: "again"} (ask the relay for every stored note again: the page found one
// missing) and {op: "close"}. To the page, each with the token the page put after "#"
// in this frame's address: {op: "ready"}, {op: "state", state: "open" | "closed", reason},
// {op: "note", note} for every note filed under the topic (those stored first, then new ones as
// they come; the page drops what it has), {op: "caught-up"} once the stored ones are all in.
"use strict";
(() => {
  const KIND = 1121; // a regular kind: relays keep these events
  const KEEP_DAYS = 30; // each event asks relays to drop it after this long (NIP-40)
  const MAX_NOTE = 60000; // characters of one note, both ways
  const MAX_BACKLOG = 2000; // stored events asked for at once
  const RETRY_MS = [500, 1000, 2000, 4000, 8000, 15000, 30000]; // waits before each try to connect again
  const REFRESH_MS = 5000; // how often the notes of the last REFRESH_WINDOW seconds are asked for again
  const REFRESH_WINDOW = 90; // (a relay may drop a note on its way out: it comes with the next ask)
  const RESEND_MS = 3000; // a note the relay has not confirmed is sent again after this long
  const token = location.hash.slice(1);
  const home = new URL(location.href).origin; // the site's origin (this document's own is opaque)
  const secret = NostrTools.generateSecretKey();
  const state = {url: "", topic: "", socket: null, tries: 0, timer: 0, closed: false, open: false,
                 unsent: [], sub: "", seen: new Set(), pending: new Map()};

  const tell = (message) => {
    message.token = token;
    window.parent.postMessage(JSON.stringify(message), home);
  };

  const say = (open, reason) => {
    if (state.open === open && open) return;
    state.open = open;
    tell({op: "state", state: open ? "open" : "closed", reason: reason || ""});
  };

  const send = (message) => {
    if (state.socket && state.socket.readyState === WebSocket.OPEN) {
      state.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  };

  const now = () => Math.floor(Date.now() / 1000);

  const event = (note) => NostrTools.finalizeEvent({
    kind: KIND, created_at: now(), content: note,
    tags: [["t", state.topic], ["expiration", String(now() + KEEP_DAYS * 86400)]],
  }, secret);

  // Every note stays in "pending" until the relay confirms it (["OK", id, true]), and is sent
  // again on each new connection and every RESEND_MS until then.
  const flush = () => {
    while (state.unsent.length && send(["EVENT", state.unsent[0]])) {
      const sent = state.unsent.shift();
      state.pending.set(sent.id, {event: sent, at: Date.now()});
    }
  };

  const resend = (all) => {
    const now = Date.now();
    for (const item of state.pending.values()) {
      if ((all || now - item.at >= RESEND_MS) && send(["EVENT", item.event])) item.at = now;
    }
  };

  const subscribe = (since) => {
    if (state.sub) send(["CLOSE", state.sub]);
    state.sub = "g" + Math.random().toString(36).slice(2, 10);
    const filter = {kinds: [KIND], "#t": [state.topic], limit: MAX_BACKLOG};
    if (since) filter.since = since;
    send(["REQ", state.sub, filter]);
  };

  const take = (data) => {
    let message;
    try { message = JSON.parse(data); } catch (error) { return; }
    if (!Array.isArray(message)) return;
    const [kind, sub, body] = message;
    if (kind === "EVENT" && sub === state.sub && body && typeof body === "object") {
      const tags = Array.isArray(body.tags) ? body.tags : [];
      const filed = tags.some((tag) => Array.isArray(tag) && tag[0] === "t" && tag[1] === state.topic);
      if (body.kind !== KIND || !filed || typeof body.content !== "string" || body.content.length > MAX_NOTE) return;
      if (typeof body.id === "string") {
        if (state.seen.has(body.id)) return;
        state.seen.add(body.id);
      }
      tell({op: "note", note: body.content});
    } else if (kind === "EOSE" && sub === state.sub) {
      tell({op: "caught-up"});
    } else if (kind === "OK" && typeof sub === "string") {
      const why = String(message[3] || "");
      if (body === true || why.startsWith("duplicate:")) state.pending.delete(sub);
      else console.warn("The meeting point refused a note:", why);
    } else if (kind === "NOTICE") {
      console.warn("The meeting point says:", String(sub || ""));
    }
  };

  const connect = () => {
    clearTimeout(state.timer);
    if (state.closed) return;
    let socket;
    try {
      socket = new WebSocket(state.url);
    } catch (error) {
      say(false, "bad-address");
      return;
    }
    state.socket = socket;
    socket.onopen = () => {
      state.tries = 0;
      subscribe(0);
      resend(true);
      flush();
      say(true);
    };
    socket.onmessage = (message) => { if (typeof message.data === "string") take(message.data); };
    socket.onclose = () => {
      if (state.socket !== socket) return;
      state.socket = null;
      say(false, "lost");
      if (!state.closed) {
        state.timer = setTimeout(connect, RETRY_MS[Math.min(state.tries, RETRY_MS.length - 1)]);
        state.tries += 1;
      }
    };
    socket.onerror = () => {};
  };

  window.addEventListener("online", () => { if (!state.socket && !state.closed) connect(); });

  setInterval(() => {
    if (!state.open) return;
    resend(false);
    subscribe(now() - REFRESH_WINDOW);
  }, REFRESH_MS);

  window.addEventListener("message", (message) => {
    if (message.source !== window.parent || message.origin !== home || typeof message.data !== "string") return;
    let data;
    try { data = JSON.parse(message.data); } catch (error) { return; }
    if (!data || data.token !== token) return;
    if (data.op === "open" && !state.url && typeof data.url === "string" && /^wss?:\/\/[^\s"'<>]+$/.test(data.url)
        && typeof data.topic === "string" && /^[0-9a-f]{32}$/.test(data.topic)) {
      state.url = data.url;
      state.topic = data.topic;
      connect();
    } else if (data.op === "post" && typeof data.note === "string" && data.note.length <= MAX_NOTE && state.topic) {
      state.unsent.push(event(data.note));
      flush();
    } else if (data.op === "again" && state.topic) {
      subscribe(0);
    } else if (data.op === "close") {
      state.closed = true;
      clearTimeout(state.timer);
      if (state.socket) state.socket.close();
      state.socket = null;
    }
  });

  tell({op: "ready"});
})();
