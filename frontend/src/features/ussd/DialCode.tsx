import { Trans } from "@lingui/react/macro";
import { useUssdInfo } from "./api";

/**
 * "Dial *384*4242# and enter 14": how to pledge to or give to a campaign from any phone, without
 * data. Nothing until the code has loaded.
 */
export function DialCode({ campaignId, className = "" }: { campaignId: number; className?: string }) {
  const info = useUssdInfo();
  if (!info.data) return null;
  const code = info.data.service_code;
  return (
    <p className={className}>
      <Trans>
        Dial <strong className="whitespace-nowrap">{code}</strong> and enter <strong>{campaignId}</strong>
      </Trans>
    </p>
  );
}
