import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";

export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "sw"],
  catalogs: [{ path: "<rootDir>/src/locales/{locale}/messages", include: ["src"], exclude: ["**/*.test.*"] }],
  format: formatter({ lineNumbers: false }),
  compileNamespace: "ts",
});
