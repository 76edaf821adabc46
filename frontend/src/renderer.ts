/**
 * The server's renderer: a small HTTP service on loopback that Django (backend/common/page_rendering.py)
 * asks for a page's first HTML. Built by `make build` into frontend/dist-server/renderer.mjs, with every
 * dependency bundled, so it runs with plain Node:
 *
 *     node frontend/dist-server/renderer.mjs [--host 127.0.0.1] [--port 0]
 *
 * Once warmed up and listening it prints its address (one line on standard output: scripts/serve.sh reads it when
 * the port is 0, any free one). POST /render {path, search, language, queries} answers JSON {html,
 * messages}: the root's HTML and the messages it showed; GET /healthz answers "ok". Django caches what it gets, so renders are rare: they run one at a
 * time (the language is the i18n singleton's), and a request equal to one in progress waits for it
 * instead of rendering again (a page shared in a WhatsApp group is opened by many at once).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import { type Rendered, type RenderRequest, render, warmUp } from "./entry-server";

const MAX_BODY_BYTES = 1_000_000;

let queue: Promise<unknown> = Promise.resolve();
const inProgress = new Map<string, Promise<Rendered>>();

function renderOnce(body: string): Promise<Rendered> {
  const current = inProgress.get(body);
  if (current) return current;
  const request = JSON.parse(body) as RenderRequest;
  const rendering = queue.then(() => render(request));
  queue = rendering.catch(() => undefined);
  const done = rendering.finally(() => inProgress.delete(body));
  inProgress.set(body, done);
  return done;
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf-8");
}

function answer(response: ServerResponse, status: number, text: string, type = "text/plain") {
  response.writeHead(status, { "Content-Type": `${type}; charset=utf-8` }).end(text);
}

async function handle(request: IncomingMessage, response: ServerResponse) {
  if (request.method === "GET" && request.url === "/healthz") return answer(response, 200, "ok");
  if (request.method !== "POST" || request.url !== "/render") return answer(response, 404, "Not found");
  const body = await readBody(request);
  if (body === null) return answer(response, 413, "Too large");
  try {
    answer(response, 200, JSON.stringify(await renderOnce(body)), "application/json");
  } catch (error) {
    console.error("Render failed:", error);
    answer(response, 500, "Render failed");
  }
}

const { values } = parseArgs({
  options: { host: { type: "string", default: "127.0.0.1" }, port: { type: "string", default: "0" } },
});
const server = createServer((request, response) => void handle(request, response));
await warmUp();
server.listen(Number(values.port), values.host, () => {
  const address = server.address();
  if (address && typeof address === "object") console.log(`http://${values.host}:${address.port}`);
});
for (const signal of ["SIGTERM", "SIGINT"] as const)
  process.on(signal, () => server.close(() => process.exit(0)));
