import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  forgotPasswordSchema,
  passwordChangeSchema,
  profileSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
} from "./rules";

/** The message shown under each field: the first issue per field, as the forms' resolver reports. */
function errorsOf(schema: v.GenericSchema, input: unknown): Record<string, string> {
  const result = v.safeParse(schema, input, { abortPipeEarly: false });
  const errors: Record<string, string> = {};
  for (const issue of result.issues ?? []) {
    const path = v.getDotPath(issue) ?? "";
    errors[path] ??= issue.message;
  }
  return errors;
}

const PHONE_MESSAGE = "Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)";
const SIGN_UP_PASSWORD_MESSAGE =
  "Password must be at least 8 characters, include a symbol, and at least one letter";
const CHANGED_PASSWORD_MESSAGE =
  "Password must be at least 8 characters and include numbers, letters, and symbols.";

describe("sign in", () => {
  it("accepts an e-mail and a password", () => {
    expect(errorsOf(signInSchema, { email: " grace@example.co.ke ", password: "x" })).toEqual({});
  });

  it("requires both fields", () => {
    expect(errorsOf(signInSchema, { email: "  ", password: "" })).toEqual({
      email: "Email is required",
      password: "Password is required",
    });
  });

  it("rejects an address that does not look like an e-mail", () => {
    expect(errorsOf(signInSchema, { email: "grace@", password: "x" })).toEqual({
      email: "Please enter a valid email address",
    });
  });

  it("trims the e-mail it sends", () => {
    expect(v.parse(signInSchema, { email: " a@b.co ", password: "x" }).email).toBe("a@b.co");
  });
});

describe("sign up", () => {
  const valid = {
    firstName: "Grace",
    lastName: "Wanjiku",
    email: "grace@example.co.ke",
    phone: "+254712345678",
    idNumber: "12345678",
    password: "secret#pw",
    confirmPassword: "secret#pw",
  };

  it("accepts a complete form", () => {
    expect(errorsOf(signUpSchema, valid)).toEqual({});
  });

  it("requires every field with its own message", () => {
    const blank = Object.fromEntries(Object.keys(valid).map((key) => [key, ""]));
    expect(errorsOf(signUpSchema, blank)).toEqual({
      firstName: "First name is required",
      lastName: "Last name is required",
      email: "Email is required",
      phone: PHONE_MESSAGE,
      idNumber: "ID number must be 6-9 characters",
      password: SIGN_UP_PASSWORD_MESSAGE,
      confirmPassword: "Please confirm your password",
    });
  });

  it("treats names of only spaces as missing", () => {
    expect(errorsOf(signUpSchema, { ...valid, firstName: "  ", lastName: " " })).toEqual({
      firstName: "First name is required",
      lastName: "Last name is required",
    });
  });

  it.each(["+254712345678", "0712345678", "0112345678", "+254 712 345 678", "0712-345-678"])(
    "accepts the Kenyan number %s",
    (phone) => {
      expect(errorsOf(signUpSchema, { ...valid, phone })).toEqual({});
    },
  );

  it.each(["712345678", "0812345678", "+255712345678", "07123456789", "071234567", "+2540712345678"])(
    "rejects %s as not Kenyan",
    (phone) => {
      expect(errorsOf(signUpSchema, { ...valid, phone })).toEqual({ phone: PHONE_MESSAGE });
    },
  );

  it.each([
    ["12345", false],
    ["123456", true],
    ["123456789", true],
    ["1234567890", false],
    [" 12345 ", false],
  ])("an ID number %j is valid: %s", (idNumber, ok) => {
    expect(errorsOf(signUpSchema, { ...valid, idNumber })).toEqual(
      ok ? {} : { idNumber: "ID number must be 6-9 characters" },
    );
  });

  it.each([
    ["short#1", false], // 7 characters
    ["password1", false], // no symbol
    ["12345678#", false], // no letter
    ["abcdefg#", true], // a digit is not needed here
    ["pass word", false], // a space is not a symbol
  ])("the password %j is strong enough: %s", (password, ok) => {
    expect(errorsOf(signUpSchema, { ...valid, password, confirmPassword: password })).toEqual(
      ok ? {} : { password: SIGN_UP_PASSWORD_MESSAGE },
    );
  });

  it("says so when the confirmation differs, even while other fields are still wrong", () => {
    expect(errorsOf(signUpSchema, { ...valid, firstName: "", confirmPassword: "secret#pX" })).toEqual({
      firstName: "First name is required",
      confirmPassword: "Passwords do not match",
    });
  });
});

