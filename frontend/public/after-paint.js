// A page the server rendered (backend/config/spa.py) paints without the app: the app's scripts are
// asked for once the page's own content is in and painted, so on a slow connection they do not hold
// back its CSS, text and images (the cover is the largest thing most pages paint); meanwhile its links
// and its plain forms work as HTML. The page names them: data-entry (the app's module), data-preload
// (the modules it imports at once).
(() => {
  const { entry, preload = "" } = document.currentScript.dataset;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of preload.split(" ").filter(Boolean)) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement("script");
    script.type = "module";
    script.crossOrigin = "";
    script.src = entry;
    document.head.append(script);
  };
  // A visitor who starts to tap or type before then gets the app at once.
  for (const type of ["pointerdown", "keydown", "focusin"]) {
    addEventListener(type, start, { once: true, capture: true, passive: true });
  }
  // A tab opened in the background draws nothing until shown: nothing to wait for.
  if (document.visibilityState === "hidden") return start();
  // Once the load event has come (the CSS and the images are in) and the first paint is reported:
  // the frames that paint what came last are shown within a few more (headless Chromium reports them
  // up to 50 ms late), hence the pause. A resource that never ends (an embedded video's frame on a
  // bad network) must not keep the app away: at most LONGEST_WAIT_MS after this script runs.
  const LONGEST_WAIT_MS = 4000;
  const SETTLE_MS = 200;
  setTimeout(start, LONGEST_WAIT_MS);
  const painted = new Promise((resolve) => {
    if (!("PerformanceObserver" in window) || !PerformanceObserver.supportedEntryTypes?.includes("paint"))
      return resolve();
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName("first-contentful-paint").length) {
        observer.disconnect();
        resolve();
      }
    }).observe({ type: "paint", buffered: true });
  });
  const loaded = new Promise((resolve) =>
    document.readyState === "complete" ? resolve() : addEventListener("load", resolve, { once: true }),
  );
  Promise.all([painted, loaded]).then(() => setTimeout(start, SETTLE_MS));
})();
