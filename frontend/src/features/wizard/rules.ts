import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import * as v from "valibot";
import { adminCampaignEditSchema, endDate, todayIso } from "@/features/campaigns/rules";
import {
  type CollectionAccountChoice,
  collectionAccountChoicesSchema,
  isAccountKind,
} from "@/features/collection-accounts/campaignCollectionAccounts";
import { i18n } from "@/lib/i18n";
import { youtubeVideoId } from "@/lib/youtube";

// The wizards' rules (spec section 5) with the server's messages (backend/campaigns/validators.py);
// title, story, goal and category are the campaign forms' own rules. The server checks all again.
const say = (descriptor: MessageDescriptor) => () => i18n._(descriptor);
const { title, story, goal, category } = adminCampaignEditSchema.entries;

const VIDEO_FILE = /\.(?:mp4|webm)$/i;

export const isVideoUrl = (url: string) => VIDEO_FILE.test(new URL(url, "http://x").pathname);

export type CoverValues = { mediaType: "upload" | "youtube"; mediaUrl: string; youtubeUrl: string };

const coverEntries = {
  mediaType: v.picklist(["upload", "youtube"]),
  mediaUrl: v.string(),
  youtubeUrl: v.string(),
};

/** What is wrong with a cover, by field: an uploaded file, or a YouTube link with a video id, is required. */
export function coverProblems({ mediaType, mediaUrl, youtubeUrl }: CoverValues) {
  const problems: [keyof CoverValues, MessageDescriptor][] = [];
  if (mediaType === "upload" && !mediaUrl.trim()) {
    problems.push(["mediaUrl", msg`Please upload an image or video.`]);
  } else if (mediaType === "youtube" && !youtubeUrl.trim()) {
    problems.push(["youtubeUrl", msg`Please enter a YouTube link.`]);
  } else if (mediaType === "youtube" && youtubeVideoId(youtubeUrl) === null) {
    problems.push(["youtubeUrl", msg`Please enter a valid YouTube link.`]);
  }
  return problems;
}

/**
 * The cover check of a wizard's form. A raw check, so that it also runs while fields of other steps
 * are still invalid (each step validates only its own fields).
 */
function coverCheck<TValues extends CoverValues>() {
  return v.rawCheck<TValues>(({ dataset, addIssue }) => {
    // Untyped while other fields are invalid: read the cover's own fields defensively.
    const input = dataset.value as Record<string, unknown>;
    const cover: CoverValues = {
      mediaType: input.mediaType === "youtube" ? "youtube" : "upload",
      mediaUrl: typeof input.mediaUrl === "string" ? input.mediaUrl : "",
      youtubeUrl: typeof input.youtubeUrl === "string" ? input.youtubeUrl : "",
    };
    for (const [key, message] of coverProblems(cover)) {
      addIssue({
        message: i18n._(message),
        path: [{ type: "object", origin: "value", input, key, value: cover[key] }],
      });
    }
  });
}

/** What the server's media_type and media_url are made of. */
export function coverPayload({ mediaType, mediaUrl, youtubeUrl }: CoverValues) {
  return { media_type: mediaType, media_url: mediaType === "youtube" ? youtubeUrl.trim() : mediaUrl };
}

export type PledgeWizardValues = CoverValues & {
  category: string;
  goal: string;
  endDate: string;
  title: string;
  story: string;
  collectionAccounts: CollectionAccountChoice[];
};

/** The pledge campaign wizard's form; subscribers launch without collection accounts. */
const pledgeEntries = { category, goal, endDate, title, story, ...coverEntries };
const pledgeWithCollectionAccounts = v.object({
  ...pledgeEntries,
  collectionAccounts: collectionAccountChoicesSchema,
});
const pledgeWithoutCollectionAccounts = v.object({
  ...pledgeEntries,
  collectionAccounts: v.array(v.unknown()),
});

export function pledgeWizardSchema({ collectionAccountsRequired }: { collectionAccountsRequired: boolean }) {
  const schema = collectionAccountsRequired
    ? v.pipe(pledgeWithCollectionAccounts, coverCheck<v.InferOutput<typeof pledgeWithCollectionAccounts>>())
    : v.pipe(
        pledgeWithoutCollectionAccounts,
        coverCheck<v.InferOutput<typeof pledgeWithoutCollectionAccounts>>(),
      );
  // The form holds looser values than the schema admits (an option without a method yet).
  return schema as unknown as v.GenericSchema<PledgeWizardValues>;
}

