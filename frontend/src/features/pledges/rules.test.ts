import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  DONATION_PRESETS,
  type DonationValues,
  donationSchema,
  type PledgeValues,
  parseWholeKes,
  pledgeMissingFields,
  pledgeSchema,
} from "./rules";

/** The first problem of each field (the one the form shows) as "field: message". */
function problems<T>(schema: v.GenericSchema<T>, values: T): string[] {
  const result = v.safeParse(schema, values);
  if (result.success) return [];
  const shown = new Map<string, string>();
  for (const issue of result.issues) {
    const field = v.getDotPath(issue) ?? "";
    if (!shown.has(field)) shown.set(field, `${field}: ${issue.message}`);
  }
  return [...shown.values()];
}

const pledge: PledgeValues = {
  name: "Wanjiku Kamau",
  email: "wanjiku@example.co.ke",
  phone: "0712 345 678",
  amount: "5,000",
  isAnonymous: false,
};

const donation: DonationValues = {
  amount: "500",
  name: "Brian Omondi",
  email: "brian@example.co.ke",
  phone: "0712345678",
  isAnonymous: false,
  method: "mpesa",
};

describe("parseWholeKes", () => {
  it("reads whole shillings with grouping commas and spaces", () => {
    expect(parseWholeKes("1,500")).toBe(1500);
    expect(parseWholeKes(" 2 500 ")).toBe(2500);
    expect(parseWholeKes("1")).toBe(1);
  });

  it("refuses nothing, zero, fractions, negatives, words and more than a billion", () => {
    for (const text of ["", "0", "12.50", "-5", "abc", "1000000001", "1e3"]) {
      expect(parseWholeKes(text), text).toBeNull();
    }
  });
});

describe("pledge form", () => {
  it("accepts a complete pledge with a Kenyan phone and a whole amount", () => {
    expect(problems(pledgeSchema, pledge)).toEqual([]);
  });

  it("names each missing field, and the form says 'Please fill in all required fields'", () => {
    const empty = { ...pledge, name: " ", email: "", phone: "", amount: "" };
    expect(problems(pledgeSchema, empty)).toEqual([
      "name: Name is required",
      "email: Email is required",
      "phone: Phone number is required",
      "amount: Amount is required",
    ]);
    expect(pledgeMissingFields(empty)).toBe(true);
    expect(pledgeMissingFields(pledge)).toBe(false);
  });

  it("refuses a foreign phone number and an amount below Ksh 1", () => {
    expect(problems(pledgeSchema, { ...pledge, phone: "+255712345678", amount: "0" })).toEqual([
      "phone: Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)",
      "amount: Please enter a whole amount of at least Ksh 1",
    ]);
  });
});

describe("donation form", () => {
  it("offers the spec's preset amounts", () => {
    expect(DONATION_PRESETS).toEqual([100, 500, 1000, 2500, 5000]);
  });

  it("needs an amount above 0", () => {
    expect(problems(donationSchema, { ...donation, amount: "" })).toEqual([
      "amount: Please enter a valid donation amount",
    ]);
  });

  it("needs the name and email unless the donor gives anonymously", () => {
    const nameless = { ...donation, name: "", email: "" };
    expect(problems(donationSchema, nameless)).toEqual([
      "name: Please fill in your name and email",
      "email: Please fill in your name and email",
    ]);
    expect(problems(donationSchema, { ...nameless, isAnonymous: true })).toEqual([]);
  });

  it("needs a phone for M-Pesa but not for a card, which needs the email for its receipt", () => {
    expect(problems(donationSchema, { ...donation, phone: "" })).toEqual([
      "phone: Please enter your M-Pesa phone number.",
    ]);
    expect(problems(donationSchema, { ...donation, phone: "", method: "card" })).toEqual([]);
    expect(
      problems(donationSchema, { ...donation, isAnonymous: true, email: "", phone: "", method: "card" }),
    ).toEqual(["email: Please enter your email address to pay by card."]);
  });

  it("checks an optional email or phone only when one is given", () => {
    expect(problems(donationSchema, { ...donation, email: "brian@", phone: "12345" })).toEqual([
      "email: Please enter a valid email address",
      "phone: Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)",
    ]);
  });
});
