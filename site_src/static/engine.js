/* Starts the card engine (static/engine-worker.mjs: Pyodide in a Web Worker) and carries the
   page's calls to it. A page that needs the engine at once loads this with data-start, so the
   worker boots while the page's own Python (MicroPython, site_src/app/bridge.py) is loading;
   otherwise bridge.py starts it on first use. The page's Python uses only:

     window.cribbageEngine.start()            -> Promise of "fresh" or "snapshot" (how it started)
     window.cribbageEngine.call(name, json)   -> Promise of the endpoint's JSON reply text

   A promise is rejected with an Error when the worker cannot start or a call cannot be
   carried; the engine's own errors come back inside the JSON reply (engine/api.py). */
(function () {
  "use strict";
  var script = document.currentScript;
  var worker = null;
  var started = null;
  var nextId = 1;
  var pending = {};

  function settle(id, ok, value) {
    var waiting = pending[id];
    if (!waiting) return;
    delete pending[id];
    if (ok) waiting.resolve(value);
    else waiting.reject(new Error(value));
  }

  function failAll(message) {
    Object.keys(pending).forEach(function (id) { settle(id, false, message); });
  }

  function start() {
    if (started) return started;
    started = new Promise(function (resolve, reject) {
      pending[0] = {resolve: resolve, reject: reject};
    });
    try {
      var root = document.documentElement.getAttribute("data-root") || "./";
      // A page the site's service worker serves belongs to a returning visitor: let the worker
      // keep a snapshot of the started engine for the next visit (see engine-worker.mjs).
      var returning = !!(navigator.serviceWorker && navigator.serviceWorker.controller);
      worker = new Worker(root + "static/engine-worker.mjs",
                          {type: "module", name: returning ? "engine keep-snapshot" : "engine"});
    } catch (error) {
      settle(0, false, "The engine's worker could not be created: " + error);
      return started;
    }
    worker.onmessage = function (event) {
      var message = event.data || {};
      if (message.id === 0 && message.ok) {
        // How the engine started, "fresh" or "snapshot": html[data-engine-from], for tests.
        document.documentElement.setAttribute("data-engine-from", String(message.text));
      }
      settle(message.id, message.ok, message.ok ? message.text : message.error);
    };
    worker.onerror = function (event) {
      event.preventDefault();
      failAll("The engine's worker failed: " + (event.message || "it could not be loaded"));
    };
    return started;
  }

  function call(name, text) {
    return start().then(function () {
      return new Promise(function (resolve, reject) {
        var id = nextId++;
        pending[id] = {resolve: resolve, reject: reject};
        worker.postMessage({id: id, name: String(name), text: String(text)});
      });
    });
  }

  window.cribbageEngine = {start: start, call: call};
  if (script && script.hasAttribute("data-start")) start();
})();
