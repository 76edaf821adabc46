import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { toast } from "@/components/toast";
import type { CollectionAccount } from "@/features/organizations/api";
import { waitingChange } from "@/test/changeRequests";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import { AccountForm } from "./AccountForm";

vi.mock("@/components/toast", () => ({ toast: vi.fn() }));

const ACCOUNT = "/api/orgs/{organization_id}/collection-accounts/{account_id}";
const TILL: CollectionAccount = {
  id: 7,
  kind: "till",
  label: "Sunday offering",
  paybill_number: "",
  account_number: "",
  till_number: "5123456",
  store_number: "",
  bank_name: "",
  bank_branch: "",
  account_name: "",
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

describe("AccountForm (changing an account)", () => {
  it("checks the details with the wizard's messages before sending anything", async () => {
    const sent: unknown[] = [];
    server.use(
      http.patch(ACCOUNT, async ({ request, response }) => {
        sent.push(await request.json());
        return response(200).json(TILL);
      }),
    );
    const { user } = renderWithProviders(<AccountForm organizationId={3} account={TILL} />);

    const till = screen.getByLabelText("Till Number");
    expect(till).toHaveValue("5123456");
    await user.clear(till);
    await user.type(till, "51-23");
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText("Please enter a valid till number (digits only).")).toBeVisible();
    await user.clear(till);
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("This field is required.")).toBeVisible();
    expect(sent).toEqual([]);
  });

  it("sends only the account's own fields and says when the change waits for approval", async () => {
    const sent: unknown[] = [];
    const done = vi.fn();
    server.use(
      http.patch(ACCOUNT, async ({ request, response }) => {
        sent.push(await request.json());
        return response(202).json(waitingChange("collection_account.change", "Change M-Pesa till 5123456."));
      }),
    );
    const { user } = renderWithProviders(<AccountForm organizationId={3} account={TILL} onDone={done} />);

    await user.type(screen.getByLabelText("Store Number (optional)"), "5123400");
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    await vi.waitFor(() => expect(done).toHaveBeenCalledWith(true));
    expect(sent).toEqual([{ till_number: "5123456", store_number: "5123400", label: "Sunday offering" }]);
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: "Waiting for approval" }));
  });

  it("shows the server's refusal under its field", async () => {
    server.use(
      http.patch(ACCOUNT, ({ response }) =>
        response(422).json({
          detail: "Please correct the errors below",
          code: "validation_error",
          field_errors: {
            till_number:
              "This is Harambee's paybill for its own fees. Please enter your organization's own number.",
          },
        }),
      ),
    );
    const { user } = renderWithProviders(<AccountForm organizationId={3} account={TILL} />);

    await user.click(screen.getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText(/This is Harambee's paybill/)).toBeVisible();
  });
});
