import { beforeEach, describe, expect, it } from "vitest";
import type { Delivery, DeskEntryIn } from "./api";
import { deskQueue, flushQueue } from "./queue";

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

describe("the desk's queue", () => {
  beforeEach(() => {
    for (const entry of deskQueue.entries()) deskQueue.remove(entry.body.idempotency_key);
  });

  it("keeps entries in the order typed, across a reload of the module's memory", () => {
    deskQueue.add({ campaignId: 1, eventId: 2, body: typed("key-0001") });
    deskQueue.add({ campaignId: 1, eventId: 2, body: typed("key-0002") });

    const stored = JSON.parse(localStorage.getItem("harambee-desk-queue") ?? "[]");
    expect(stored.map((entry: { body: DeskEntryIn }) => entry.body.idempotency_key)).toEqual([
      "key-0001",
      "key-0002",
    ]);
  });

  it("sends in order, stops at the first that must wait and keeps it and the rest with their keys", async () => {
    for (const key of ["key-0001", "key-0002", "key-0003"])
      deskQueue.add({ campaignId: 1, eventId: 2, body: typed(key) });
    const sent: string[] = [];
    const deliver = async (_eventId: number, body: DeskEntryIn): Promise<Delivery> => {
      sent.push(body.idempotency_key);
      return body.idempotency_key === "key-0002"
        ? { status: "later" }
        : { status: "delivered", entry: {} as never };
    };

    expect(await flushQueue(deliver)).toBe(1);
    expect(sent).toEqual(["key-0001", "key-0002"]);
    expect(deskQueue.entries().map((entry) => entry.body.idempotency_key)).toEqual(["key-0002", "key-0003"]);
  });

  it("keeps a refused entry with the server's reason and sends it no more", async () => {
    deskQueue.add({ campaignId: 1, eventId: 2, body: typed("key-0001") });
    const refuse = async (): Promise<Delivery> => ({ status: "refused", message: "Wrong receipt" });

    await flushQueue(refuse);
    const sentAgain = await flushQueue(async () => {
      throw new Error("a refused entry was sent again");
    });

    expect(sentAgain).toBe(0);
    expect(deskQueue.entries()[0]?.refusal).toBe("Wrong receipt");
  });
});