/** The fields each step of the pledge wizard checks before Continue. */
export const PLEDGE_STEP_FIELDS = {
  1: ["category"],
  2: ["goal", "endDate"],
  3: ["title", "story"],
  4: ["mediaUrl", "youtubeUrl"],
  5: ["collectionAccounts"],
  6: [],
} as const satisfies Record<number, readonly (keyof PledgeWizardValues)[]>;

export const EMPTY_PLEDGE_WIZARD: PledgeWizardValues = {
  category: "",
  goal: "",
  endDate: "",
  title: "",
  story: "",
  mediaType: "upload",
  mediaUrl: "",
  youtubeUrl: "",
  collectionAccounts: [{ method: "", details: {} }],
};

const asString = (value: unknown, fallback: string) => (typeof value === "string" ? value : fallback);
const knownMethod = (method: string): CollectionAccountChoice["method"] =>
  isAccountKind(method) || method === "existing" ? method : "";

/** A saved draft's step_data as form values: anything missing or malformed is left empty. */
export function pledgeValuesFromDraft(stepData: Record<string, unknown>): PledgeWizardValues {
  const values = { ...EMPTY_PLEDGE_WIZARD };
  for (const key of ["category", "goal", "endDate", "title", "story", "mediaUrl", "youtubeUrl"] as const) {
    values[key] = asString(stepData[key], values[key]);
  }
  values.mediaType = stepData.mediaType === "youtube" ? "youtube" : "upload";
  // Drafts saved before the wizard said collection accounts keep them under paymentOptions.
  const saved = stepData.collectionAccounts ?? stepData.paymentOptions;
  const options = Array.isArray(saved) ? saved : [];
  const parsed = options
    .filter((entry): entry is Record<string, unknown> => typeof entry === "object" && entry !== null)
    .slice(0, 3)
    .map((entry) => ({
      // A method of drafts saved before collection accounts (mpesa_till, mpesa, ...) is chosen again.
      method: knownMethod(asString(entry.method, "")),
      ...(entry.method === "existing" ? { accountId: asString(entry.accountId, "") } : {}),
      details: Object.fromEntries(
        Object.entries(typeof entry.details === "object" && entry.details ? entry.details : {}).filter(
          (pair): pair is [string, string] => typeof pair[1] === "string",
        ),
      ),
    }));
  values.collectionAccounts = parsed.length ? parsed : EMPTY_PLEDGE_WIZARD.collectionAccounts;
  return values;
}

// The legacy fundraiser wizard (spec section 3, 'Wizard form').
export const DEFAULT_DURATION_DAYS = 30;
const MAX_DURATION_DAYS = 365;
/** The banks the legacy wizard offers (spec section 9), as validators.LEGACY_BANKS on the server. */
export const LEGACY_BANKS = [
  "Equity Bank Kenya Ltd",
  "KCB Bank Kenya Ltd",
  "Cooperative Bank of Kenya",
  "Absa Bank Kenya PLC",
  "Standard Chartered Bank Kenya",
] as const;

const requiredText = (message: MessageDescriptor) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(say(message)),
    v.maxLength(100, say(msg`Please keep this under 100 characters.`)),
  );

const fundraiserEntries = v.object({
  category,
  goal,
  duration: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+$/, say(msg`Duration must be between 1 and 365 days`)),
    v.check(
      (value) => Number(value) >= 1 && Number(value) <= MAX_DURATION_DAYS,
      say(msg`Duration must be between 1 and 365 days`),
    ),
  ),
  title,
  story,
  ...coverEntries,
  bankName: v.pipe(v.string(), v.nonEmpty(say(msg`Bank name is required`))),
  accountName: requiredText(msg`Account name is required`),
  accountNo: requiredText(msg`Account number is required`),
});
export const fundraiserWizardSchema = v.pipe(
  fundraiserEntries,
  coverCheck<v.InferOutput<typeof fundraiserEntries>>(),
);
export type FundraiserWizardValues = v.InferInput<typeof fundraiserWizardSchema>;

export const FUNDRAISER_STEP_FIELDS = {
  1: ["category"],
  2: ["goal", "duration"],
  3: ["title", "story"],
  4: ["mediaUrl", "youtubeUrl"],
  5: ["bankName", "accountName", "accountNo"],
  6: [],
} as const satisfies Record<number, readonly (keyof FundraiserWizardValues)[]>;

/** The end date a duration gives, counted from `today` (an ISO date), as the server counts it. */
export function endDateAfter(days: number, today = todayIso()): string {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
