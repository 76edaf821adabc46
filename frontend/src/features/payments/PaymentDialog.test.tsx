import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";
import { SESSION_KEY } from "@/lib/session";
import type { Payment } from "./api";
import PaymentDialog from "./PaymentDialog";

vi.mock("@/lib/api/client", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/api/client")>();
  return { ...actual, api: { GET: vi.fn(), POST: vi.fn() } };
});

const answer = (data: unknown, status = 200) =>
  status < 400
    ? { data, response: new Response(null, { status }) }
    : { error: data, response: new Response(null, { status }) };

const PENDING: Payment = {
  reference: "HRBABC123",
  status: "pending",
  amount: 1000,
  provider: "mpesa_stk",
  purpose: "campaign_activation",
  campaign_id: 7,
  result_desc: "",
  receipt_number: null,
  checkout_url: null,
  created_at: "2026-01-10T10:00:00Z",
  settled_at: null,
};
const SESSION = { user: { phone: "+254712345678", email: "grace@example.com" }, csrf_token: "token" };

/** GET answers: the session, then the payment as `payments` says (its last entry repeats). */
function serve(payments: Partial<Payment>[]) {
  let polls = 0;
  vi.mocked(api.GET).mockImplementation((async (path: string) => {
    if (path === "/api/auth/session") return answer(SESSION);
    const next = payments[Math.min(polls++, payments.length - 1)];
    return answer({ ...PENDING, ...next });
  }) as never);
}

function renderDialog() {
  const onOpenChange = vi.fn();
  const onSettled = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The dialog opens on signed-in pages only, where the session is already known.
  queryClient.setQueryData(SESSION_KEY, SESSION);
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <PaymentDialog
          open
          onOpenChange={onOpenChange}
          purpose="campaign_activation"
          campaignId={7}
          title="Activate your campaign"
          onSettled={onSettled}
        />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { onOpenChange, onSettled };
}

const sentKeys = () =>
  vi
    .mocked(api.POST)
    .mock.calls.map((call) => (call[1] as { body: { idempotency_key: string } }).body.idempotency_key);

describe("PaymentDialog, M-Pesa", () => {
  beforeEach(() => {
    vi.mocked(api.POST).mockReset();
    serve([{}]);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("prefills the signed-in user's phone and checks it is Kenyan", async () => {
    const user = userEvent.setup();
    renderDialog();
    const phone = screen.getByLabelText("M-Pesa phone number");
    await waitFor(() => expect(phone).toHaveValue("+254712345678"));

    await user.clear(phone);
    await user.type(phone, "12345");
    expect(
      await screen.findByText("Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)"),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Send payment request" }));
    expect(api.POST).not.toHaveBeenCalled();
  });

  it("sends one idempotency key for a double tap, and a new one for the next attempt", async () => {
    const user = userEvent.setup();
    // Both taps get the same (late) answer.
    let release: (value: unknown) => void = () => {};
    const late = new Promise((resolve) => {
      release = resolve;
    });
    vi.mocked(api.POST).mockImplementation(() => late as never);
    renderDialog();
    await waitFor(() => expect(screen.getByLabelText("M-Pesa phone number")).toHaveValue("+254712345678"));

    const send = screen.getByRole("button", { name: "Send payment request" });
    await user.dblClick(send);
    await waitFor(() => expect(api.POST).toHaveBeenCalled());
    // The service could not be reached: the server answered, so this attempt is over.
    release(
      answer({ detail: "The payment service could not be reached.", code: "x", field_errors: {} }, 400),
    );
    expect(await screen.findByRole("alert")).toHaveTextContent("The payment service could not be reached.");

    vi.mocked(api.POST).mockResolvedValueOnce(answer(PENDING, 201) as never);
    await user.click(screen.getByRole("button", { name: "Send payment request" }));
    await screen.findByText("Check your phone and enter your M-Pesa PIN");

    const keys = sentKeys();
    expect(keys).toHaveLength(3);
    expect(new Set(keys.slice(0, -1)).size).toBe(1);
    expect(keys.at(-1)).not.toBe(keys[0]);
  });

  it("asks for the PIN with the amount, then shows the receipt once the payment succeeds", async () => {
    const user = userEvent.setup();
    serve([{}, { status: "succeeded", receipt_number: "HRB-260110-000042" }]);
    vi.mocked(api.POST).mockResolvedValueOnce(answer(PENDING, 201) as never);
    const { onOpenChange, onSettled } = renderDialog();
    await waitFor(() => expect(screen.getByLabelText("M-Pesa phone number")).toHaveValue("+254712345678"));

    await user.click(screen.getByRole("button", { name: "Send payment request" }));
    expect(await screen.findByText("Check your phone and enter your M-Pesa PIN")).toBeInTheDocument();
    expect(screen.getByText("Amount: Ksh 1,000")).toBeInTheDocument();
    expect(await screen.findByText("Payment received. Receipt HRB-260110-000042", {}, { timeout: 3000 }));

    await user.click(screen.getByRole("button", { name: "Done" }));
    expect(onSettled).toHaveBeenCalledWith("succeeded");
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("says so when the payer cancels on the phone", async () => {
    const user = userEvent.setup();
    serve([{ status: "cancelled", result_desc: "Request cancelled by user" }]);
    vi.mocked(api.POST).mockResolvedValueOnce(answer(PENDING, 201) as never);
    renderDialog();
    await waitFor(() => expect(screen.getByLabelText("M-Pesa phone number")).toHaveValue("+254712345678"));

    await user.click(screen.getByRole("button", { name: "Send payment request" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("You cancelled the payment on your phone.");
    // Trying again starts over with the phone form.
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(screen.getByRole("button", { name: "Send payment request" })).toBeInTheDocument();
  });

  it("closes by itself after 30 s while the payment is still pending", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    vi.mocked(api.POST).mockResolvedValueOnce(answer(PENDING, 201) as never);
    const { onOpenChange, onSettled } = renderDialog();
    await waitFor(() => expect(screen.getByLabelText("M-Pesa phone number")).toHaveValue("+254712345678"));

    await user.click(screen.getByRole("button", { name: "Send payment request" }));
    await screen.findByText("Check your phone and enter your M-Pesa PIN");
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(onOpenChange).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1_500));

    expect(onSettled).toHaveBeenCalledWith("pending");
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe("PaymentDialog, card", () => {
  beforeEach(() => vi.mocked(api.POST).mockReset());
  afterEach(cleanup);

  it("shows the hosted checkout page in a titled frame", async () => {
    const user = userEvent.setup();
    serve([{ provider: "card" }]);
    vi.mocked(api.POST).mockResolvedValueOnce(
      answer({ reference: "HRBCARD1", checkout_url: "/simulators/paystack/checkout/abc" }, 201) as never,
    );
    renderDialog();

    await user.click(screen.getByRole("radio", { name: "Card" }));
    await user.click(screen.getByRole("button", { name: "Continue to card payment" }));

    expect(await screen.findByTitle("Card payment")).toHaveAttribute(
      "src",
      "/simulators/paystack/checkout/abc",
    );
    expect(vi.mocked(api.POST).mock.calls[0]?.[0]).toBe("/api/payments/checkout");
  });
});
