/* Registers the offline service worker (sw.js at the site's root) once the page has settled:
   after the load event and, on a page running Python, once its engine is ready or has failed,
   so that the worker's first download of the site never competes with the page's own.
   Why JavaScript: the reference pages run no Python at all, and they must work offline too. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var html = document.documentElement;
  var root = html.getAttribute("data-root") || "./";
  var LATEST_MS = 60000;  // register by then even if the engine is still loading
  var done = false;

  function register() {
    if (done) return;
    done = true;
    navigator.serviceWorker.register(root + "sw.js").catch(function () {
      // Not allowed here (private mode, blocked by the browser): the site works online only.
    });
  }

  function settled() {
    var engine = html.getAttribute("data-engine");
    return !html.getAttribute("data-app") || engine === "ready" || engine === "error";
  }

  function whenSettled() {
    if (settled()) return register();
    var watch = new MutationObserver(function () {
      if (settled()) {
        watch.disconnect();
        register();
      }
    });
    watch.observe(html, {attributes: true, attributeFilter: ["data-app", "data-engine"]});
    setTimeout(function () { watch.disconnect(); register(); }, LATEST_MS);
  }

  if (document.readyState === "complete") whenSettled();
  else window.addEventListener("load", whenSettled);
})();
