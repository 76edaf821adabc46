import { describe, expect, it } from "vitest";
import { howToPayText, pledgeStatusLabel } from "./format";

describe("how to pay", () => {
  it("lists the pledge, what remains and every way to pay, line by line", () => {
    const text = howToPayText({
      code: "K7M2QPX",
      amount: 5000,
      remaining_amount: 3000,
      campaign_title: "ICC Imara: Building Our Church Home",
      payment_instructions: [
        {
          method: "paybill",
          label: "M-Pesa Paybill",
          lines: [
            { label: "Business number", value: "600100" },
            { label: "Account number", value: "K7M2QPX" },
          ],
          summary: "Paybill 600100, account K7M2QPX",
          matched_automatically: true,
          note: "Use your pledge code K7M2QPX as the account number.",
        },
        {
          method: "cash",
          label: "Cash",
          lines: [],
          summary: "Cash at the church office, mention K7M2QPX",
          matched_automatically: false,
          note: "Bring it to the church office.",
        },
      ],
    });
    expect(text).toBe(
      [
        "Pledge K7M2QPX to ICC Imara: Building Our Church Home: Ksh 5,000",
        "Still to pay: Ksh 3,000",
        "",
        "M-Pesa Paybill",
        "Business number: 600100",
        "Account number: K7M2QPX",
        "Use your pledge code K7M2QPX as the account number.",
        "",
        "Cash",
        "Bring it to the church office.",
      ].join("\n"),
    );
  });

  it("names each pledge status", () => {
    expect(
      ["pending", "partly_paid", "confirmed"].map((status) => pledgeStatusLabel(status as never)),
    ).toEqual(["Pending", "Partly paid", "Confirmed"]);
  });
});
