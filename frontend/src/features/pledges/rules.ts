import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import * as v from "valibot";
import { profileSchema, signInSchema } from "@/features/accounts/rules";
import { i18n } from "@/lib/i18n";

// The same rules as backend/pledges/services.py, with the spec's messages (section 5).
/** A valibot message in the active language, translated when the check fails. */
export const say = (descriptor: MessageDescriptor) => () => i18n._(descriptor);

/** The donation page's preset amounts, whole KES (spec section 9). */
export const DONATION_PRESETS = [100, 500, 1000, 2500, 5000] as const;

const MAX_AMOUNT = 1_000_000_000;
const NAME_MAX_LENGTH = 150;

/** Whole shillings as a person types them ('1,500', ' 2500 '), or null unless 1 to 1,000,000,000. */
export function parseWholeKes(text: string): number | null {
  const digits = text.replace(/[\s,]/g, "");
  if (!/^\d{1,10}$/.test(digits)) return null;
  const amount = Number(digits);
  return amount >= 1 && amount <= MAX_AMOUNT ? amount : null;
}

/** Whole KES typed into a text field (see parseWholeKes). */
export const wholeKes = (message: MessageDescriptor) =>
  v.pipe(
    v.string(),
    v.check((text) => parseWholeKes(text) !== null, say(message)),
  );

const email = signInSchema.entries.email;
const kenyanPhone = profileSchema.entries.phone;

/** Empty, or what `schema` accepts (with its own message): an optional field that must be right when given. */
function blankOr(schema: v.GenericSchema<string>) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed || dataset.value === "") return;
      const result = v.safeParse(schema, dataset.value);
      if (!result.success) addIssue({ message: result.issues[0].message });
    }),
  );
}

const name = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(NAME_MAX_LENGTH, say(msg`Please keep the name under 150 characters.`)),
);

export const pledgeSchema = v.object({
  name: v.pipe(name, v.nonEmpty(say(msg`Name is required`))),
  email,
  phone: v.pipe(v.string(), v.trim(), v.nonEmpty(say(msg`Phone number is required`)), kenyanPhone),
  amount: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(say(msg`Amount is required`)),
    wholeKes(msg`Please enter a whole amount of at least Ksh 1`),
  ),
  isAnonymous: v.boolean(),
});

export type PledgeValues = v.InferInput<typeof pledgeSchema>;

/** The form-wide message when a required pledge field is empty (spec section 5). */
export function pledgeMissingFields(values: PledgeValues): boolean {
  return [values.name, values.email, values.phone, values.amount].some((value) => value.trim() === "");
}

export const donationSchema = v.pipe(
  v.object({
    amount: wholeKes(msg`Please enter a valid donation amount`),
    name,
    email: blankOr(email),
    phone: blankOr(kenyanPhone),
    isAnonymous: v.boolean(),
    method: v.picklist(["mpesa", "airtel", "card"]),
  }),
  // Unless anonymous, the name and the e-mail; M-Pesa needs the phone, a card receipt the e-mail.
  v.forward(
    v.partialCheck(
      [["isAnonymous"], ["name"]],
      (input) => input.isAnonymous || input.name !== "",
      say(msg`Please fill in your name and email`),
    ),
    ["name"],
  ),
  v.forward(
    v.partialCheck(
      [["isAnonymous"], ["email"]],
      (input) => input.isAnonymous || input.email !== "",
      say(msg`Please fill in your name and email`),
    ),
    ["email"],
  ),
  v.forward(
    v.partialCheck(
      [["method"], ["phone"]],
      (input) => input.method !== "mpesa" || input.phone !== "",
      say(msg`Please enter your M-Pesa phone number.`),
    ),
    ["phone"],
  ),
  v.forward(
    v.partialCheck(
      [["method"], ["phone"]],
      (input) => input.method !== "airtel" || input.phone !== "",
      say(msg`Please enter your Airtel Money phone number.`),
    ),
    ["phone"],
  ),
  v.forward(
    v.partialCheck(
      [["method"], ["email"]],
      (input) => input.method !== "card" || input.email !== "",
      say(msg`Please enter your email address to pay by card.`),
    ),
    ["email"],
  ),
);

export type DonationValues = v.InferInput<typeof donationSchema>;
