/// <reference types="vitest/config" />
import { lingui } from "@lingui/vite-plugin";
import babel from "@rolldown/plugin-babel";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import precompileMessages from "./scripts/babel-plugin-precompile-messages";

// Django serves the build: hashed assets under /static/assets/, index.html for every client route.
// `vite build --ssr src/renderer.ts` builds the server's renderer into dist-server/renderer.mjs:
// the same components and plugins, every dependency bundled so it runs with plain Node.
export default defineConfig(({ isSsrBuild }) => ({
  base: "/static/",
  plugins: [
    react(),
    // Keep each message's English text beside its id, compiled at build time: English needs no
    // catalogue and each string ships with the page that shows it (scripts/babel-plugin-precompile-messages.ts).
    babel({
      plugins: [["@lingui/babel-plugin-lingui-macro", { stripMessageField: false }], precompileMessages],
    }),
    lingui(),
    tailwindcss(),
  ],
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  build: isSsrBuild
    ? {
        outDir: "dist-server",
        copyPublicDir: false,
        target: "node20",
        sourcemap: false,
        // ES modules whatever package.json is beside them (the renderer's image has none).
        rollupOptions: { output: { entryFileNames: "[name].mjs", chunkFileNames: "assets/[name]-[hash].mjs" } },
      }
    : {
        outDir: "dist",
        manifest: true,
        sourcemap: false,
        // Chrome for Android updates itself; ES2022 keeps class fields native instead of helper code.
        target: "es2022",
        // What every page shows around its content (the header and footer, the session, TanStack Query's
        // hooks, money, the buttons) in one chunk beside the shell's, not a dozen chunks of a few hundred
        // bytes each: a page's chunk then needs fewer requests, and the app starting it appends fewer
        // <link rel=modulepreload> (each costs the main thread a fetch's start while the page loads;
        // bench/results/SUMMARY.md, the receipt page).
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "layout",
                  test: /\/src\/components\/(AppLayout\.tsx|buttonStyles\.ts)$|\/src\/lib\/money\.ts$|\/@tanstack\/react-query\//,
                },
                // The champions' boards (their requests and lists), which the campaign page's champions and the
                // big screen share: one chunk, so the app's shell names one file fewer to preload for them.
                {
                  name: "champion-boards",
                  test: /\/src\/features\/champions\/(api\.ts|Leaderboards\.tsx)$/,
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
        },
      },
  ssr: { noExternal: true },
  // The renderer runs React's production build whatever NODE_ENV its process has.
  define: isSsrBuild ? { "process.env.NODE_ENV": JSON.stringify("production") } : {},
  server: {
    port: 5173,
    proxy: { "/api": "http://127.0.0.1:8000", "/admin": "http://127.0.0.1:8000" },
  },
  test: {
    // Components' tests (.test.tsx) and the API hooks' (api.test.ts) get a page (jsdom) and the mocked API
    // (src/test/setup.ts); the rules, formatting and other logic (.test.ts) run in plain Node, without
    // building a page for each file, unless the file asks for one (`// @vitest-environment jsdom`).
    projects: [
      {
        extends: true,
        test: {
          name: "components",
          environment: "jsdom",
          setupFiles: ["./src/test/setup.ts"],
          include: ["src/**/*.test.tsx", "src/**/api.test.ts"],
        },
      },
      {
        extends: true,
        test: { name: "logic", environment: "node", include: ["src/**/*.test.ts"], exclude: ["src/**/api.test.ts"] },
      },
    ],
    // `make test` runs Vitest with --coverage: every source file counts, tested or not.
    coverage: {
      provider: "v8",
      include: ["src/**/*.{ts,tsx}"],
      exclude: ["src/**/*.test.{ts,tsx}", "src/test/**", "src/**/*.d.ts", "src/locales/**"],
      reporter: ["text-summary"],
    },
  },
}));
