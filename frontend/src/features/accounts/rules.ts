import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import * as v from "valibot";
import { i18n } from "@/lib/i18n";

// The same rules as backend/accounts/validators.py, with the spec's exact messages. Messages are
// translated when a check fails, so they follow the active language.
const say = (descriptor: MessageDescriptor) => () => i18n._(descriptor);

const KENYAN_PHONE = /^(\+254|0)[17]\d{8}$/;
const LETTER = /[A-Za-z]/;
const DIGIT = /\d/;
const SYMBOL = /[^A-Za-z0-9\s]/;
const PASSWORD_MIN_LENGTH = 8;
const WEB_ADDRESS = /^https?:\/\/[^\s/$.?#]\S*$/i;

const required = (message: MessageDescriptor) => v.pipe(v.string(), v.trim(), v.nonEmpty(say(message)));

const email = (requiredMessage: MessageDescriptor) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(say(requiredMessage)),
    v.email(say(msg`Please enter a valid email address`)),
  );

const kenyanPhone = v.pipe(
  v.string(),
  v.check(
    (value) => KENYAN_PHONE.test(value.replace(/[\s-]/g, "")),
    say(msg`Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)`),
  ),
);

/** Sign-up and reset rule: at least 8 characters, a letter and a symbol. */
const newPassword = v.pipe(
  v.string(),
  v.check(
    (value) => value.length >= PASSWORD_MIN_LENGTH && LETTER.test(value) && SYMBOL.test(value),
    say(msg`Password must be at least 8 characters, include a symbol, and at least one letter`),
  ),
);

export const signInSchema = v.object({
  email: email(msg`Email is required`),
  password: v.pipe(v.string(), v.nonEmpty(say(msg`Password is required`))),
});

export const signUpSchema = v.pipe(
  v.object({
    firstName: required(msg`First name is required`),
    lastName: required(msg`Last name is required`),
    email: email(msg`Email is required`),
    phone: kenyanPhone,
    idNumber: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(6, say(msg`ID number must be 6-9 characters`)),
      v.maxLength(9, say(msg`ID number must be 6-9 characters`)),
    ),
    password: newPassword,
    confirmPassword: v.pipe(v.string(), v.nonEmpty(say(msg`Please confirm your password`))),
  }),
  v.forward(
    v.partialCheck(
      [["password"], ["confirmPassword"]],
      (input) => input.password === input.confirmPassword,
      say(msg`Passwords do not match`),
    ),
    ["confirmPassword"],
  ),
);

export const forgotPasswordSchema = v.object({
  email: email(msg`Please enter your email address`),
});

export const resetPasswordSchema = v.pipe(
  v.object({
    password: v.pipe(v.string(), v.nonEmpty(say(msg`Please enter a new password`)), newPassword),
    confirmPassword: v.string(),
  }),
  v.forward(
    v.partialCheck(
      [["password"], ["confirmPassword"]],
      (input) => input.password === input.confirmPassword,
      say(msg`Passwords do not match`),
    ),
    ["confirmPassword"],
  ),
);

export const profileSchema = v.object({
  firstName: required(msg`First name is required`),
  lastName: required(msg`Last name is required`),
  phone: kenyanPhone,
  avatarUrl: v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (value) => value === "" || WEB_ADDRESS.test(value),
      say(msg`Please enter a valid URL starting with http:// or https://`),
    ),
  ),
});

const allFieldsRequired = v.pipe(v.string(), v.nonEmpty(say(msg`All fields are required.`)));

/** The profile's password change: the new password also needs a digit. */
export const passwordChangeSchema = v.pipe(
  v.object({
    currentPassword: allFieldsRequired,
    newPassword: v.pipe(
      allFieldsRequired,
      v.check(
        (value) =>
          value.length >= PASSWORD_MIN_LENGTH &&
          LETTER.test(value) &&
          DIGIT.test(value) &&
          SYMBOL.test(value),
        say(msg`Password must be at least 8 characters and include numbers, letters, and symbols.`),
      ),
    ),
    confirmPassword: allFieldsRequired,
  }),
  v.forward(
    v.partialCheck(
      [["newPassword"], ["confirmPassword"]],
      (input) => input.newPassword === input.confirmPassword,
      say(msg`New passwords do not match.`),
    ),
    ["confirmPassword"],
  ),
);

export type SignInValues = v.InferInput<typeof signInSchema>;
export type SignUpValues = v.InferInput<typeof signUpSchema>;
export type ForgotPasswordValues = v.InferInput<typeof forgotPasswordSchema>;
export type ResetPasswordValues = v.InferInput<typeof resetPasswordSchema>;
export type ProfileValues = v.InferInput<typeof profileSchema>;
export type PasswordChangeValues = v.InferInput<typeof passwordChangeSchema>;
