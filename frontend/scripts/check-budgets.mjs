// Fails when a public route's first load exceeds its budget. Reads the production build's manifest:
// initial JS = the entry chunk and everything it statically imports, plus the route's page chunk and its
// static imports (what the browser must fetch before the page can render). Sizes are gzip level 9.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const JS_BUDGET = 120_000; // bytes gzip, per public route
const CSS_BUDGET = 20_000;

// Public routes and the page module each one renders (keep in step with src/App.tsx).
const PUBLIC_ROUTES = {
  "/": "src/features/landing/LandingPage.tsx",
  "/how-it-works": "src/features/landing/HowItWorksPage.tsx",
  "/privacy": "src/features/privacy/PrivacyPage.tsx",
  "/signin": "src/features/accounts/SignInPage.tsx",
  "/signup": "src/features/accounts/SignUpPage.tsx",
  "/explore": "src/features/campaigns/ExplorePage.tsx",
  "/campaign/{id}": "src/features/campaigns/CampaignPage.tsx",
  "/campaign/{id}/donate": "src/features/pledges/DonatePage.tsx",
  "/campaign/{id}/pledge": "src/features/pledges/PledgeDialogPage.tsx",
  "/campaign/{id}/live": "src/features/events/LiveScreenPage.tsx",
  "/campaign/{id}/spending": "src/features/spending/SpendingPage.tsx",
  "/icc-imara-donate": "src/features/pledges/MinistryPage.tsx",
  "/pledges/{code}": "src/features/pledges/PledgeCodePage.tsx",
};

const dist = join(import.meta.dirname, "..", "dist");
const manifest = JSON.parse(readFileSync(join(dist, ".vite", "manifest.json"), "utf-8"));
const gzipSize = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(imported, seen);
  return seen;
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
let failed = false;
const rows = [];
for (const [route, module] of Object.entries(PUBLIC_ROUTES)) {
  if (!manifest[module]) {
    console.error(`${route}: ${module} is not in the build manifest`);
    failed = true;
    continue;
  }
  const chunks = new Set([...closure(entry), ...closure(module)]);
  const js = [...chunks].reduce((sum, key) => sum + gzipSize(manifest[key].file), 0);
  const cssFiles = new Set([...chunks].flatMap((key) => manifest[key].css ?? []));
  const css = [...cssFiles].reduce((sum, file) => sum + gzipSize(file), 0);
  const ok = js <= JS_BUDGET && css <= CSS_BUDGET;
  failed ||= !ok;
  rows.push({ route, "JS gzip (KB)": (js / 1000).toFixed(1), "CSS gzip (KB)": (css / 1000).toFixed(1), ok });
}
console.table(rows);
console.log(`Budgets: JS ≤ ${JS_BUDGET / 1000} KB, CSS ≤ ${CSS_BUDGET / 1000} KB gzip per public route.`);
if (failed) {
  console.error("A first-load budget is exceeded (see above).");
  process.exit(1);
}
