/* What a page is about to be, decided before its first paint, without Python.

   Loaded as a plain blocking script at the end of <head> (after every file the head asks for,
   fetched first of them) on the game page, the calculator, the deal checker and the replay, so it
   runs before anything is drawn. It reads the address and the game
   page's saved games (localStorage; the keys of site_src/app/table/store.py and friend_store.py) and
   sets html[data-start] for the stylesheets (first-paint.css):

   - "table": the game page is about to show a game (a practice link or a deal of the day,
     ?seed=...; a saved game; a friend game at the table): the felt, the seats, the scores, the
     board and the cards face down where they will be;
   - "setup": the game page is about to show the new-game form (a new visitor);
   - "result": the calculator, the deal checker or the replay is about to show a result from
     its link (?hand=..., ?seed=..., ?day=... or ?code=...): its result area keeps its final
     size from the start (the replay's: its game's first step, with "Replaying" said there).

   For a game's table it also marks what changes the table's shape: html[data-start-link] (a
   link's first deal: the cuts), html[data-start-seats] (3, 4 or "pass") and
   html[data-start-target] ("61": a board half as long).

   A friend link (#invite=, #reply=, #connect=) opens a panel of its own and sets nothing.
   The page's Python removes the attribute once it has drawn the first table (game.py).

   Until the page's Python is ready, the game page's setup keeps what is done to it: a click on
   Deal (or another of its buttons) is noted, said in the form ("Dealing as soon as the page is
   ready"), and acted on by game.py once it is ready; choices made in the form stay made.
   window.cribbageEarly.take() hands that over (JSON text) and stops listening. */
