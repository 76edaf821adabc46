// @vitest-environment jsdom
// A page: the queue keeps its entries in the browser's localStorage.
import { beforeEach, describe, expect, it } from "vitest";
import type { Delivery, DeskEntryIn } from "./api";
import { deskQueue, flushQueue, type QueuedEntry, queueSplit, type Usher } from "./queue";

function typed(key: string, amount = 100): DeskEntryIn {
  return {
    idempotency_key: key,
    kind: "cash",
    amount,
    name: "",
    phone: "",
    is_anonymous: false,
    mpesa_receipt: "",
  };
}

const MARY: Usher = { key: "passcode-7", name: "Mary Wambui" };
const JOHN: Usher = { key: "passcode-8", name: "John Kamau" };

function kept(key: string, typedBy: Usher = MARY): QueuedEntry {
  return { campaignId: 1, eventId: 2, body: typed(key), typedBy, typedAt: "2026-11-26T18:00:00Z" };
}

describe("the desk's queue", () => {
  beforeEach(() => {
    for (const entry of deskQueue.entries()) deskQueue.remove(entry.body.idempotency_key);
  });

  it("keeps entries in the order typed, across a reload of the module's memory", () => {
    deskQueue.add(kept("key-0001"));
    deskQueue.add(kept("key-0002"));

    const stored = JSON.parse(localStorage.getItem("harambee-desk-queue") ?? "[]");
    expect(stored.map((entry: { body: DeskEntryIn }) => entry.body.idempotency_key)).toEqual([
      "key-0001",
      "key-0002",
    ]);
  });

  it("sends in order, stops at the first that must wait and keeps it and the rest with their keys", async () => {
    for (const key of ["key-0001", "key-0002", "key-0003"]) deskQueue.add(kept(key));
    const sent: string[] = [];
    const deliver = async (_eventId: number, body: DeskEntryIn): Promise<Delivery> => {
      sent.push(body.idempotency_key);
      return body.idempotency_key === "key-0002"
        ? { status: "later" }
        : { status: "delivered", entry: {} as never };
    };

    expect(await flushQueue(deliver, MARY.key)).toBe(1);
    expect(sent).toEqual(["key-0001", "key-0002"]);
    expect(deskQueue.entries().map((entry) => entry.body.idempotency_key)).toEqual(["key-0002", "key-0003"]);
  });

  it("keeps a refused entry with the server's reason and sends it no more", async () => {
    deskQueue.add(kept("key-0001"));
    const refuse = async (): Promise<Delivery> => ({ status: "refused", message: "Wrong receipt" });

    await flushQueue(refuse, MARY.key);
    const sentAgain = await flushQueue(async () => {
      throw new Error("a refused entry was sent again");
    }, MARY.key);

    expect(sentAgain).toBe(0);
    expect(deskQueue.entries()[0]?.refusal).toBe("Wrong receipt");
  });

  it("sends an entry only under the usher who typed it and holds the others aside, unsent", async () => {
    deskQueue.add(kept("key-0001", MARY));
    deskQueue.add(kept("key-0002", JOHN));
    deskQueue.add(kept("key-0003", MARY));
    const sent: string[] = [];
    const deliver = async (_eventId: number, body: DeskEntryIn): Promise<Delivery> => {
      sent.push(body.idempotency_key);
      return { status: "delivered", entry: {} as never };
    };

    expect(await flushQueue(deliver, JOHN.key)).toBe(1);
    expect(sent).toEqual(["key-0002"]);
    const split = queueSplit(deskQueue.entries(), JOHN.key);
    expect(split.waiting).toEqual([]);
    expect(split.heldAside.map((entry) => [entry.body.idempotency_key, entry.typedBy.name])).toEqual([
      ["key-0001", "Mary Wambui"],
      ["key-0003", "Mary Wambui"],
    ]);

    expect(await flushQueue(deliver, MARY.key)).toBe(2);
    expect(sent).toEqual(["key-0002", "key-0001", "key-0003"]);
    expect(deskQueue.entries()).toEqual([]);
  });

  it("never sends an entry typed under a revoked passcode under a new one on the same phone", async () => {
    deskQueue.add(kept("key-0001", MARY));
    const revokedThenNewPasscode = { key: "passcode-9", name: "Mary Wambui" };

    const sent = await flushQueue(async () => {
      throw new Error("sent under another identity");
    }, revokedThenNewPasscode.key);

    expect(sent).toBe(0);
    expect(queueSplit(deskQueue.entries(), revokedThenNewPasscode.key).heldAside).toHaveLength(1);
  });

  it("shows a refused entry as refused, whoever typed it", () => {
    deskQueue.add({ ...kept("key-0001", MARY), refusal: "Wrong receipt" });

    const split = queueSplit(deskQueue.entries(), JOHN.key);

    expect([split.refused.length, split.heldAside.length, split.waiting.length]).toEqual([1, 0, 0]);
  });

  it("sends again after a flush that had nothing to send", async () => {
    const deliver = async (): Promise<Delivery> => ({ status: "delivered", entry: {} as never });
    expect(await flushQueue(deliver, MARY.key)).toBe(0);

    deskQueue.add(kept("key-0001", MARY));

    expect(await flushQueue(deliver, MARY.key)).toBe(1);
  });
});
