import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 8123);

// Debian's Chromium: Playwright cannot download its own browsers here.
export default defineConfig({
  testDir: "./e2e",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: 1,
  // On CI a failed spec is run once more; one that then passes is reported "flaky" and named under the
  // table of `make test` (scripts/test-stages.py), so it is seen and mended, not hidden.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "off",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic"],
    },
  },
  projects: [
    { name: "mobile", use: { ...devices["Pixel 5"], browserName: "chromium" } },
  ],
  webServer: {
    command: "../scripts/e2e-server.sh",
    url: `http://127.0.0.1:${port}/api/auth/session`,
    reuseExistingServer: false,
    // Migrating and loading demo data on a busy 2-core machine can take over a minute.
    timeout: 180_000,
    env: { E2E_PORT: String(port) },
  },
});
