/* The offline service worker. build.py writes it to dist/sw.js, filling in CACHE_VERSION (a hash
   of the built files, so every build that changes anything gets a fresh cache) and PRECACHE (every
   page, stylesheet, app and engine file and the browser runtime, relative to this file).

   - install: fetch every PRECACHE file into the new cache (revalidating what the browser already
     holds, so files the page just loaded cost a 304, not a second download);
   - activate: delete the caches of older builds and take over the open pages;
   - fetch: the vendored runtime (runtime/, large and versioned by the build) is served from the
     cache first; pages and everything else from the network first, falling back to the cache
     when the network fails or is too slow, so the site works offline and stays fresh online.
   Why JavaScript: a browser runs only JavaScript in a service worker. */
"use strict";

const CACHE_PREFIX = "cribbage-";
const CACHE = CACHE_PREFIX + "__CACHE_VERSION__";
const PRECACHE = __PRECACHE__;
const NOT_FOUND_PAGE = "404.html";
const NETWORK_TIMEOUT_MS = 4000;

const scope = new URL("./", self.location.href);
const runtimePath = new URL("runtime/", scope).pathname;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(PRECACHE.map((path) => new Request(new URL(path, scope), {cache: "no-cache"})));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("range")) return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(event, {ignoreSearch: true}, true));
  } else if (url.pathname.startsWith(runtimePath)) {
    event.respondWith(cacheFirst(event));
  } else {
    event.respondWith(networkFirst(event, {}, false));
  }
});

function keep(event, request, response) {
  // Only whole, successful, same-origin answers are worth keeping.
  if (response.ok && response.status === 200 && response.type === "basic") {
    const copy = response.clone();
    event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)).catch(() => {}));
  }
  return response;
}

async function cacheFirst(event) {
  const cached = await caches.match(event.request);
  if (cached) return cached;
  return keep(event, event.request, await fetch(event.request));
}

async function networkFirst(event, matchOptions, isPage) {
  const request = event.request;
  // A page asked for with a query (?seed=...) is answered from the network or the plain page;
  // it is not kept under its query, which would fill the cache with one copy per address.
  const query = isPage && new URL(request.url).search !== "";
  const network = fetch(request).then((response) => (query ? response : keep(event, request, response)));
  event.waitUntil(network.catch(() => {}));
  let timer;
  const slow = new Promise((resolve) => { timer = setTimeout(resolve, NETWORK_TIMEOUT_MS); });
  try {
    const first = await Promise.race([network, slow]);
    if (first) return first;
  } catch (error) {
    // offline or the server is down: use the cache
  } finally {
    clearTimeout(timer);
  }
  const cached = await caches.match(request, matchOptions);
  if (cached) return cached;
  if (isPage) {
    const notFound = await caches.match(new URL(NOT_FOUND_PAGE, scope));
    if (notFound) return notFound;
  }
  return network;  // nothing cached: the network's own answer or error, however late
}
