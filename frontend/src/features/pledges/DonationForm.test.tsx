import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Campaign } from "@/features/campaigns/api";
import { renderWithProviders } from "@/test/render";
import DonationForm from "./DonationForm";

// The form reads only these of the campaign.
function campaign(offersCardPayment: boolean) {
  return { id: 7, offers_card_payment: offersCardPayment } as Campaign;
}

describe("DonationForm", () => {
  it("offers cards where the campaign's organization takes them", () => {
    renderWithProviders(<DonationForm campaign={campaign(true)} />);

    expect(screen.getByRole("radio", { name: "Card" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "M-Pesa" })).toBeChecked();
  });

  it("offers M-Pesa alone where the organization set up no bank account for cards", () => {
    renderWithProviders(<DonationForm campaign={campaign(false)} />);

    expect(screen.queryByRole("radio", { name: "Card" })).not.toBeInTheDocument();
    expect(screen.queryByRole("group", { name: "Pay with" })).not.toBeInTheDocument();
  });
});
