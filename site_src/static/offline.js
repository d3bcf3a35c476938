/* Registers the offline service worker (sw.js at the site's root) once the page has settled:
   after the load event and, on a page running Python, once its engine is ready or has failed;
   then SETTLE_MS more and a moment when the page is idle, so that the worker's first download
   of the site never competes with what the page does first (the game's first hand is drawn just
   after its engine is ready).
   Why JavaScript: the reference pages run no Python at all, and they must work offline too. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var html = document.documentElement;
  var root = html.getAttribute("data-root") || "./";
  var LATEST_MS = 60000;  // register by then even if the engine is still loading
  var SETTLE_MS = 2000;  // after the page has settled, before the registration
  var IDLE_WAIT_MS = 3000;  // the longest wait for an idle moment after that
  var done = false;

  function register() {
    if (done) return;
    done = true;
    navigator.serviceWorker.register(root + "sw.js").catch(function () {
      // Not allowed here (private mode, blocked by the browser): the site works online only.
    });
  }

  function registerWhenIdle() {
    if (window.requestIdleCallback) window.requestIdleCallback(register, {timeout: IDLE_WAIT_MS});
    else register();
  }

  function settled() {
    var engine = html.getAttribute("data-engine");
    return !html.getAttribute("data-app") || engine === "ready" || engine === "error";
  }

  function whenSettled() {
    var later = function () { setTimeout(registerWhenIdle, SETTLE_MS); };
    if (settled()) return later();
    var watch = new MutationObserver(function () {
      if (settled()) {
        watch.disconnect();
        later();
      }
    });
    watch.observe(html, {attributes: true, attributeFilter: ["data-app", "data-engine"]});
    setTimeout(function () { watch.disconnect(); register(); }, LATEST_MS);
  }

  if (document.readyState === "complete") whenSettled();
  else window.addEventListener("load", whenSettled);
})();
