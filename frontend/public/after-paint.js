// A page the server rendered (backend/config/spa.py) paints without the app: the app's scripts are
// asked for once it has painted, so on a slow connection they do not hold back its CSS and cover. The
// page names them: data-entry (the app's module), data-preload (the modules it imports at once).
(() => {
  const { entry, preload = "" } = document.currentScript.dataset;
  const start = () => {
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
  // A frame is drawn once the CSS is in; a tab opened in the background draws none until shown.
  if (document.visibilityState === "hidden") start();
  else requestAnimationFrame(() => setTimeout(start));
})();
