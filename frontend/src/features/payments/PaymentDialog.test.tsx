import { act, screen, waitFor } from "@testing-library/react";
import type { Options as UserEventOptions } from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Session } from "@/lib/api/client";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import type { Payment } from "./api";
import PaymentDialog from "./PaymentDialog";

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
const SESSION = {
  user: { phone: "+254712345678", email: "grace@example.com" },
  csrf_token: "token",
} as Session;

/** GET /api/payments/{reference} answers as `payments` says, one per poll (the last one repeats);
 * GET /api/fees with the settings' default prices. */
function serve(payments: Partial<Payment>[]) {
  let polls = 0;
  server.use(
    http.get("/api/fees", ({ response }) =>
      response(200).json({
        campaign_activation_fee: 1000,
        subscription_fee: 2500,
        subscription_period_days: 365,
      }),
    ),
    http.get("/api/payments/{reference}", ({ response }) => {
      const next = payments[Math.min(polls++, payments.length - 1)];
      return response(200).json({ ...PENDING, ...next });
    }),
  );
}

/** POST `path` answers with each of `answers` in turn; returns the bodies sent. */
function answerPosts(
  path: "/api/payments/stk-push" | "/api/payments/checkout",
  answers: (() => Promise<Response> | Response)[],
) {
  const sent: { idempotency_key: string }[] = [];
  server.use(
    http.post(path, async ({ request, response }) => {
      sent.push((await request.json()) as { idempotency_key: string });
      const answer = answers[Math.min(sent.length - 1, answers.length - 1)];
      return response.untyped(await (answer ?? (() => HttpResponse.error()))());
    }),
  );
  return sent;
}

const created = (body: object) => () => HttpResponse.json(body, { status: 201 });

function renderDialog(userOptions?: UserEventOptions) {
  const onOpenChange = vi.fn();
  const onSettled = vi.fn();
  // The dialog opens on signed-in pages only, where the session is already known.
  const { user } = renderWithProviders(
    <PaymentDialog
      open
      onOpenChange={onOpenChange}
      purpose="campaign_activation"
      campaignId={7}
      campaignTitle="Church Roof"
      title="Activate your campaign"
      onSettled={onSettled}
    />,
    { session: SESSION, userOptions },
  );
  return { onOpenChange, onSettled, user };
}

describe("PaymentDialog, M-Pesa", () => {
  beforeEach(() => serve([{}]));
  afterEach(() => vi.useRealTimers());

  it("states the fee and the campaign it activates before any prompt is sent", async () => {
    const sent = answerPosts("/api/payments/stk-push", [created(PENDING)]);
    renderDialog();

    const summary = await screen.findByTestId("fee-summary");
    expect(summary).toHaveTextContent("Activation fee: Ksh 1,000, once");
    expect(summary).toHaveTextContent("It makes “Church Roof” public, so it can take pledges and donations.");
    expect(summary).toHaveTextContent("Pledges and donations go to your organization's own accounts");
    expect(sent).toEqual([]);
  });

  it("states the subscription's price and period", async () => {
    renderWithProviders(
      <PaymentDialog
        open
        onOpenChange={vi.fn()}
        purpose="subscription"
        title="Subscribe to Grantfunding AI"
      />,
      { session: SESSION },
    );

    const summary = await screen.findByTestId("fee-summary");
    expect(summary).toHaveTextContent("Subscription: Ksh 2,500 for 365 days");
    expect(summary).toHaveTextContent("Grantfunding AI's grant search and matching until");
  });

  it("prefills the signed-in user's phone and checks it is Kenyan", async () => {
    const sent = answerPosts("/api/payments/stk-push", [created(PENDING)]);
    const { user } = renderDialog();
    const phone = screen.getByLabelText("M-Pesa phone number");
    await waitFor(() => expect(phone).toHaveValue("+254712345678"));

    await user.clear(phone);
    await user.type(phone, "12345");
    expect(
      await screen.findByText("Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)"),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Send payment request" }));
    expect(sent).toEqual([]);
  });

  it("sends one idempotency key for a double tap, and a new one for the next attempt", async () => {
    // Both taps get the same (late) answer; the next attempt gets the pending payment.
    let release: () => void = () => {};
    const late = new Promise<void>((resolve) => {
      release = resolve;
    });
    const unreachable = async () => {
      await late;
      return HttpResponse.json(
        { detail: "The payment service could not be reached.", code: "x", field_errors: {} },
        { status: 400 },
      );
    };
    const sent = answerPosts("/api/payments/stk-push", [unreachable, unreachable, created(PENDING)]);
    const { user } = renderDialog();
    await waitFor(() => expect(screen.getByLabelText("M-Pesa phone number")).toHaveValue("+254712345678"));

    const send = screen.getByRole("button", { name: "Send payment request" });
    await user.dblClick(send);
    await waitFor(() => expect(sent).not.toEqual([]));
    // The service could not be reached: the server answered, so this attempt is over.
    release();
    expect(await screen.findByRole("alert")).toHaveTextContent("The payment service could not be reached.");

    await user.click(screen.getByRole("button", { name: "Send payment request" }));
    await screen.findByText("Check your phone and enter your M-Pesa PIN");

    const keys = sent.map((body) => body.idempotency_key);
    expect(keys).toHaveLength(3);
    expect(new Set(keys.slice(0, -1)).size).toBe(1);
    expect(keys.at(-1)).not.toBe(keys[0]);
  });

  it("asks for the PIN with the amount, then shows the receipt once the payment succeeds", async () => {
    serve([{}, { status: "succeeded", receipt_number: "HRB-260110-000042" }]);
    answerPosts("/api/payments/stk-push", [created(PENDING)]);
    const { onOpenChange, onSettled, user } = renderDialog();
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
    serve([{ status: "cancelled", result_desc: "Request cancelled by user" }]);
    answerPosts("/api/payments/stk-push", [created(PENDING)]);
    const { user } = renderDialog();
    await waitFor(() => expect(screen.getByLabelText("M-Pesa phone number")).toHaveValue("+254712345678"));

    await user.click(screen.getByRole("button", { name: "Send payment request" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("You cancelled the payment on your phone.");
    // Trying again starts over with the phone form.
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(screen.getByRole("button", { name: "Send payment request" })).toBeInTheDocument();
  });

  it("closes by itself after 30 s while the payment is still pending", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answerPosts("/api/payments/stk-push", [created(PENDING)]);
    const { onOpenChange, onSettled, user } = renderDialog({ advanceTimers: vi.advanceTimersByTime });
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
  it("shows the hosted checkout page in a titled frame", async () => {
    serve([{ provider: "card" }]);
    const sent = answerPosts("/api/payments/checkout", [
      created({ reference: "HRBCARD1", checkout_url: "/simulators/paystack/checkout/abc" }),
    ]);
    const { user } = renderDialog();

    await user.click(screen.getByRole("radio", { name: "Card" }));
    await user.click(screen.getByRole("button", { name: "Continue to card payment" }));

    expect(await screen.findByTitle("Card payment")).toHaveAttribute(
      "src",
      "/simulators/paystack/checkout/abc",
    );
    expect(sent).toHaveLength(1);
  });
});
