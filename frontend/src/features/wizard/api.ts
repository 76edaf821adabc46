import { msg } from "@lingui/core/macro";
import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";

// The wizards' requests: drafts kept on the server (the campaign wizard's and the grant questionnaire's),
// media uploads, the pledging campaign itself and the questions after launch.

export type Draft = Schemas["DraftOut"];
export type ToolType = Draft["tool_type"];

export const draftKey = (toolType: ToolType) => ["campaign-drafts", toolType] as const;

/** The signed-in user's open draft of a wizard (the newest), or null. */
export const draftOptions = (toolType: ToolType) =>
  queryOptions({
    queryKey: draftKey(toolType),
    queryFn: async () => {
      const drafts = unwrap(
        await api.GET("/api/campaign-drafts", { params: { query: { tool_type: toolType } } }),
        i18n._(msg`Failed to load draft`),
      );
      return drafts[0] ?? null;
    },
  });

export async function createDraft(body: Schemas["DraftIn"]) {
  return unwrap(await api.POST("/api/campaign-drafts", { body }), i18n._(msg`Failed to save draft`));
}

export async function updateDraft(draftId: number, body: Schemas["DraftUpdateIn"]) {
  return unwrap(
    await api.PUT("/api/campaign-drafts/{draft_id}", { params: { path: { draft_id: draftId } }, body }),
    i18n._(msg`Failed to update draft`),
  );
}

/** Uploads a cover image or video; the answer has its address. */
export async function uploadMedia(file: File) {
  const body = new FormData();
  body.append("file", file);
  // openapi-fetch sends FormData as it is; the generated type only knows the field's name.
  return unwrap(
    await api.POST("/api/media", { body: body as unknown as { file: string } }),
    i18n._(msg`Upload failed. Please try again.`),
  );
}

/** Creates the wizard's pledging campaign. */
export async function createPledgingCampaign(body: Schemas["PledgingCampaignIn"], fallback?: string) {
  return unwrap(await api.POST("/api/pledging-campaigns", { body }), fallback);
}

/** Sends the questions asked after a launch. */
export async function sendWizardFeedback(body: Schemas["WizardFeedbackIn"], fallback?: string) {
  return unwrap(await api.POST("/api/wizard-feedback", { body }), fallback);
}

export type CollectionAccount = Schemas["CollectionAccountOut"];

/** The accounts of the organization a new campaign goes to, for the payment step: the one chosen in
 * the first step (``organizationId``), else the one the user owns; none while the user owns no
 * organization yet (a first campaign makes their own) or has not chosen among several. */
export const campaignAccountsOptions = (organizationId: number | null = null) =>
  queryOptions({
    queryKey: ["wizard-collection-accounts", organizationId] as const,
    queryFn: async (): Promise<CollectionAccount[]> => {
      let chosen = organizationId;
      if (chosen === null) {
        const organizations = unwrap(await api.GET("/api/orgs"), i18n._(msg`Failed to load your accounts`));
        const owned = organizations.filter((organization) => organization.can_create_campaigns);
        if (owned.length !== 1 || !owned[0]) return [];
        chosen = owned[0].id;
      }
      return unwrap(
        await api.GET("/api/orgs/{organization_id}/collection-accounts", {
          params: { path: { organization_id: chosen } },
        }),
        i18n._(msg`Failed to load your accounts`),
      );
    },
  });
