import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { toast } from "@/components/toast";
import type { CollectionAccount } from "@/features/organizations/api";
import { waitingChange } from "@/test/changeRequests";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import type { Campaign } from "./api";
import { CampaignAccountsSection } from "./CampaignAccountsSection";

vi.mock("@/components/toast", () => ({ toast: vi.fn() }));

const CAMPAIGN_ACCOUNTS = "/api/campaigns/{campaign_id}/collection-accounts";
const account = (id: number, paybill: string): CollectionAccount => ({
  id,
  kind: "paybill",
  label: "",
  paybill_number: paybill,
  account_number: "",
  till_number: "",
  store_number: "",
  bank_name: "",
  bank_branch: "",
  account_name: "",
  location: "",
  is_default: id === 1,
  mpesa_connected_at: null,
  offers_stk_push: false,
  takes_cards: false,
  card_settlement_bank: "",
  merchant_msisdn: "",
  airtel_connected_at: null,
  offers_airtel_push: false,
});
const MAIN = account(1, "600100");
const BUILDING = account(2, "600200");
// Only what the section reads of the campaign.
const campaign = (changes: Partial<Campaign> = {}) =>
  ({ id: 9, organization_id: 3, viewer_role: "owner", type: "pledging", ...changes }) as Campaign;

function renderSection(sent: unknown[] = []) {
  server.use(
    http.get(CAMPAIGN_ACCOUNTS, ({ response }) => response(200).json([MAIN])),
    http.get("/api/orgs/{organization_id}/collection-accounts", ({ response }) =>
      response(200).json([MAIN, BUILDING]),
    ),
    http.get("/api/orgs/{organization_id}/approvals", ({ response }) => response(200).json([])),
    http.put(CAMPAIGN_ACCOUNTS, async ({ request, response }) => {
      sent.push(await request.json());
      return response(202).json(
        waitingChange("campaign.accounts_change", "Take the payments of the campaign 'Roof' into 600200."),
      );
    }),
  );
  return renderWithProviders(<CampaignAccountsSection campaign={campaign()} />);
}

describe("CampaignAccountsSection", () => {
  it("keeps the last account and each account once, with the wizard's messages", async () => {
    const sent: unknown[] = [];
    const { user } = renderSection(sent);

    expect(await screen.findByLabelText("Payment method 1")).toHaveValue("1");
    expect(screen.queryByRole("button", { name: "Remove payment method 1" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Add Payment Method" }));
    await user.selectOptions(screen.getByLabelText("Payment method 2"), "1");
    await user.click(screen.getByRole("button", { name: "Save payment accounts" }));

    expect(await screen.findByText("Each payment method can be used only once.")).toBeVisible();
    expect(sent).toEqual([]);
  });

  it("switches to another account, which waits for another's approval", async () => {
    const sent: unknown[] = [];
    const { user } = renderSection(sent);

    await screen.findByRole("option", { name: /600200/ });
    await user.selectOptions(screen.getByLabelText("Payment method 1"), "2");
    await user.click(screen.getByRole("button", { name: "Save payment accounts" }));

    await vi.waitFor(() => expect(sent).toEqual([{ account_ids: [2] }]));
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: "Waiting for approval" }));
  });

  it("says a legacy fundraiser's bank details cannot be changed", () => {
    renderWithProviders(<CampaignAccountsSection campaign={campaign({ type: "fundraising" })} />);

    expect(screen.getByText("Bank details cannot be changed after setup.")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Save payment accounts" })).toBeNull();
  });

  it("is not shown to ushers and viewers", () => {
    const { container } = renderWithProviders(
      <CampaignAccountsSection campaign={campaign({ viewer_role: "usher" })} />,
    );

    expect(container).toBeEmptyDOMElement();
  });
});
