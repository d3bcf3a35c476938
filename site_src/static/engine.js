/* Starts the engine's worker (app/engine_worker.mjs) as soon as this script arrives (async), and
   carries the page's calls to it: window.cribbageEngine.call(name, requestJson) returns a
   Promise of the reply's JSON text, and rejects if the worker cannot start or carry the call.
   The worker's first call is the engine's warm_up for this page (html[data-app]): it imports
   what the page's calls need while the page's own Python is still starting.
   site_src/app/bridge.py is its one user, from the page's MicroPython on the main thread.
   Why JavaScript and not PyScript's own worker: this starts MicroPython in the worker while
   PyScript is still starting on the page, and the engine is ready sooner (python -m bench load
   measures both). */
(function () {
  "use strict";
  // This script's own element, found by its address: document.currentScript is not relied on
  // for an async script (on a loaded machine it once gave an element with no address).
  var script = document.querySelector('script[src$="static/engine.js"]') || document.currentScript;
  var worker = new Worker(new URL("../app/engine_worker.mjs", script.src), {type: "module"});
  var waiting = new Map();
  var nextId = 0;
  var broken = null;

  function failAll(message) {
    broken = message;
    waiting.forEach(function (call) { call.reject(new Error(message)); });
    waiting.clear();
  }

  worker.onmessage = function (event) {
    var data = event.data;
    var call = waiting.get(data.id);
    if (!call) return;
    waiting.delete(data.id);
    if (data.error !== undefined) call.reject(new Error(data.error));
    else call.resolve(data.reply);
  };
  worker.onerror = function (event) {
    event.preventDefault();
    console.error("The engine's worker failed:", event.message || event);
    failAll("the engine's worker failed to start");
  };

  // Calls run in the order they arrive, so this one is done before the page's first; its reply
  // (id 0) is nobody's to wait for.
  worker.postMessage({id: 0, name: "warm_up",
                      request: JSON.stringify({page: document.documentElement.getAttribute("data-app") || ""})});

  window.cribbageEngine = {
    call: function (name, request) {
      return new Promise(function (resolve, reject) {
        if (broken !== null) { reject(new Error(broken)); return; }
        nextId += 1;
        waiting.set(nextId, {resolve: resolve, reject: reject});
        worker.postMessage({id: nextId, name: String(name), request: String(request)});
      });
    },
  };
})();
