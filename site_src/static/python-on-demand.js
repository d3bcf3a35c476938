/* Starts a page's Python only when it is needed, so a reference page loads none at first.

     <section data-python-app="verifier" data-python-params="seed"> ... </section>
     <script src="/static/python-on-demand.js" defer></script>

   The app (site_src/app/NAME.py, built to app/NAME.mpy and run in MicroPython like every page module) starts at once when
   the address carries one of the listed query parameters, otherwise on the first focus or press
   inside the element. Starting sets the markers bridge.py keeps up to date (html[data-app],
   [data-ui], [data-engine]), shows the element's [data-python-hidden] parts (the engine status)
   and adds the engine's worker, the page module and PyScript, just as base.html does for the
   interactive pages.
   Why JavaScript: PyScript starts Python as soon as its script is on the page; deciding whether
   to put it there at all has to happen before any Python runs. */
(function () {
  "use strict";
  var box = document.querySelector("[data-python-app]");
  if (!box) return;
  var app = box.getAttribute("data-python-app");
  if (!/^[a-z][a-z0-9_]*$/.test(app)) return;
  var root = document.documentElement.getAttribute("data-root") || "./";
  var params = (box.getAttribute("data-python-params") || "").split(/\s+/).filter(Boolean);
  var triggers = ["focusin", "pointerdown"];
  var started = false;

  function start() {
    if (started) return;
    started = true;
    triggers.forEach(function (type) { box.removeEventListener(type, start); });
    var html = document.documentElement;
    html.setAttribute("data-app", app);
    html.setAttribute("data-ui", "loading");
    html.setAttribute("data-engine", "idle");
    box.querySelectorAll("[data-python-hidden]").forEach(function (part) { part.hidden = false; });
    var page = document.createElement("script");
    page.type = "mpy";
    page.textContent = ("import asyncio\nawait asyncio.sleep(0)\nimport pack\npack.mount(\"" + app + ".pack\")\n"
                        + "import " + app + "\n");  // as base.html starts a page module
    page.setAttribute("config", root + "app/" + app + ".json");
    document.body.appendChild(page);
    var core = document.createElement("script");
    core.type = "module";
    core.src = root + "runtime/pyscript/core.js";
    // The engine's worker first (as base.html starts it): the page's Python finds it in place.
    var engine = document.createElement("script");
    engine.src = root + "static/engine.js";
    engine.onload = engine.onerror = function () { document.head.appendChild(core); };
    document.head.appendChild(engine);
  }

  var query = new URLSearchParams(window.location.search);
  if (params.some(function (name) { return query.has(name); })) start();
  else triggers.forEach(function (type) { box.addEventListener(type, start); });
})();
