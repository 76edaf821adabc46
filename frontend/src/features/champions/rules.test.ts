import { describe, expect, it } from "vitest";
import { cardReturnRequest, emptyLine } from "./cardLines";
import { championRequest, goalPercent, whatsappShareUrl } from "./rules";

describe("championRequest", () => {
  it("sends whole shillings, the member's own championship, and a team only when one was chosen", () => {
    const values = {
      name: " Amina ",
      appeal: " For the roof ",
      goal: "20,000",
      teamId: "",
      onLeaderboard: false,
    };
    expect(championRequest(values)).toEqual({
      name: "Amina",
      phone: "",
      for_someone_else: false,
      appeal: "For the roof",
      goal: 20_000,
      team_id: null,
      on_leaderboard: false,
    });
    expect(championRequest({ ...values, teamId: "7" }).team_id).toBe(7);
  });
});

describe("whatsappShareUrl", () => {
  it("puts the message and the page's link in one encoded text", () => {
    expect(whatsappShareUrl("Give through me:", "https://harambee.co.ke/campaign/4/c/ABC234")).toBe(
      "https://wa.me/?text=Give%20through%20me%3A%20https%3A%2F%2Fharambee.co.ke%2Fcampaign%2F4%2Fc%2FABC234",
    );
  });
});

describe("goalPercent", () => {
  it("is whole percent, past 100 when the goal is passed, and 0 without a goal", () => {
    expect([
      goalPercent(2_500, 10_000),
      goalPercent(999, 1_000),
      goalPercent(15_000, 10_000),
      goalPercent(5, 0),
    ]).toEqual([25, 99, 150, 0]);
  });
});

describe("cardReturnRequest", () => {
  it("leaves out untouched lines, keeps an M-Pesa code only on M-Pesa lines, and reads blank totals as 0", () => {
    const lines = [
      { kind: "cash" as const, amount: "300", name: " Baba Kevin ", phone: "", receipt: "ignored" },
      emptyLine(),
      { kind: "mpesa" as const, amount: "1,000", name: "", phone: "0712000111", receipt: "slk4h7pq2z" },
    ];
    expect(cardReturnRequest("500", "", lines)).toEqual({
      cash_total: 500,
      mpesa_reported: 0,
      gifts: [
        { kind: "cash", amount: 300, name: "Baba Kevin", phone: "", mpesa_receipt: "" },
        { kind: "mpesa", amount: 1_000, name: "", phone: "0712000111", mpesa_receipt: "SLK4H7PQ2Z" },
      ],
    });
  });

  it("refuses an amount that is not whole shillings", () => {
    expect(cardReturnRequest("50.5", "", [])).toBeNull();
    expect(cardReturnRequest("", "", [{ ...emptyLine(), amount: "ten" }])).toBeNull();
  });
});
