import type { Delivery, DeskEntryIn } from "./api";

// The entries typed at this device's desk that the server has not confirmed yet, kept in
// localStorage so that a reload or a dropped network loses none. Each keeps the idempotency key
// drawn when it was typed: sent again and again until the server answers, it is recorded once.

export type QueuedEntry = {
  campaignId: number;
  eventId: number;
  body: DeskEntryIn;
  /** The server refused it for good (a wrong receipt code): shown until the usher removes it. */
  refusal?: string;
};

const STORAGE_KEY = "harambee-desk-queue";
const listeners = new Set<() => void>();
let cached: QueuedEntry[] | null = null;

function read(): QueuedEntry[] {
  if (cached) return cached;
  try {
    cached = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "[]") as QueuedEntry[];
  } catch {
    cached = [];
  }
  return cached;
}

function write(entries: QueuedEntry[]): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(entries));
  cached = entries;
  for (const listener of listeners) listener();
}

// Another tab of the same desk changed the queue.
if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key !== STORAGE_KEY) return;
    cached = null;
    for (const listener of listeners) listener();
  });
}

export const deskQueue = {
  entries: read,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Keep a typed entry (before anything is sent: a reload right now loses nothing). */
  add(entry: QueuedEntry): void {
    write([...read(), entry]);
  },
  remove(key: string): void {
    write(read().filter((entry) => entry.body.idempotency_key !== key));
  },
  refuse(key: string, refusal: string): void {
    write(read().map((entry) => (entry.body.idempotency_key === key ? { ...entry, refusal } : entry)));
  },
};

let flushing: Promise<number> | null = null;

/**
 * Send the waiting entries in the order they were typed, one at a time; stop at the first that must
 * wait (no network, the server busy). Answers how many the server now has. One flush at a time.
 */
export function flushQueue(
  deliver: (eventId: number, body: DeskEntryIn) => Promise<Delivery>,
): Promise<number> {
  flushing ??= (async () => {
    let delivered = 0;
    try {
      for (const entry of read().filter((waiting) => !waiting.refusal)) {
        const outcome = await deliver(entry.eventId, entry.body);
        if (outcome.status === "later") break;
        if (outcome.status === "refused") deskQueue.refuse(entry.body.idempotency_key, outcome.message);
        else {
          deskQueue.remove(entry.body.idempotency_key);
          delivered += 1;
        }
      }
    } finally {
      flushing = null;
    }
    return delivered;
  })();
  return flushing;
}