(function () {
  "use strict";
  var root = document.documentElement;
  var page = (document.currentScript && document.currentScript.getAttribute("data-page")) || "";
  var query;
  try { query = new URLSearchParams(location.search); } catch (error) { return; }

  function given(name) {
    var value = query.get(name);
    return value !== null && value.trim() !== "";
  }

  function stored(key) {
    try { return window.localStorage.getItem(key); } catch (error) { return null; }
  }

  function savedGame(key) {
    var text = stored(key);
    if (!text) return null;
    try {
      var envelope = JSON.parse(text);
      var isGame = !!envelope && envelope.v === 1 && typeof envelope.game === "string" && envelope.game !== "";
      return isGame ? envelope : null;
    } catch (error) {
      return null;  // damaged: the page sets it aside and opens the setup
    }
  }

  // The seats of the saved game about to be resumed, from the page's notes on it (the "meta" of
  // table/setup.py's meta_from): "pass", "3", "4", or "" for two seats (or notes it cannot read);
  // for two on one device, the players' names.
  var savedSeats = "";
  var names = [];

  function seatsOf(envelope) {
    var meta = envelope.meta;
    if (!meta || typeof meta !== "object") return "";
    if (meta.pass_and_play === true) {
      if (Array.isArray(meta.names)) names = meta.names;
      return "pass";
    }
    return meta.players === 3 || meta.players === 4 ? String(meta.players) : "";
  }

  // A text as a CSS string (each quote, backslash or line break as its hex escape).
  function cssString(text) {
    return "\"" + text.replace(/["\\\n\r]/g, function (c) { return "\\" + c.charCodeAt(0).toString(16) + " "; }) + "\"";
  }

  // Two on one device: the seats and the screen that passes the device name the players (their
  // order and whose turn it is to come with the page's Python). Those words are kept hidden till
  // then, but take their place: the longer of the two names stands in for each of them. The cuts
  // of a link's first deal name each player, in the players' order.
  function passNames(pair) {
    var longest = "";
    for (var k = 0; k < 2; k += 1) {
      var name = typeof pair[k] === "string" && pair[k].trim() ? pair[k].trim().slice(0, 20) : "Player " + (k + 1);
      root.style.setProperty("--first-paint-name-" + (k + 1), cssString(name));
      if (name.length > longest.length) longest = name;
    }
    root.style.setProperty("--first-paint-pass-name", cssString(longest));
  }

  // The target of the saved game about to be resumed (its record's own "target").
  function targetOf(envelope) {
    try {
      var record = JSON.parse(envelope.game);
      return record && record.target === 61 ? "61" : "";
    } catch (error) {
      return "";
    }
  }

  var target = "";

  // A link's target: its own (61 or 121), else the person's setting (table/setup.py's url_options).
  function linkTarget() {
    var asked = query.get("target");
    if (asked === "61") return "61";
    if (asked === "121") return "";
    try {
      var settings = JSON.parse(stored("cribbage.settings.v1") || "null");
      return settings && settings.target === 61 ? "61" : "";
    } catch (error) {
      return "";
    }
  }

  function gameStart() {
    if (/^#(invite|reply|connect)=/.test(location.hash)) return "";
    if (/^#play=/.test(location.hash) || given("seed")) return "table";
    if (stored("cribbage.friendnow.v1")) return "table";
    var envelope = savedGame("cribbage.game.v1");
    if (!envelope) return "setup";
    savedSeats = seatsOf(envelope);
    target = targetOf(envelope);
    return "table";
  }

  var start = "";
  if (page === "game") start = gameStart();
  else if (page === "calculator") start = given("hand") ? "result" : "";
  else if (page === "verifier") start = given("seed") || given("day") ? "result" : "";
  else if (page === "replay") start = given("code") ? "result" : "";
  if (start) root.setAttribute("data-start", start);
  var link = start === "table" && given("seed");
  if (link) root.setAttribute("data-start-link", "");
  // A link's game for three or four players, or for two on one device (pass and play), or a
  // saved game's: its seats; and a game to 61, whose board is half as long (the page draws it;
  // its place is kept meanwhile).
  var seats = savedSeats;
  if (link) {
    var players = query.get("players");
    seats = players === "3" || players === "4" ? players : "";
    if (["1", "true", "on", "yes"].indexOf(query.get("pass") || "") >= 0) {
      seats = "pass";
      names = [query.get("name1"), query.get("name2")];
    }
    target = linkTarget();
  }
  if (seats) root.setAttribute("data-start-seats", seats);
  if (seats === "pass") passNames(names);
  if (target) root.setAttribute("data-start-target", target);

  if (page !== "game") return;
  var early = {pending: null, form: null};
  var listening = true;

  function setupForm(target) {
    return target && target.closest ? target.closest("#setup") : null;
  }

  function snapshot(form) {
    var values = {};
    var fields = form.querySelectorAll("input");
    for (var i = 0; i < fields.length; i += 1) {
      var field = fields[i];
      if (field.type === "radio") { if (field.checked) values[field.name] = field.value; }
      else if (field.type === "checkbox") values[field.id] = field.checked;
      else if (field.id) values[field.id] = field.value;
    }
    early.form = values;
  }

  function say(form) {
    var message = form.querySelector("#setup-message");
    if (message) message.textContent = "Getting the cards ready\u2026 the game starts as soon as the page is ready.";
    root.setAttribute("data-early", "queued");
  }

  function onSubmit(event) {
    var form = setupForm(event.target);
    if (!listening || !form) return;
    event.preventDefault();  // not a page load: the page deals once its Python is ready
    snapshot(form);
    early.pending = "deal-button";
    say(form);
  }

  function onClick(event) {
    var form = setupForm(event.target);
    var button = event.target.closest ? event.target.closest("button[id]") : null;
    if (!listening || !form || !button || button.type === "submit") return;
    event.preventDefault();
    snapshot(form);
    early.pending = button.id;
    say(form);
  }

  function onChange(event) {
    var form = setupForm(event.target);
    if (listening && form) snapshot(form);
  }

  document.addEventListener("submit", onSubmit, true);
  document.addEventListener("click", onClick, true);
  document.addEventListener("change", onChange, true);
  document.addEventListener("input", onChange, true);

  window.cribbageEarly = {
    take: function () {
      listening = false;
      document.removeEventListener("submit", onSubmit, true);
      document.removeEventListener("click", onClick, true);
      document.removeEventListener("change", onChange, true);
      document.removeEventListener("input", onChange, true);
      return JSON.stringify(early);
    },
  };
})();
