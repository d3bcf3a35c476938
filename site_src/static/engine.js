/* Starts the engine's worker (app/engine_worker.mjs) as soon as this script arrives (an async
   script: while the page is still being read), and carries the page's calls to it:
   window.cribbageEngine.call(name, requestJson) returns a Promise of the reply's JSON text, and
   rejects if the worker cannot start or carry the call.
   The worker's first call is the engine's warm_up for this page (html[data-app]): it imports
   what the page's calls need while the page's own Python is still starting.
   site_src/app/bridge.py is its one user, from the page's MicroPython on the main thread.
   Why JavaScript and not PyScript's own worker: this starts MicroPython in the worker while
   PyScript is still starting on the page, and the engine is ready sooner (python -m bench load
   measures both).

   When something does not start:
   - the worker's start failing (a file missing or damaged) is kept as a sentence naming the file
     (window.cribbageEngine.failure()); restart() ends that worker and starts one that fetches
     its files afresh (bridge.py does, when the page tries again);
   - the page's own Python (PyScript on the main thread) not ready after UI_CHECK_MS: the page's
     start files (its scripts, preloads and config, from its <head>) are fetched again to find
     the one that did not arrive, and the status line says which, in a sentence (no Python is
     running to say it). */
(function () {
  "use strict";
  var UI_CHECK_MS = 4000;  // the page's Python is ready in about a second; a loaded machine takes longer
  var UI_GIVE_UP_MS = 9000;  // nothing found missing, still not started: say so (words only)
  var PROBE_TIMEOUT_MS = 3500;  // a start file that takes longer than this to come did not arrive
  var NOT_PROBED = /static\/(engine|offline)\.js$/;  // running (this one), or not needed to start

  // This script's own element, found by its address: document.currentScript is not relied on
  // (on a loaded machine it once gave an element with no address).
  var script = document.querySelector('script[src$="static/engine.js"]') || document.currentScript;
  var workerUrl = new URL("../app/engine_worker.mjs", script.src);
  var site = new URL(document.documentElement.getAttribute("data-root") || "./", window.location.href);
  var worker = null;
  var waiting = new Map();
  var nextId = 0;
  var broken = null;  // why the worker cannot carry calls, or null
  var bootFailure = null;  // the worker's own sentence about what did not start, or null
  var starts = 0;

  function named(url) {
    var path = new URL(url, window.location.href).pathname;
    return path.indexOf(site.pathname) === 0 ? path.slice(site.pathname.length) : path;
  }

  function failAll(message) {
    broken = message;
    waiting.forEach(function (call) { call.reject(new Error(message)); });
    waiting.clear();
  }

  function start() {
    starts += 1;
    broken = null;
    bootFailure = null;
    var url = new URL(workerUrl);
    if (starts > 1) url.searchParams.set("retry", String(starts - 1));
    var current = new Worker(url, {type: "module"});
    worker = current;
    current.onmessage = function (event) {
      if (current !== worker) return;
      var data = event.data;
      if (data.boot) bootFailure = data.error;
      var call = waiting.get(data.id);
      if (!call) return;
      waiting.delete(data.id);
      if (data.error !== undefined) call.reject(new Error(data.error));
      else call.resolve(data.reply);
    };
    current.onerror = function (event) {
      event.preventDefault();
      if (current !== worker) return;
      console.error("The engine's worker failed:", event.message || event);
      bootFailure = bootFailure || named(url) + " did not arrive or did not run";
      failAll("the engine's worker failed to start");
    };
    // Calls run in the order they arrive, so this one is done before the page's first; its reply
    // (id 0) is nobody's to wait for.
    current.postMessage({id: 0, name: "warm_up",
                         request: JSON.stringify({page: document.documentElement.getAttribute("data-app") || ""})});
  }

  window.cribbageEngine = {
    call: function (name, request) {
      return new Promise(function (resolve, reject) {
        if (broken !== null) { reject(new Error(broken)); return; }
        nextId += 1;
        waiting.set(nextId, {resolve: resolve, reject: reject});
        worker.postMessage({id: nextId, name: String(name), request: String(request)});
      });
    },
    // What did not start, in a sentence ("app/engine.pack did not arrive (HTTP 404)"), or null.
    failure: function () { return bootFailure; },
    // End the worker and start a fresh one that fetches its files again (after a failed start).
    restart: function () {
      if (worker) worker.terminate();
      failAll("the engine's worker was restarted");
      start();
    },
  };
  start();

  // --- the page's own Python: if it does not start, say which file did not arrive ----------

  function uiReady() { return document.documentElement.getAttribute("data-ui") === "ready"; }

  function startFiles() {
    var seen = {};
    var urls = [];
    var found = document.querySelectorAll('head script[src], head link[rel="preload"][href], ' +
                                          'head link[rel="modulepreload"][href], script[type="mpy"][config]');
    for (var i = 0; i < found.length; i++) {
      var element = found[i];
      var raw = element.getAttribute("src") || element.getAttribute("href") || element.getAttribute("config");
      var url = new URL(raw, window.location.href).href;
      if (!NOT_PROBED.test(url) && !seen[url]) { seen[url] = true; urls.push(url); }
    }
    return urls;
  }

  function probe(url) {
    var control = typeof AbortController === "function" ? new AbortController() : null;
    var timer = setTimeout(function () { if (control) control.abort(); }, PROBE_TIMEOUT_MS);
    return fetch(url, {cache: "no-store", signal: control ? control.signal : undefined}).then(function (response) {
      clearTimeout(timer);
      if (response.body && response.body.cancel) response.body.cancel().catch(function () {});
      return response.ok ? null : named(url) + " did not arrive (HTTP " + response.status + ")";
    }, function () {
      clearTimeout(timer);
      return named(url) + " did not arrive";
    });
  }

  function say(sentence) {
    if (uiReady()) return;
    document.documentElement.setAttribute("data-engine", "error");
    var box = document.getElementById("engine-status");
    if (box) box.setAttribute("data-state", "error");
    var line = document.getElementById("engine-status-text");
    if (line) line.textContent = sentence;
  }

  function check() {
    if (uiReady()) return;
    Promise.all(startFiles().map(probe)).then(function (results) {
      var missing = results.filter(function (result) { return result !== null; });
      if (missing.length) {
        console.error("The page's start files:", missing.join("; "));
        say("This page cannot start: " + missing[0] + ". Check the connection, then reload the page.");
      } else if (bootFailure) {
        say("The card engine could not start: " + bootFailure + ". Reload the page to try again.");
      }
    });
  }

  setTimeout(check, UI_CHECK_MS);
  setTimeout(function () {
    // Only the words: a page still starting on a loaded machine takes over the line once it runs.
    var line = document.getElementById("engine-status-text");
    if (uiReady() || document.documentElement.getAttribute("data-engine") === "error" || !line) return;
    line.textContent = bootFailure ? "The card engine could not start: " + bootFailure + ". Reload the page to try again."
                                   : "This page's Python has not started yet. If it does not, reload the page.";
  }, UI_GIVE_UP_MS);
})();
