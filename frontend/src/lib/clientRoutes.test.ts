import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_ROUTES, isClientRoute } from "./clientRoutes";

const SERVERS_TABLE = join(import.meta.dirname, "..", "..", "..", "backend", "common", "client_routes.py");

describe("CLIENT_ROUTES", () => {
  it("is the server's table, row for row", () => {
    const table = readFileSync(SERVERS_TABLE, "utf8").match(/CLIENT_ROUTES = \[\n([\s\S]*?)\n\]/)?.[1] ?? "";
    const rows = [...table.matchAll(/^ {4}r"(.*)",$/gm)].map(([, row]) => row);
    expect(rows).toEqual(CLIENT_ROUTES);
  });
});

describe("isClientRoute", () => {
  it.each(["/", "/dashboard", "/dashboard/", "/campaign/14", "/campaign/14/desk", "/pledges/ABCD234"])(
    "knows %s",
    (path) => {
      expect(isClientRoute(path)).toBe(true);
    },
  );

  it.each(["/unknown-page", "/campaign/abc", "/dashboard/extra", "//evil.example", "/campaign/14\n"])(
    "does not know %s",
    (path) => {
      expect(isClientRoute(path)).toBe(false);
    },
  );
});
