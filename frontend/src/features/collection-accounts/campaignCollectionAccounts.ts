import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import * as v from "valibot";
import type { Schemas } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";

type CollectionAccountOut = Schemas["CollectionAccountOut"];

// The wizard's payment step chooses 1 to 3 of the organization's collection accounts (where its own
// money is paid), or adds new ones: the rules of _collection_accounts_checked in backend/campaigns/wizard.py
// and of backend/collection_accounts/validators.py, with their messages. The server checks again.
const say = (descriptor: MessageDescriptor) => () => i18n._(descriptor);

export const ACCOUNT_KINDS = [
  "paybill",
  "paybill_fixed_account",
  "till",
  "bank",
  "cash",
  "airtel_money",
] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
/** An existing account of the organization, chosen by its id (``accountId``). */
export type PaymentMethod = AccountKind | "existing";
export const MAX_COLLECTION_ACCOUNTS = 3;
const SHORT_CODE = /^\d{5,10}$/;

export const METHOD_LABELS: Record<AccountKind, MessageDescriptor> = {
  paybill: msg`M-Pesa Paybill (pledge code as account number)`,
  paybill_fixed_account: msg`Bank collection paybill (fixed account number)`,
  till: msg`M-Pesa Till (Buy Goods)`,
  bank: msg`Bank Account`,
  cash: msg`Cash`,
  airtel_money: msg`Airtel Money (merchant number)`,
};

export type DetailField = {
  name: string;
  label: MessageDescriptor;
  optional?: boolean;
  maxLength: number;
  shortCode?: MessageDescriptor;
  inputMode?: "numeric" | "text";
  placeholder?: string;
};

const paybillNumber: DetailField = {
  name: "paybill_number",
  label: msg`Paybill Number`,
  maxLength: 10,
  shortCode: msg`Please enter a valid paybill number (digits only).`,
  inputMode: "numeric",
  placeholder: "600100",
};
const accountNumber: DetailField = { name: "account_number", label: msg`Account Number`, maxLength: 64 };

/** The detail fields of each kind of account, named as the server names them. */
export const METHOD_FIELDS: Record<AccountKind, DetailField[]> = {
  paybill: [paybillNumber],
  paybill_fixed_account: [
    { ...paybillNumber, placeholder: "247247" },
    accountNumber,
    { name: "bank_name", label: msg`Bank Name`, optional: true, maxLength: 100 },
  ],
  till: [
    {
      name: "till_number",
      label: msg`Till Number`,
      maxLength: 10,
      shortCode: msg`Please enter a valid till number (digits only).`,
      inputMode: "numeric",
      placeholder: "5123456",
    },
    {
      name: "store_number",
      label: msg`Store Number`,
      optional: true,
      maxLength: 10,
      shortCode: msg`Please enter a valid store number (digits only).`,
      inputMode: "numeric",
    },
  ],
  bank: [
    { name: "bank_name", label: msg`Bank Name`, maxLength: 100 },
    { name: "account_name", label: msg`Account Name`, maxLength: 100 },
    accountNumber,
    { name: "bank_branch", label: msg`Branch`, optional: true, maxLength: 100 },
  ],
  cash: [{ name: "location", label: msg`Location`, maxLength: 200 }],
  airtel_money: [
    {
      name: "merchant_msisdn",
      label: msg`Airtel Money merchant number`,
      maxLength: 16,
      inputMode: "text",
      placeholder: "0733 123 456",
    },
  ],
};

/** An entry as the form holds it: no choice yet is "", details keep what was typed for any kind. */
export type CollectionAccountChoice = {
  method: PaymentMethod | "";
  accountId?: string;
  details: Record<string, string>;
};

/** How an existing account reads in a list: its label, kind and number. */
export function accountName(account: CollectionAccountOut, kindLabel: string): string {
  const number =
    account.paybill_number ||
    account.till_number ||
    account.account_number ||
    account.merchant_msisdn ||
    account.location;
  return [account.label, `${kindLabel} ${number}`].filter(Boolean).join(" · ");
}

export const emptyCollectionAccountChoice = (): CollectionAccountChoice => ({ method: "", details: {} });

export const isAccountKind = (method: string): method is AccountKind =>
  (ACCOUNT_KINDS as readonly string[]).includes(method);

/** The select's value for an entry: an existing account as ``account:<id>``, else its kind. */
export const choiceOf = (option: CollectionAccountChoice): string =>
  option.method === "existing" ? `account:${option.accountId ?? ""}` : option.method;

