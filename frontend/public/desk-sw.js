// The ushers' desk offline (/campaign/{id}/desk): served from /desk-sw.js with scope /campaign/.
// It answers only when the network does not: the desk's page from the copy the page itself stored
// (src/features/desk/offline.ts), and the app's hashed files from that cache. Everything else, the API
// above all, goes to the network untouched: entries wait in the desk's own queue, never here.
const CACHE = "harambee-desk-v1";
const DESK_PAGE = /^\/campaign\/\d+\/desk\/?$/;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && DESK_PAGE.test(url.pathname)) {
    event.respondWith(
      fetch(request).catch(async () => (await caches.match(url.pathname, { cacheName: CACHE })) ?? Response.error()),
    );
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(
      fetch(request).catch(async () => (await caches.match(request, { cacheName: CACHE })) ?? Response.error()),
    );
  }
});
