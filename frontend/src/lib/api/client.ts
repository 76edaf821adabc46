import { msg } from "@lingui/core/macro";
import createClient, { type Middleware } from "openapi-fetch";
import { i18n } from "@/lib/i18n";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
export type ApiError = Schemas["ErrorOut"];
export type User = Schemas["UserOut"];
export type Session = Schemas["SessionOut"];

// The CSRF token comes from GET /api/auth/session (the cookie itself is HttpOnly).
// It is kept in memory only, never in local storage.
let csrfToken = "";
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

const csrfHeader: Middleware = {
  onRequest({ request }) {
    if (!["GET", "HEAD", "OPTIONS"].includes(request.method) && csrfToken) {
      request.headers.set("X-CSRFToken", csrfToken);
    }
    return request;
  },
};

// Past a per-address limit (a church's shared Wi-Fi) the server asks for a proof of work instead of
// refusing (backend/common/challenges.py): solve it and send the request again, so sign-up, pledge
// and donation forms pass through unchanged. The solver is loaded only then, never on first load.
const unsent = new WeakMap<Request, Request>();
const challengeRetry: Middleware = {
  onRequest({ request }) {
    if (request.method === "POST") unsent.set(request, request.clone());
    return request;
  },
  async onResponse({ request, response }) {
    const again = unsent.get(request);
    if (response.status !== 429 || !again) return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as Partial<ApiError> | null;
    if (body?.code !== "challenge_required") return response;
    const { challengeSolution } = await import("../challenge");
    again.headers.set("X-Challenge-Solution", await challengeSolution());
    return fetch(again);
  },
};

// The page's own origin, written out: the same as relative addresses in a browser, and what the
// tests' fetch (Node's, which has no page to resolve against) needs. The server's renderer has no
// location and never fetches: it renders from the data it is given (src/entry-server.tsx).
export const api = createClient<paths>({
  baseUrl: typeof location === "undefined" ? "" : location.origin,
  credentials: "same-origin",
});
api.use(csrfHeader);
api.use(challengeRetry);

/** Thrown by `unwrap` so that TanStack Query sees failures; carries the server's message. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly fieldErrors: Record<string, string>;
  readonly code: string;

  constructor(status: number, body: Partial<ApiError> | undefined, fallback: string) {
    super(typeof body?.detail === "string" && body.detail ? body.detail : fallback);
    this.status = status;
    this.code = body?.code ?? "error";
    this.fieldErrors = body?.field_errors ?? {};
  }
}

/** What the user reads when a request fails without a message of its own (the one place it is written). */
export const unexpectedError = () => i18n._(msg`An unexpected error occurred. Please try again.`);

/** The data of a successful answer, or an ApiRequestError with the server's message (else `fallback`). */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }, fallback?: string): T {
  if (result.error !== undefined || result.data === undefined) {
    throw new ApiRequestError(
      result.response.status,
      result.error as Partial<ApiError> | undefined,
      // Looked up only on failure: a page the server rendered has only the messages it shows.
      fallback ?? unexpectedError(),
    );
  }
  return result.data;
}

/** The server's message, or `fallback` when the request never got an answer. */
export function errorMessage(error: unknown, fallback: string = unexpectedError()): string {
  return error instanceof ApiRequestError ? error.message : fallback;
}
