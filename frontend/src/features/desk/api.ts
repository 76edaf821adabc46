import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiRequestError, api, type Schemas, setCsrfToken, unwrap } from "@/lib/api/client";

// The desk feature's requests: the desk itself, its entries (sent from the queue, queue.ts), a
// volunteer's sign-in with a passcode, an owner issuing, listing and revoking them, an event's cash
// count, and an event's report and thank-you.

export type Desk = Schemas["DeskOut"];
export type DeskEntryIn = Schemas["DeskEntryIn"];
export type DeskEntry = Schemas["DeskEntryOut"];
export type ListedPasscode = Schemas["DeskPasscodeListedOut"];
export type CashReconciliation = Schemas["CashReconciliationOut"];
export type UsherCash = Schemas["UsherCashOut"];
export type EventReport = Schemas["EventReportOut"];
export type ReportEntry = Schemas["ReportEntryOut"];
export type EntryMethod = Schemas["EntryMethod"];
export type ThanksSent = Schemas["ThanksSentOut"];

export const deskKeys = {
  desk: (campaignId: number) => ["desk", campaignId] as const,
  passcodes: (eventId: number) => ["desk", "passcodes", eventId] as const,
  cash: (eventId: number) => ["desk", "cash", eventId] as const,
  report: (eventId: number) => ["desk", "report", eventId] as const,
};

/** The CSV of an event's report: a plain link, so the browser downloads it with the session. */
export const eventReportCsvUrl = (eventId: number) => `/api/events/${eventId}/report.csv`;

// The last answer of each desk, so that a desk reloaded without the network still knows its event.
const remembered = (campaignId: number) => `harambee-desk-${campaignId}`;

export function rememberedDesk(campaignId: number): Desk | undefined {
  try {
    const text = localStorage.getItem(remembered(campaignId));
    return text ? (JSON.parse(text) as Desk) : undefined;
  } catch {
    return undefined;
  }
}

export function useDesk(campaignId: number) {
  return useQuery({
    queryKey: deskKeys.desk(campaignId),
    queryFn: async ({ signal }) => {
      const desk = unwrap(
        await api.GET("/api/campaigns/{campaign_id}/desk", {
          params: { path: { campaign_id: campaignId } },
          signal,
        }),
      );
      localStorage.setItem(remembered(campaignId), JSON.stringify(desk));
      return desk;
    },
    retry: false,
    refetchInterval: 15_000,
  });
}

/** What became of one delivery: the server has it; it refused it (for good); or try again later. */
export type Delivery =
  | { status: "delivered"; entry: DeskEntry }
  | { status: "refused"; message: string }
  | { status: "later" };

let csrfReady = false;

/** The CSRF token of this session (a reload loses the one in memory; the session itself survives). */
async function ensureCsrf(): Promise<void> {
  if (csrfReady) return;
  const session = unwrap(await api.GET("/api/auth/session", { cache: "no-store" }));
  setCsrfToken(session.csrf_token);
  csrfReady = true;
}

/** Send one kept entry with its idempotency key; a network failure, a 429 or a 5xx is "later". */
export async function deliverEntry(eventId: number, body: DeskEntryIn): Promise<Delivery> {
  try {
    await ensureCsrf();
    const result = await api.POST("/api/events/{event_id}/desk-entries", {
      params: { path: { event_id: eventId } },
      body,
    });
    if (result.data) return { status: "delivered", entry: result.data };
    const status = result.response.status;
    if (status === 403 && (result.error as { code?: string } | undefined)?.code === "csrf_failed") {
      csrfReady = false;
      return { status: "later" };
    }
    if (status === 429 || status >= 500 || status === 401) return { status: "later" };
    return { status: "refused", message: new ApiRequestError(status, result.error, "").message };
  } catch {
    return { status: "later" };
  }
}

export function usePasscodeSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (passcode: string) => {
      await ensureCsrf();
      const answer = unwrap(await api.POST("/api/desk/sign-in", { body: { passcode } }));
      // The session changed (a new key): ask for its token again.
      csrfReady = false;
      return answer;
    },
    onSuccess: (answer) => queryClient.invalidateQueries({ queryKey: deskKeys.desk(answer.campaign_id) }),
  });
}

export function useIssuePasscode(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (volunteer: string) => {
      await ensureCsrf();
      return unwrap(
        await api.POST("/api/events/{event_id}/desk-passcodes", {
          params: { path: { event_id: eventId } },
          body: { volunteer },
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deskKeys.passcodes(eventId) }),
  });
}

/** The event's desk passcodes (its owners): who holds each, its entries, whether it still works. */
export function usePasscodes(eventId: number) {
  return useQuery({
    queryKey: deskKeys.passcodes(eventId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/events/{event_id}/desk-passcodes", {
          params: { path: { event_id: eventId } },
          signal,
        }),
      ),
  });
}

/** Stops a passcode at once, also on the phone already signed in with it. */
export function useRevokePasscode(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (passcodeId: number) => {
      const result = await api.POST("/api/events/{event_id}/desk-passcodes/{passcode_id}/revocation", {
        params: { path: { event_id: eventId, passcode_id: passcodeId } },
      });
      if (result.response.status !== 204) unwrap(result);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deskKeys.passcodes(eventId) }),
  });
}

/** The event's cash per usher: recorded at the desk beside counted, and its sign-off. */
export function useCashReconciliation(eventId: number) {
  return useQuery({
    queryKey: deskKeys.cash(eventId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/events/{event_id}/cash-reconciliation", {
          params: { path: { event_id: eventId } },
          signal,
        }),
      ),
  });
}

/** Each change answers the whole count: it replaces the one shown. */
function useCashStep<Input>(eventId: number, step: (input: Input) => Promise<CashReconciliation>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: step,
    onSuccess: (reconciliation) => queryClient.setQueryData(deskKeys.cash(eventId), reconciliation),
  });
}

export function useRecordCashCount(eventId: number) {
  return useCashStep(
    eventId,
    async ({ usherKey, counted, note }: { usherKey: string; counted: number; note: string }) =>
      unwrap(
        await api.PUT("/api/events/{event_id}/cash-counts/{usher_key}", {
          params: { path: { event_id: eventId, usher_key: usherKey } },
          body: { counted, note },
        }),
      ),
  );
}

export function useSignOffCash(eventId: number) {
  return useCashStep(eventId, async () =>
    unwrap(
      await api.POST("/api/events/{event_id}/cash-reconciliation/sign-off", {
        params: { path: { event_id: eventId } },
      }),
    ),
  );
}

export function useReopenCash(eventId: number) {
  return useCashStep(eventId, async (reason: string) =>
    unwrap(
      await api.POST("/api/events/{event_id}/cash-reconciliation/reopen", {
        params: { path: { event_id: eventId } },
        body: { reason },
      }),
    ),
  );
}

/** The night's report of an event (its team but ushers): figures, by way and by usher, every entry. */
export function useEventReport(eventId: number) {
  return useQuery({
    queryKey: deskKeys.report(eventId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/events/{event_id}/report", {
          params: { path: { event_id: eventId } },
          signal,
        }),
      ),
  });
}

/** Thanks everyone who gave during the closed event; the answer says how many were reached. */
export function useSendThanks(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (text: string) =>
      unwrap(
        await api.POST("/api/events/{event_id}/thanks", {
          params: { path: { event_id: eventId } },
          body: { text },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deskKeys.report(eventId) }),
  });
}
