import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  type CollectionAccountChoice,
  canAddCollectionAccount,
  collectionAccountChoicesAreValid,
  collectionAccountChoicesSchema,
  collectionAccountsPayload,
} from "./campaignCollectionAccounts";

const till: CollectionAccountChoice = { method: "till", details: { till_number: "5123456" } };
const bank: CollectionAccountChoice = {
  method: "bank",
  details: { bank_name: "Equity Bank Kenya Ltd", account_name: "ACK Kisumu", account_number: "0123" },
};
const bankPaybill: CollectionAccountChoice = {
  method: "paybill_fixed_account",
  details: { paybill_number: "247247", account_number: "0123456789" },
};
const cash: CollectionAccountChoice = { method: "cash", details: { location: "Church office" } };
const existing: CollectionAccountChoice = { method: "existing", accountId: "12", details: {} };

/** Each problem as "path: message". */
function problems(options: CollectionAccountChoice[]): string[] {
  const result = v.safeParse(collectionAccountChoicesSchema, options);
  return result.success ? [] : result.issues.map((issue) => `${v.getDotPath(issue) ?? ""}: ${issue.message}`);
}

describe("the payment step's accounts", () => {
  it("accept one to three accounts, existing or new, with every required detail filled in", () => {
    expect(collectionAccountChoicesAreValid([till])).toBe(true);
    expect(collectionAccountChoicesAreValid([existing, bank, bankPaybill])).toBe(true);
    expect(collectionAccountChoicesAreValid([cash])).toBe(true);
  });

  it("need at least one", () => {
    expect(problems([])).toEqual([": Please provide at least one valid payment method to continue."]);
  });

  it("allow at most three", () => {
    expect(problems([till, bank, bankPaybill, cash])).toEqual([": You can add at most 3 payment methods."]);
  });

  it("use each account once, and two kinds of the same may differ", () => {
    const sameTill = { method: "till" as const, details: { till_number: " 5123456 " } };
    expect(problems([till, sameTill])).toEqual([": Each payment method can be used only once."]);
    expect(problems([existing, { ...existing }])).toEqual([": Each payment method can be used only once."]);
    expect(problems([till, { method: "till", details: { till_number: "600100" } }])).toEqual([]);
  });

  it("need a choice", () => {
    expect(problems([{ method: "", details: {} }])).toEqual(["0.method: Please choose a payment method."]);
  });

  it("need every required detail of the chosen kind, not the optional ones", () => {
    expect(problems([{ method: "bank", details: { bank_name: "Equity", account_name: "  " } }])).toEqual([
      "0.details.account_name: This field is required.",
      "0.details.account_number: This field is required.",
    ]);
    expect(problems([{ method: "paybill_fixed_account", details: {} }])).toEqual([
      "0.details.paybill_number: This field is required.",
      "0.details.account_number: This field is required.",
    ]);
  });

  it("need paybill, till and store numbers in digits", () => {
    expect(problems([{ method: "till", details: { till_number: "51-23456", store_number: "X" } }])).toEqual([
      "0.details.till_number: Please enter a valid till number (digits only).",
      "0.details.store_number: Please enter a valid store number (digits only).",
    ]);
    expect(problems([{ method: "paybill", details: { paybill_number: "BILL" } }])).toEqual([
      "0.details.paybill_number: Please enter a valid paybill number (digits only).",
    ]);
  });

  it("let a fourth be added only below three", () => {
    expect(canAddCollectionAccount([till, bank])).toBe(true);
    expect(canAddCollectionAccount([till, bank, cash])).toBe(false);
  });

  it("send an existing account's id, and a new one's kind with only its fields, trimmed", () => {
    const switched: CollectionAccountChoice = {
      method: "cash",
      details: { till_number: "5123456", location: " Church office " },
    };
    expect(collectionAccountsPayload([existing, switched, { method: "", details: {} }])).toEqual([
      { account_id: 12 },
      { kind: "cash", location: "Church office" },
    ]);
  });
});
