import { Trans, useLingui } from "@lingui/react/macro";
import type { Campaign } from "@/features/campaigns/api";
import { DialogShell } from "./DialogShell";
import { PledgeFlow } from "./PledgeFlow";

type Props = { campaign: Campaign | undefined; failed: boolean; onClose(): void };

/** The pledge form over the campaign (/campaign/{id}/pledge): closing or cancelling leaves the route. */
export default function PledgeDialog({ campaign, failed, onClose }: Props) {
  const { t } = useLingui();
  return (
    <DialogShell
      title={campaign ? t`Pledge to ${campaign.title}` : t`Make a pledge`}
      description={
        <Trans>
          Promise an amount now and pay it by M-Pesa when you are ready, all at once or bit by bit.
        </Trans>
      }
      onClose={onClose}
      inPlace
    >
      <PledgeFlow campaign={campaign} failed={failed} onCancel={onClose} />
    </DialogShell>
  );
}
