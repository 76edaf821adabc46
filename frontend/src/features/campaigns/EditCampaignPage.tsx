import { Trans, useLingui } from "@lingui/react/macro";
import { type ReactNode, useMemo, useState } from "react";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton } from "@/components/buttonStyles";
import { CheckboxField, TextAreaField } from "@/components/FieldControls";
import { PageSkeleton } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { showFieldErrors, useNavigateLater, useSchemaForm } from "@/lib/forms";
import { useSession } from "@/lib/session";
import { type Campaign, isNotFound, useCampaign, useSaveCampaign } from "./api";
import { CampaignAccountsSection } from "./CampaignAccountsSection";
import { CampaignNotFound } from "./CampaignNotFound";
import { CloseCampaignSection } from "./CloseCampaignSection";
import { parseCampaignId } from "./links";
import { type CampaignEditValues, campaignEditSchemaFor, todayIso } from "./rules";

const REDIRECT_DELAY_MS = 1500;
const FIELDS = [
  "title",
  "description",
  "goal",
  "largestPledge",
  "endDate",
  "imageUrl",
  "youtubeUrl",
] as const;

/** /edit-campaign/{id} and /campaign/{id}/edit: the organizer (or an admin) edits the campaign. */
export default function EditCampaignPage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  return <AppLayout>{id === null ? <CampaignNotFound /> : <EditCampaign id={id} />}</AppLayout>;
}

function EditCampaign({ id }: { id: number }) {
  const session = useSession();
  const campaign = useCampaign(id);
  // can_edit is only known from the server's answer for this viewer, not from a cached or embedded copy.
  if (session.isPending || !campaign.isFetchedAfterMount) return <PageSkeleton />;
  if (campaign.isError && isNotFound(campaign.error)) return <CampaignNotFound />;
  if (campaign.isError || !campaign.data) {
    return <Notice>{errorMessage(campaign.error)}</Notice>;
  }
  if (!session.data?.user) {
    return (
      <Notice>
        <Trans>Please sign in to edit this campaign.</Trans>
        <Link
          href={`/signin?next=${encodeURIComponent(`/edit-campaign/${id}`)}`}
          className={`${primaryButton} mt-4 sm:w-auto`}
        >
          <Trans>Sign In</Trans>
        </Link>
      </Notice>
    );
  }
  if (!campaign.data.can_edit) {
    return (
      <Notice>
        <Trans>You can only edit campaigns you organize.</Trans>
        <Link href={`/campaign/${id}`} className={`${primaryButton} mt-4 sm:w-auto`}>
          <Trans>View Campaign</Trans>
        </Link>
      </Notice>
    );
  }
  return <EditForm campaign={campaign.data} />;
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Edit Campaign</Trans>
      </h1>
      <div role="alert" className="mt-4 flex flex-col items-center text-slate-800">
        {children}
      </div>
    </div>
  );
}

