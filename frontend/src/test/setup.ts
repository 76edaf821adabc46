import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterAll, afterEach } from "vitest";
import { server } from "./server";

// Listening before any test module loads: the API client keeps the fetch it finds when it is created.
server.listen({ onUnhandledRequest: "error" });
// Vitest runs without globals, so Testing Library cannot clean up on its own.
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());
