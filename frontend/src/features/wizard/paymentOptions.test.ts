import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  availableMethods,
  canAddPaymentOption,
  type PaymentOptionValue,
  paymentOptionsAreValid,
  paymentOptionsPayload,
  paymentOptionsSchema,
} from "./paymentOptions";

const till: PaymentOptionValue = { method: "mpesa_till", details: { till_number: "5123456" } };
const bank: PaymentOptionValue = {
  method: "bank",
  details: { bank_name: "Equity Bank Kenya Ltd", account_name: "ACK Kisumu", account_no: "0123" },
};
const paybill: PaymentOptionValue = {
  method: "paybill",
  details: { business_number: "247247", account_no: "ROOF" },
};
const mpesa: PaymentOptionValue = { method: "mpesa", details: { phone_number: "0712 345 678" } };
const cash: PaymentOptionValue = { method: "cash", details: { location: "Church office" } };

/** Each problem as "path: message". */
function problems(options: PaymentOptionValue[]): string[] {
  const result = v.safeParse(paymentOptionsSchema, options);
  return result.success ? [] : result.issues.map((issue) => `${v.getDotPath(issue) ?? ""}: ${issue.message}`);
}

describe("payment options", () => {
  it("accept one to three methods with every detail filled in", () => {
    expect(paymentOptionsAreValid([till])).toBe(true);
    expect(paymentOptionsAreValid([bank, paybill, mpesa])).toBe(true);
    expect(paymentOptionsAreValid([cash])).toBe(true);
  });

  it("need at least one", () => {
    expect(problems([])).toEqual([": Please provide at least one valid payment method to continue."]);
  });

  it("allow at most three", () => {
    expect(problems([till, bank, paybill, cash])).toEqual([": You can add at most 3 payment methods."]);
  });

  it("use each method once", () => {
    const secondTill = { method: "mpesa_till" as const, details: { till_number: "600100" } };
    expect(problems([till, secondTill])).toEqual([": Each payment method can be used only once."]);
  });

  it("need a method to be chosen", () => {
    expect(problems([{ method: "", details: {} }])).toEqual(["0.method: Please choose a payment method."]);
  });

  it("need every detail field of the chosen method", () => {
    expect(problems([{ method: "bank", details: { bank_name: "Equity", account_name: "  " } }])).toEqual([
      "0.details.account_name: This field is required.",
      "0.details.account_no: This field is required.",
    ]);
    expect(problems([{ method: "paybill", details: {} }])).toEqual([
      "0.details.business_number: This field is required.",
      "0.details.account_no: This field is required.",
    ]);
  });

  it("need till and paybill numbers in digits", () => {
    expect(problems([{ method: "mpesa_till", details: { till_number: "51-23456" } }])).toEqual([
      "0.details.till_number: Please enter a valid till number (digits only).",
    ]);
    expect(problems([{ method: "paybill", details: { business_number: "BILL", account_no: "1" } }])).toEqual([
      "0.details.business_number: Please enter a valid paybill number (digits only).",
    ]);
  });

  it("need a Kenyan M-Pesa number", () => {
    expect(problems([{ method: "mpesa", details: { phone_number: "+255712345678" } }])).toEqual([
      "0.details.phone_number: Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)",
    ]);
  });

  it("offer each row its own method and those no other row uses", () => {
    expect(availableMethods([till, bank, { method: "", details: {} }], 2)).toEqual([
      "paybill",
      "mpesa",
      "cash",
    ]);
    expect(availableMethods([till, bank], 0)).toEqual(["mpesa_till", "paybill", "mpesa", "cash"]);
  });

  it("let a fourth option be added only below three", () => {
    expect(canAddPaymentOption([till, bank])).toBe(true);
    expect(canAddPaymentOption([till, bank, cash])).toBe(false);
  });

  it("send only the chosen method's fields, trimmed", () => {
    const switched: PaymentOptionValue = {
      method: "cash",
      details: { till_number: "5123456", location: " Church office " },
    };
    expect(paymentOptionsPayload([switched, { method: "", details: {} }])).toEqual([
      { method: "cash", details: { location: "Church office" } },
    ]);
  });
});
