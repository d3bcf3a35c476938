/* The offline service worker. build.py writes it to dist/sw.js, filling in CACHE_VERSION (a hash
   of the built files, so every build that changes anything gets a fresh cache), PRECACHE (every
   page, stylesheet, app and engine file and the browser runtime, relative to this file) and
   HASHES (the SHA-256, in hex, of every file the build wrote that may be kept in the cache, by its
   path from this file: "rules/index.html" for rules/).

   - install: fetch every PRECACHE file into the new cache (revalidating what the browser already
     holds, so files the page just loaded cost a 304, not a second download); a file whose bytes
     are not the build's fails the install (the server holds another build: the next visit tries
     again);
   - activate: delete the caches of older builds and take over the open pages;
   - fetch: the vendored runtime (runtime/, large and versioned by the build) is served from the
     cache first; pages and everything else from the network first, falling back to the cache
     when the network fails or is too slow, so the site works offline and stays fresh online.
   Nothing leaves the cache unless its bytes hash to what the build wrote and its media type is
   the one its ending calls for: an entry that differs (whatever wrote it) is deleted and the file
   fetched afresh, and only a file whose bytes and type match is kept. A file the build did not write is never kept or served from the cache.
   Why JavaScript: a browser runs only JavaScript in a service worker. */
"use strict";

const CACHE_PREFIX = "cribbage-";
const CACHE = CACHE_PREFIX + "__CACHE_VERSION__";
const PRECACHE = __PRECACHE__;
const HASHES = __HASHES__;
const NOT_FOUND_PAGE = "404.html";
const NETWORK_TIMEOUT_MS = 4000;

const scope = new URL("./", self.location.href);
const runtimePath = new URL("runtime/", scope).pathname;

// The file's path from the scope ("index.html" for a folder), or null outside the scope.
function buildPath(url) {
  const path = new URL(url).pathname;
  if (!path.startsWith(scope.pathname)) return null;
  const rel = path.slice(scope.pathname.length);
  return rel === "" || rel.endsWith("/") ? rel + "index.html" : rel;
}

async function sha256(buffer) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The media type a file of the build must be served as, by its ending: a script with the
// right bytes served as text/plain would stop every page that loads it.
const TYPES = {".js": "javascript", ".mjs": "javascript", ".html": "text/html", ".css": "text/css",
  ".json": "application/json", ".wasm": "application/wasm", ".svg": "image/svg+xml", ".png": "image/png"};

function hasBuiltType(url, response) {
  const path = buildPath(url) || "";
  const ending = path.slice(path.lastIndexOf("."));
  const expected = TYPES[ending];
  const type = (response.headers.get("content-type") || "").toLowerCase();
  return expected === undefined || type.includes(expected);
}

// True if the response's bytes are what the build wrote at this address, served as that kind of file.
async function isBuilt(url, response) {
  const expected = HASHES[buildPath(url)];
  return expected !== undefined && hasBuiltType(url, response)
    && await sha256(await response.clone().arrayBuffer()) === expected;
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(PRECACHE.map(async (path) => {
      const request = new Request(new URL(path, scope), {cache: "no-cache"});
      const response = await fetch(request);
      if (!response.ok || !await isBuilt(request.url, response)) {
        throw new Error(`${path}: the server's file is not this build's`);
      }
      await cache.put(request, response);
    }));
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
  // Only whole, successful, same-origin answers holding the build's bytes are kept.
  if (response.ok && response.status === 200 && response.type === "basic" && HASHES[buildPath(request.url)]) {
    const copy = response.clone();
    event.waitUntil((async () => {
      if (await isBuilt(request.url, copy)) await (await caches.open(CACHE)).put(request, copy);
    })().catch(() => {}));
  }
  return response;
}

// The cached answer for the request if its bytes are the build's; an entry that differs is deleted.
async function fromCache(request, matchOptions) {
  if (HASHES[buildPath(request.url)] === undefined) return undefined;
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, matchOptions);
  if (!cached) return undefined;
  if (await isBuilt(request.url, cached)) return cached;
  await cache.delete(request, matchOptions);
  return undefined;
}

async function cacheFirst(event) {
  const cached = await fromCache(event.request, {});
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
  const cached = await fromCache(request, matchOptions);
  if (cached) return cached;
  if (isPage) {
    const notFound = await fromCache(new Request(new URL(NOT_FOUND_PAGE, scope)), {});
    if (notFound) return notFound;
  }
  return network;  // nothing cached: the network's own answer or error, however late
}
