import type { Delivery, DeskEntryIn } from "./api";

// The entries typed at this device's desk that the server has not confirmed yet, kept in
// localStorage so that a reload or a dropped network loses none. Each keeps the idempotency key
// drawn when it was typed: sent again and again until the server answers, it is recorded once.
// Each also keeps who typed it, and is sent only while that usher is the one signed in here: the
// server counts an entry under whoever sends it, so one typed under a passcode revoked since, or
// by someone who signed out, must never be counted under the next person on the same phone.

/** Who is at the desk, as the server names them (DeskOut's usher_key and usher_name). */
export type Usher = { key: string; name: string };

export type QueuedEntry = {
  campaignId: number;
  eventId: number;
  body: DeskEntryIn;
  typedBy: Usher;
  /** When it was typed (ISO 8601), for a treasurer reading entries held aside. */
  typedAt: string;
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

/**
 * The entries of a desk as its page shows them to ``usherKey``, the usher signed in now: those
 * waiting to be sent under them; those the server refused; and those held aside, typed by someone
 * else who is no longer signed in here, never sent until they are again.
 */
export function queueSplit(entries: QueuedEntry[], usherKey: string) {
  return {
    waiting: entries.filter((entry) => !entry.refusal && entry.typedBy.key === usherKey),
    refused: entries.filter((entry) => entry.refusal),
    heldAside: entries.filter((entry) => !entry.refusal && entry.typedBy.key !== usherKey),
  };
}

let flushing: Promise<number> | null = null;

/**
 * Send the entries waiting under ``usherKey`` (queueSplit) in the order they were typed, one at a
 * time; stop at the first that must wait (no network, the server busy). Answers how many the server
 * now has. One flush at a time.
 */
export function flushQueue(
  deliver: (eventId: number, body: DeskEntryIn) => Promise<Delivery>,
  usherKey: string,
): Promise<number> {
  // Cleared in a callback, never inside the flush: a flush with nothing to send ends before it is
  // even stored, and clearing it there would leave the finished flush stored for ever.
  flushing ??= sendWaiting(deliver, usherKey).finally(() => {
    flushing = null;
  });
  return flushing;
}

async function sendWaiting(
  deliver: (eventId: number, body: DeskEntryIn) => Promise<Delivery>,
  usherKey: string,
): Promise<number> {
  let delivered = 0;
  for (const entry of queueSplit(read(), usherKey).waiting) {
    const outcome = await deliver(entry.eventId, entry.body);
    if (outcome.status === "later") break;
    if (outcome.status === "refused") deskQueue.refuse(entry.body.idempotency_key, outcome.message);
    else {
      deskQueue.remove(entry.body.idempotency_key);
      delivered += 1;
    }
  }
  return delivered;
}
