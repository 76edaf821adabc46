import { setupServer } from "msw/node";
import { createOpenApiHttp } from "openapi-msw";
import type { Session } from "@/lib/api/client";
import type { paths } from "@/lib/api/schema";

/** MSW's `http`, typed by the OpenAPI schema: only real paths, their parameters, bodies and answers. */
export const http = createOpenApiHttp<paths>({ baseUrl: location.origin });

export const SIGNED_OUT: Session = { user: null, csrf_token: "test-csrf-token" };

/**
 * The API as the tests see it: a visitor who is signed out, the USSD code, and nothing else. Each test adds the
 * answers it needs with `server.use(...)`; a request nobody answers fails the test.
 */
export const USSD_INFO = { service_code: "*384*4242#" };

export const server = setupServer(
  http.get("/api/auth/session", ({ response }) => response(200).json(SIGNED_OUT)),
  // The dial code every campaign page, share panel and dashboard card shows.
  http.get("/api/ussd", ({ response }) => response(200).json(USSD_INFO)),
);
