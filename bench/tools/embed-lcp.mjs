// The embed's paint inside a host page, as a phone on a slow connection sees it (bench/embed.py):
// Chromium (Playwright), Lighthouse's mobile throttling (4x CPU, 150 ms RTT, 1.6 Mbps down), the host
// page at argv[2] holding the embed's script. Prints JSON: per run, the host page's LCP, the widget's
// LCP counted from the host page's navigation, and every response from Harambee with its bytes.
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(join(import.meta.dirname, "..", "..", "frontend", "package.json"));
const { chromium } = require("playwright-core");

const [hostUrl, harambee, runsText] = process.argv.slice(2);
const runs = Number(runsText ?? 5);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const results = [];
for (let run = 0; run < runs; run += 1) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  const transfers = [];
  cdp.on("Network.loadingFinished", (event) => transfers.push({ id: event.requestId, bytes: event.encodedDataLength }));
  const urls = new Map();
  cdp.on("Network.responseReceived", (event) => urls.set(event.requestId, event.response.url));
  await page.goto(hostUrl, { waitUntil: "load" });
  const frame = await (async () => {
    for (let i = 0; i < 100; i += 1) {
      const found = page.frames().find((f) => f.url().includes("/embed/campaign/"));
      if (found) return found;
      await page.waitForTimeout(50);
    }
    throw new Error("no embed frame");
  })();
  await frame.waitForLoadState("load");
  await page.waitForTimeout(1500);
  const lcp = () =>
    new Promise((resolve) => {
      new PerformanceObserver((list) => {
        const entries = list.getEntries();
        const last = entries[entries.length - 1];
        resolve({ lcp: last.startTime, timeOrigin: performance.timeOrigin, element: last.element?.tagName ?? "" });
      }).observe({ type: "largest-contentful-paint", buffered: true });
      setTimeout(() => resolve({ lcp: null, timeOrigin: performance.timeOrigin, element: "" }), 3000);
    });
  const host = await page.evaluate(lcp);
  const widget = await frame.evaluate(lcp);
  results.push({
    host_lcp_ms: host.lcp,
    widget_lcp_ms: widget.lcp === null ? null : widget.timeOrigin + widget.lcp - host.timeOrigin,
    widget_lcp_element: widget.element,
    responses: transfers
      .filter((t) => (urls.get(t.id) ?? "").startsWith(harambee))
      .map((t) => ({ url: urls.get(t.id), bytes: t.bytes })),
  });
  await context.close();
}
await browser.close();
console.log(JSON.stringify(results));
