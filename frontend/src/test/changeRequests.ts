import type { Schemas } from "@/lib/api/client";

/** A change the two-person rule holds back (the API's 202), as its asker sees it. */
export function waitingChange(kind: string, description: string): Schemas["ChangeRequestOut"] {
  return {
    id: 31,
    kind,
    description,
    status: "pending",
    requested_by: "Grace Wanjiku",
    requested_at: "2026-11-26T06:00:00Z",
    expires_at: "2026-12-03T06:00:00Z",
    decided_by: "",
    decided_at: null,
    can_approve: false,
    can_withdraw: true,
  };
}
