import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import * as v from "valibot";
import { profileSchema } from "@/features/accounts/rules";
import { i18n } from "@/lib/i18n";

// The rules of payment_options_errors in backend/campaigns/validators.py, with its messages: 1 to 3
// methods, each once, every detail field filled in; till and paybill numbers in digits, M-Pesa
// numbers Kenyan. The server checks again when the campaign is launched.
const say = (descriptor: MessageDescriptor) => () => i18n._(descriptor);

export const PAYMENT_METHODS = ["bank", "mpesa_till", "paybill", "mpesa", "cash"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const MAX_PAYMENT_OPTIONS = 3;
const DETAIL_MAX_LENGTH = 100;
const SHORT_CODE = /^\d{5,10}$/;

export const METHOD_LABELS: Record<PaymentMethod, MessageDescriptor> = {
  bank: msg`Bank Account`,
  mpesa_till: msg`Mpesa Till`,
  paybill: msg`Paybill`,
  mpesa: msg`Mpesa (Phone Number)`,
  cash: msg`Cash`,
};

export type DetailField = {
  name: string;
  label: MessageDescriptor;
  inputMode?: "numeric" | "tel" | "text";
  placeholder?: string;
};

/** The detail fields of each method (spec section 3), named as the server names them. */
export const METHOD_FIELDS: Record<PaymentMethod, DetailField[]> = {
  bank: [
    { name: "bank_name", label: msg`Bank Name` },
    { name: "account_name", label: msg`Account Name` },
    { name: "account_no", label: msg`Account Number` },
  ],
  mpesa_till: [
    { name: "till_number", label: msg`Till Number`, inputMode: "numeric", placeholder: "5123456" },
  ],
  paybill: [
    { name: "business_number", label: msg`Business Number`, inputMode: "numeric", placeholder: "247247" },
    { name: "account_no", label: msg`Account Number` },
  ],
  mpesa: [{ name: "phone_number", label: msg`Phone Number`, inputMode: "tel", placeholder: "0712345678" }],
  cash: [{ name: "location", label: msg`Location` }],
};

/** An option as the form holds it: no method yet is "", details keep what was typed for any method. */
export type PaymentOptionValue = { method: PaymentMethod | ""; details: Record<string, string> };

export const emptyPaymentOption = (): PaymentOptionValue => ({ method: "", details: {} });

const detail = v.pipe(
  v.optional(v.string(), ""),
  v.trim(),
  v.nonEmpty(say(msg`This field is required.`)),
  v.maxLength(DETAIL_MAX_LENGTH, say(msg`Please keep this under 100 characters.`)),
);
// A format is checked only once the field is filled in: one message at a time.
const formatted = <TSchema extends v.GenericSchema<string, string>>(format: TSchema) =>
  v.config(v.pipe(detail, format), { abortPipeEarly: true });
const shortCode = (message: MessageDescriptor) =>
  formatted(v.pipe(v.string(), v.regex(SHORT_CODE, say(message))));

const option = <M extends PaymentMethod, D extends v.ObjectEntries>(method: M, details: D) =>
  v.object({ method: v.literal(method), details: v.object(details) });

export const paymentOptionSchema = v.variant(
  "method",
  [
    option("bank", { bank_name: detail, account_name: detail, account_no: detail }),
    option("mpesa_till", { till_number: shortCode(msg`Please enter a valid till number (digits only).`) }),
    option("paybill", {
      business_number: shortCode(msg`Please enter a valid paybill number (digits only).`),
      account_no: detail,
    }),
    option("mpesa", { phone_number: formatted(profileSchema.entries.phone) }),
    option("cash", { location: detail }),
  ],
  say(msg`Please choose a payment method.`),
);

export const paymentOptionsSchema = v.pipe(
  v.array(paymentOptionSchema),
  v.minLength(1, say(msg`Please provide at least one valid payment method to continue.`)),
  v.maxLength(MAX_PAYMENT_OPTIONS, say(msg`You can add at most 3 payment methods.`)),
  v.check(
    (options) => new Set(options.map((entry) => entry.method)).size === options.length,
    say(msg`Each payment method can be used only once.`),
  ),
);

/** Whether the options can be launched: drives 'Great! You have provided valid payment details.' */
export function paymentOptionsAreValid(options: PaymentOptionValue[]): boolean {
  return v.is(paymentOptionsSchema, options);
}

/** The methods option `index` may switch to: its own and those no other option uses. */
export function availableMethods(options: PaymentOptionValue[], index: number): PaymentMethod[] {
  const taken = new Set(options.filter((_, other) => other !== index).map((entry) => entry.method));
  return PAYMENT_METHODS.filter((method) => !taken.has(method));
}

export function canAddPaymentOption(options: PaymentOptionValue[]): boolean {
  return options.length < MAX_PAYMENT_OPTIONS && availableMethods(options, -1).length > 0;
}

/** What the server stores: each option's method and only that method's fields, trimmed. */
export function paymentOptionsPayload(options: PaymentOptionValue[]) {
  return options.flatMap(({ method, details }) =>
    method
      ? [
          {
            method,
            details: Object.fromEntries(
              METHOD_FIELDS[method].map(({ name }) => [name, (details[name] ?? "").trim()]),
            ),
          },
        ]
      : [],
  );
}