/** The entry a choice of the select makes, keeping what was typed. */
export function optionFromChoice(choice: string, details: Record<string, string>): CollectionAccountChoice {
  if (choice.startsWith("account:")) return { method: "existing", accountId: choice.slice(8), details };
  return { method: isAccountKind(choice) ? choice : "", details };
}

function detailSchema(field: DetailField) {
  return v.config(
    v.pipe(
      v.optional(v.string(), ""),
      v.trim(),
      v.check((value) => field.optional === true || value !== "", say(msg`This field is required.`)),
      v.check(
        (value) => value.length <= field.maxLength,
        say(msg`Please keep this under ${field.maxLength} characters.`),
      ),
      v.check(
        (value) => !field.shortCode || value === "" || SHORT_CODE.test(value),
        say(field.shortCode ?? msg`This field is required.`),
      ),
    ),
    { abortPipeEarly: true },
  );
}

/** The name an account has for its team, besides its details (the server allows 80 characters). */
export const LABEL_FIELD: DetailField = {
  name: "label",
  label: msg`Name for the team`,
  optional: true,
  maxLength: 80,
};

/** An account as the forms that add or change one hold it: its kind, its details and its name for the team. */
export type AccountFormValues = { kind: AccountKind } & Record<string, string>;

/** Those forms' rules: the wizard's, with its messages (the server's). */
export const accountFormSchema = v.variant(
  "kind",
  ACCOUNT_KINDS.map((kind) =>
    v.object({
      kind: v.literal(kind),
      ...Object.fromEntries(
        [...METHOD_FIELDS[kind], LABEL_FIELD].map((field) => [field.name, detailSchema(field)]),
      ),
    }),
  ),
) as unknown as v.GenericSchema<AccountFormValues>;

const newAccount = (kind: AccountKind) =>
  v.object({
    method: v.literal(kind),
    details: v.object(
      Object.fromEntries(METHOD_FIELDS[kind].map((field) => [field.name, detailSchema(field)])),
    ),
  });

const chosenAccount = v.object({
  method: v.literal("existing"),
  accountId: v.pipe(v.string(), v.regex(/^\d+$/, say(msg`Please choose a payment method.`))),
});

export const collectionAccountChoiceSchema = v.variant(
  "method",
  [chosenAccount, ...ACCOUNT_KINDS.map(newAccount)],
  say(msg`Please choose a payment method.`),
);

/** What makes two entries the same account: its id, or its kind and details. */
function sameness(option: { method: string; accountId?: string; details?: Record<string, unknown> }): string {
  const { method, details = {} } = option;
  if (!isAccountKind(method)) return `account:${option.accountId}`;
  return [method, ...METHOD_FIELDS[method].map(({ name }) => String(details[name] ?? "").trim())].join("|");
}

export const collectionAccountChoicesSchema = v.pipe(
  v.array(collectionAccountChoiceSchema),
  v.minLength(1, say(msg`Please provide at least one valid payment method to continue.`)),
  v.maxLength(MAX_COLLECTION_ACCOUNTS, say(msg`You can add at most 3 payment methods.`)),
  v.check(
    (options) => new Set(options.map(sameness)).size === options.length,
    say(msg`Each payment method can be used only once.`),
  ),
);

/** Whether the entries can be launched: drives 'Great! You have provided valid payment details.' */
export function collectionAccountChoicesAreValid(options: CollectionAccountChoice[]): boolean {
  return v.is(collectionAccountChoicesSchema, options);
}

export function canAddCollectionAccount(options: CollectionAccountChoice[]): boolean {
  return options.length < MAX_COLLECTION_ACCOUNTS;
}

type AccountPayload = Record<string, string | number> & { account_id?: number; kind?: AccountKind };

/** What the server takes: an existing account's id, or a new account's kind and only its fields, trimmed. */
export function collectionAccountsPayload(options: CollectionAccountChoice[]): AccountPayload[] {
  return options.flatMap(({ method, accountId, details }): AccountPayload[] => {
    if (method === "existing") return accountId ? [{ account_id: Number(accountId) }] : [];
    if (!isAccountKind(method)) return [];
    const fields = METHOD_FIELDS[method].map(({ name }) => [name, (details[name] ?? "").trim()]);
    return [{ kind: method, ...Object.fromEntries(fields) }];
  });
}
