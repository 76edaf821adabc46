import { type PledgeStatus, pledgeStatusLabel } from "./format";

const TONES: Record<PledgeStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  partly_paid: "bg-sky-100 text-sky-900",
  confirmed: "bg-green-100 text-green-800",
};

export function PledgeStatusBadge({ status }: { status: PledgeStatus }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[status]}`}
    >
      {pledgeStatusLabel(status)}
    </span>
  );
}
