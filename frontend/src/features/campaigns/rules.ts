import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import * as v from "valibot";
import { todayIso } from "@/lib/dates";
import { i18n } from "@/lib/i18n";
import { youtubeVideoId } from "@/lib/youtube";

export { todayIso };

// The rules of backend/campaigns/services.py (campaign_update) and validators.py, with the server's
// messages; the server checks again and its field_errors are shown under the same fields.
const say = (descriptor: MessageDescriptor) => () => i18n._(descriptor);

const GOAL_MAX = 1_000_000_000;
// An absolute http(s) address, or a path on this site such as /static/... ("//" is not a path).
const MEDIA_URL = /^(?:https?:\/\/[^\s/$.?#]\S*|\/(?!\/)\S*)$/i;

const required = (message: MessageDescriptor, maxLength: number, tooLong: MessageDescriptor) =>
  v.pipe(v.string(), v.trim(), v.nonEmpty(say(message)), v.maxLength(maxLength, say(tooLong)));

const title = required(msg`Title is required`, 200, msg`Please keep the title under 200 characters.`);
const description = required(
  msg`Description is required`,
  500,
  msg`Please keep the description under 500 characters.`,
);
const goalMessage = msg`Goal must be a whole number of at least 1`;
/** Whole KES as typed; the form sends Number(goal). */
const goal = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^\d+$/, say(goalMessage)),
  v.check((value) => Number(value) >= 1, say(goalMessage)),
  v.check((value) => Number(value) <= GOAL_MAX, say(msg`Goal must be at most 1,000,000,000`)),
);

/** A campaign's end date: required, never in the past, unless it is the date already saved (an
 * ended campaign's owners may edit the rest and leave it). */
const endDateRule = (savedEndDate = "") =>
  v.pipe(
    v.string(),
    v.nonEmpty(say(msg`End date is required`)),
    v.check(
      (value) => value === savedEndDate || value >= todayIso(),
      say(msg`End date cannot be in the past`),
    ),
  );
/** The wizard's end date. */
export const endDate = endDateRule();

const largestPledgeMessage = msg`The largest pledge must be a whole amount from Ksh 1 to Ksh 1,000,000,000.`;

/** The Edit campaign page: title, description, goal, image URL and YouTube link, and the pledge rules. */
export const campaignEditSchema = v.object({
  title,
  description,
  goal,
  /** The largest single pledge it accepts (its goal until the organizer sets one). */
  largestPledge: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+$/, say(largestPledgeMessage)),
    v.check((value) => Number(value) >= 1 && Number(value) <= GOAL_MAX, say(largestPledgeMessage)),
  ),
  unsignedPledgesCountAfterPayment: v.boolean(),
  instalmentsPastEnd: v.boolean(),
  mayBeFeatured: v.boolean(),
  /** See `campaignEditSchemaFor`: an ended campaign's past date may stay as it is. */
  endDate: v.string(),
  imageUrl: v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (value) => value === "" || MEDIA_URL.test(value),
      say(msg`Please enter a valid image URL starting with http:// or https://`),
    ),
    v.maxLength(500, say(msg`Please keep the URL under 500 characters.`)),
  ),
  youtubeUrl: v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (value) => value === "" || youtubeVideoId(value) !== null,
      say(msg`Please enter a valid YouTube link.`),
    ),
  ),
});
export type CampaignEditValues = v.InferOutput<typeof campaignEditSchema>;

/** The edit form of a campaign ending on `savedEndDate`: its end date moves, never into the past. */
export function campaignEditSchemaFor(savedEndDate: string) {
  return v.object({
    ...campaignEditSchema.entries,
    endDate: endDateRule(savedEndDate),
  });
}

/** The admin's Edit Campaign dialog: title, description, goal, category and story, all required. */
export const adminCampaignEditSchema = v.object({
  title,
  description,
  goal,
  category: v.pipe(v.string(), v.nonEmpty(say(msg`Category is required`))),
  story: required(msg`Story is required`, 20_000, msg`Please keep the story under 20,000 characters.`),
});
export type AdminCampaignEditValues = v.InferOutput<typeof adminCampaignEditSchema>;