function EditForm({ campaign }: { campaign: Campaign }) {
  const { t } = useLingui();
  const save = useSaveCampaign(campaign.id);
  const navigateLater = useNavigateLater();
  const [saved, setSaved] = useState(false);
  const schema = useMemo(() => campaignEditSchemaFor(campaign.end_date), [campaign.end_date]);
  const form = useSchemaForm(schema, {
    title: campaign.title,
    description: campaign.description,
    goal: String(campaign.goal),
    largestPledge: String(campaign.largest_pledge),
    unsignedPledgesCountAfterPayment: campaign.unsigned_pledges_count_after_payment,
    instalmentsPastEnd: campaign.instalments_past_end,
    mayBeFeatured: campaign.may_be_featured,
    endDate: campaign.end_date,
    imageUrl: campaign.image_url,
    youtubeUrl: campaign.youtube_url,
  });
  const { errors, isSubmitting } = form.formState;
  const closed = campaign.status === "closed";

  const onSubmit = async (values: CampaignEditValues) => {
    try {
      await save({
        title: values.title,
        description: values.description,
        goal: Number(values.goal),
        largest_pledge: Number(values.largestPledge),
        unsigned_pledges_count_after_payment: values.unsignedPledgesCountAfterPayment,
        instalments_past_end: values.instalmentsPastEnd,
        may_be_featured: values.mayBeFeatured,
        // Unchanged, it is left out: a closed campaign keeps its date, an ended one may keep its past one.
        end_date: values.endDate === campaign.end_date ? undefined : values.endDate,
        image_url: values.imageUrl,
        youtube_url: values.youtubeUrl,
      });
      setSaved(true);
      toast({ title: t`Campaign Updated!` });
      navigateLater("/dashboard", REDIRECT_DELAY_MS);
    } catch (error) {
      if (showFieldErrors(error, form, FIELDS)) return;
      toast({
        title: t`Error`,
        description: errorMessage(error),
        variant: "destructive",
      });
    }
  };

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8">
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Edit Campaign</Trans>
      </h1>
      <p className="mt-1 text-slate-600">{campaign.title}</p>
      <form
        noValidate
        onSubmit={form.handleSubmit(onSubmit)}
        className="mt-6 space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <TextField label={t`Title`} error={errors.title?.message} {...form.register("title")} />
        <TextAreaField
          label={t`Description`}
          rows={3}
          error={errors.description?.message}
          {...form.register("description")}
        />
        <TextField
          label={t`Goal Amount (Ksh)`}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          error={errors.goal?.message}
          {...form.register("goal")}
        />
        <TextField
          label={t`Largest single pledge (Ksh)`}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          hint={<Trans>A larger pledge is refused. Set it to the goal unless you expect bigger gifts.</Trans>}
          error={errors.largestPledge?.message}
          {...form.register("largestPledge")}
        />
        {!closed && (
          <TextField
            label={t`End date`}
            type="date"
            min={todayIso()}
            hint={
              <Trans>
                Extend or shorten the campaign; it cannot end before today. Reminders follow the new date.
              </Trans>
            }
            error={errors.endDate?.message}
            {...form.register("endDate")}
          />
        )}
        <CheckboxField
          label={t`Count pledges made without signing in publicly only after their first payment`}
          note={
            <Trans>
              Keeps joke pledges off the public total and progress bar; you still see every pledge.
            </Trans>
          }
          {...form.register("unsignedPledgesCountAfterPayment")}
        />
        <CheckboxField
          label={t`Let instalment plans run up to 24 months past the end date`}
          note={
            <Trans>
              For building drives: pledgers may keep paying in instalments after the campaign ends.
            </Trans>
          }
          {...form.register("instalmentsPastEnd")}
        />
        <CheckboxField
          label={t`Feature this campaign among the success stories on the home page`}
          note={<Trans>Its title, organization and real totals are shown there, linking to its page.</Trans>}
          {...form.register("mayBeFeatured")}
        />
        <TextField
          label={t`Image URL`}
          type="url"
          inputMode="url"
          placeholder="https://"
          error={errors.imageUrl?.message}
          {...form.register("imageUrl")}
        />
        <TextField
          label={t`YouTube Link`}
          type="url"
          inputMode="url"
          placeholder="https://www.youtube.com/watch?v="
          hint={<Trans>Optional. The video is shown instead of the image.</Trans>}
          error={errors.youtubeUrl?.message}
          {...form.register("youtubeUrl")}
        />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Link
            href={`/campaign/${campaign.id}`}
            className="rounded-md border border-slate-300 px-4 py-2.5 text-center font-medium text-slate-700 hover:bg-slate-50"
          >
            <Trans>Cancel</Trans>
          </Link>
          <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={isSubmitting || saved}>
            {isSubmitting ? <Trans>Saving...</Trans> : <Trans>Save Changes</Trans>}
          </button>
        </div>
      </form>
      <CampaignAccountsSection campaign={campaign} />
      {campaign.status === "active" && <CloseCampaignSection campaign={campaign} />}
    </div>
  );
}
