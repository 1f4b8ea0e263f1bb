// The Mini App's service worker: the page and its scripts come from the network when there is
// one and from the cache when there is none, so that a reload at a venue without Wi-Fi still
// opens the game (its taps wait in the page's storage, see sync.js). The API is never cached:
// its requests go to the network as the page makes them.
"use strict";

const CACHE = "mafiatour-miniapp-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const mine = url.origin === self.location.origin && (url.pathname.startsWith("/app/game/") || url.pathname.startsWith("/app/static/"));
  if (event.request.method !== "GET" || !mine) return;
  const key = url.origin + url.pathname;
  event.respondWith(
    fetch(event.request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(key, copy));
      }
      return response;
    }).catch(() => caches.open(CACHE).then((cache) => cache.match(key)).then((hit) => hit || Response.error())),
  );
});
