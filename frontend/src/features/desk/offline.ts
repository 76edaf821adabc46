// Makes the desk's page open without the network: the service worker (public/desk-sw.js) answers
// from this cache only when the network fails, so the page stores what it needs itself: its own
// HTML and every file of the app it has loaded (the desk's lazy chunk and the catalogue among them).

const CACHE = "harambee-desk-v1";

export async function keepDeskOffline(campaignId: number): Promise<void> {
  if (!("serviceWorker" in navigator) || !("caches" in window)) return;
  try {
    await navigator.serviceWorker.register("/desk-sw.js", { scope: "/campaign/" });
    const cache = await caches.open(CACHE);
    const files = performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith("/static/"))
      .map((url) => url.pathname);
    const page = `/campaign/${campaignId}/desk`;
    await Promise.all([page, ...new Set(files)].map((path) => cache.add(path).catch(() => undefined)));
  } catch {
    // Without a service worker (a private window), the desk still works while the page stays open.
  }
}

/** Lets the phone offer to install the desk (its manifest names this campaign's desk). */
export function linkDeskManifest(campaignId: number): () => void {
  const link = document.createElement("link");
  link.rel = "manifest";
  link.href = `/campaign/${campaignId}/desk.webmanifest`;
  document.head.append(link);
  return () => link.remove();
}