describe("forgot password", () => {
  it("asks for the address, then for a valid one", () => {
    expect(errorsOf(forgotPasswordSchema, { email: "" })).toEqual({
      email: "Please enter your email address",
    });
    expect(errorsOf(forgotPasswordSchema, { email: "grace.example.co.ke" })).toEqual({
      email: "Please enter a valid email address",
    });
    expect(errorsOf(forgotPasswordSchema, { email: "grace@example.co.ke" })).toEqual({});
  });
});

describe("reset password", () => {
  it("asks for a new password first", () => {
    expect(errorsOf(resetPasswordSchema, { password: "", confirmPassword: "" })).toEqual({
      password: "Please enter a new password",
    });
  });

  it("applies the sign-up strength rule", () => {
    expect(errorsOf(resetPasswordSchema, { password: "password", confirmPassword: "password" })).toEqual({
      password: SIGN_UP_PASSWORD_MESSAGE,
    });
    expect(errorsOf(resetPasswordSchema, { password: "abcdefg#", confirmPassword: "abcdefg#" })).toEqual({});
  });

  it("requires the confirmation to match", () => {
    expect(errorsOf(resetPasswordSchema, { password: "abcdefg#", confirmPassword: "" })).toEqual({
      confirmPassword: "Passwords do not match",
    });
  });
});

describe("profile", () => {
  const valid = { firstName: "Grace", lastName: "Wanjiku", phone: "0712345678", avatarUrl: "" };

  it("accepts a profile without an avatar", () => {
    expect(errorsOf(profileSchema, valid)).toEqual({});
  });

  it("requires the names and a Kenyan phone number", () => {
    expect(errorsOf(profileSchema, { ...valid, firstName: " ", lastName: "", phone: "12345" })).toEqual({
      firstName: "First name is required",
      lastName: "Last name is required",
      phone: PHONE_MESSAGE,
    });
  });

  it.each([
    ["https://example.com/me.png", true],
    ["http://example.com/me.png", true],
    ["ftp://example.com/me.png", false],
    ["example.com/me.png", false],
    ["https://", false],
  ])("the avatar address %j is valid: %s", (avatarUrl, ok) => {
    expect(errorsOf(profileSchema, { ...valid, avatarUrl })).toEqual(
      ok ? {} : { avatarUrl: "Please enter a valid URL starting with http:// or https://" },
    );
  });
});

describe("profile password change", () => {
  const valid = { currentPassword: "old", newPassword: "abcdef1#", confirmPassword: "abcdef1#" };

  it("accepts a strong new password that is confirmed", () => {
    expect(errorsOf(passwordChangeSchema, valid)).toEqual({});
  });

  it("says every field is required", () => {
    expect(
      errorsOf(passwordChangeSchema, { currentPassword: "", newPassword: "", confirmPassword: "" }),
    ).toEqual({
      currentPassword: "All fields are required.",
      newPassword: "All fields are required.",
      confirmPassword: "All fields are required.",
    });
  });

  it.each([
    ["abcdefg#", false], // no digit
    ["abcdef1", false], // too short, no symbol
    ["1234567#", false], // no letter
    ["abcdefg1", false], // no symbol
    ["abcdef1#", true],
  ])("the new password %j is strong enough: %s", (newPassword, ok) => {
    expect(errorsOf(passwordChangeSchema, { ...valid, newPassword, confirmPassword: newPassword })).toEqual(
      ok ? {} : { newPassword: CHANGED_PASSWORD_MESSAGE },
    );
  });

  it("requires the new passwords to match", () => {
    expect(errorsOf(passwordChangeSchema, { ...valid, confirmPassword: "abcdef1$" })).toEqual({
      confirmPassword: "New passwords do not match.",
    });
  });
});
