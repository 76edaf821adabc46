import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { toast } from "@/components/toast";
import type { CollectionAccount } from "@/features/payments/api";
import { waitingChange } from "@/test/changeRequests";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import { CardPaymentsLoader } from "./CardPaymentsPage";

vi.mock("@/components/toast", () => ({ toast: vi.fn() }));

const LIST = "/api/orgs/{organization_id}/collection-accounts";
const CARDS = "/api/orgs/{organization_id}/collection-accounts/{account_id}/cards";
const BANK: CollectionAccount = {
  id: 4,
  kind: "bank",
  label: "",
  paybill_number: "",
  account_number: "1180012345",
  till_number: "",
  store_number: "",
  bank_name: "KCB",
  bank_branch: "",
  account_name: "St. Mark's",
  location: "",
  is_default: false,
  mpesa_connected_at: null,
  offers_stk_push: false,
  takes_cards: false,
  card_settlement_bank: "",
  merchant_msisdn: "",
  airtel_connected_at: null,
  offers_airtel_push: false,
};

function renderPage(accounts: CollectionAccount[]) {
  server.use(http.get(LIST, ({ response }) => response(200).json(accounts)));
  return renderWithProviders(<CardPaymentsLoader account={{ organizationId: 3, accountId: 4 }} />);
}

describe("CardPaymentsPage", () => {
  it("sets up card payments on a bank account with its bank's code", async () => {
    const sent: unknown[] = [];
    let accounts = [BANK];
    server.use(
      http.get(LIST, ({ response }) => response(200).json(accounts)),
      http.put(CARDS, async ({ request, response }) => {
        sent.push(await request.json());
        accounts = [{ ...BANK, takes_cards: true, card_settlement_bank: "01" }];
        return response(200).json(accounts[0] as CollectionAccount);
      }),
    );
    const { user } = renderWithProviders(
      <CardPaymentsLoader account={{ organizationId: 3, accountId: 4 }} />,
    );

    expect(await screen.findByText("This account takes no card payments yet.")).toBeVisible();
    await user.type(screen.getByLabelText("Bank code at Paystack"), "01");
    await user.click(screen.getByRole("button", { name: "Take card payments here" }));

    expect(await screen.findByText("Card payments settle to this account.")).toBeVisible();
    expect(sent).toEqual([{ settlement_bank: "01" }]);
  });

  it("says the setup waits for another owner's or treasurer's approval", async () => {
    server.use(
      http.put(CARDS, ({ response }) =>
        response(202).json(
          waitingChange("cards.subaccount_set", "Take card payments into Bank account 1180012345."),
        ),
      ),
    );
    const { user } = renderPage([BANK]);

    await user.type(await screen.findByLabelText("Bank code at Paystack"), "01");
    await user.click(screen.getByRole("button", { name: "Take card payments here" }));

    await vi.waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: "Waiting for approval" })),
    );
    expect(screen.getByText("This account takes no card payments yet.")).toBeVisible();
  });

  it("shows why Paystack refused the account", async () => {
    server.use(
      http.put(CARDS, ({ response }) =>
        response(400).json({
          detail: "Paystack did not accept this bank account (Account details are invalid).",
          code: "card_account_refused",
          field_errors: {},
        }),
      ),
    );
    const { user } = renderPage([BANK]);

    await user.type(await screen.findByLabelText("Bank code at Paystack"), "01");
    await user.click(screen.getByRole("button", { name: "Take card payments here" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Account details are invalid");
  });

  it("says an account that is not the organization's is not found", async () => {
    renderPage([{ ...BANK, id: 5 }]);

    expect(await screen.findByText("Account not found.")).toBeVisible();
  });
});
