import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { renderWithProviders } from "@/test/render";
import { CampaignCard, type DashboardCampaign } from "./CampaignCard";

const campaign: DashboardCampaign = {
  id: 7,
  type: "pledging",
  title: "Church Roof",
  category: "church",
  category_label: "Church",
  status: "active",
  suspension_reason: "",
  goal: 200_000,
  pledged_total: 50_000,
  raised_total: 0,
  progress_percent: 25,
  cover_image_url: "",
  end_date: "2026-12-31",
  has_ended: false,
  like_count: null,
  organization_id: 3,
  organization_name: "St. Mark's Kiambu",
  viewer_role: "owner",
};

function renderCard(fields: Partial<DashboardCampaign>) {
  renderWithProviders(
    <CampaignCard
      campaign={{ ...campaign, ...fields }}
      supportEmail="help@harambee.example"
      onPayNow={() => {}}
    />,
  );
}

describe("CampaignCard", () => {
  afterEach(cleanup);

  it("tells the organizer why an admin suspended the campaign and whom to write to", () => {
    renderCard({ status: "suspended", suspension_reason: "Bank details unverified" });

    expect(screen.getByText("Suspended")).toBeInTheDocument();
    expect(screen.getByRole("note")).toHaveTextContent("An administrator has suspended this campaign");
    expect(screen.getByRole("note")).toHaveTextContent("Reason: Bank details unverified");
    expect(screen.getByRole("link", { name: "help@harambee.example" })).toHaveAttribute(
      "href",
      "mailto:help@harambee.example",
    );
  });

  it("marks a campaign past its end date as Ended and one closed early as Closed", () => {
    renderCard({ has_ended: true });
    expect(screen.getByText("Ended")).toBeInTheDocument();
    cleanup();

    renderCard({ status: "closed" });
    expect(screen.getByText("Closed")).toBeInTheDocument();
    expect(screen.queryByText("Active")).not.toBeInTheDocument();
  });

  it("marks a legacy fundraiser and offers its owner Pay Now while it is pending", () => {
    renderCard({ type: "fundraising", status: "pending" });

    expect(screen.getByText(/Fundraiser/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Pay Now for Church Roof" })).toBeInTheDocument();
  });

  it("says nothing of suspensions for an active campaign", () => {
    renderCard({});

    expect(screen.queryByRole("note")).not.toBeInTheDocument();
  });

  it("tells how to pledge to an active campaign from any phone", async () => {
    renderCard({});

    expect(await screen.findByText(/Dial/)).toHaveTextContent("Dial *384*4242# and enter 7");
  });

  it("gives no dial code for a campaign that takes no pledges", () => {
    renderCard({ status: "pending" });

    expect(screen.queryByText(/Dial/)).not.toBeInTheDocument();
  });

  it("leads an usher, treasurer or owner of a running campaign to its usher's desk, never a viewer", () => {
    for (const role of ["usher", "treasurer", "owner"] as const) {
      renderCard({ viewer_role: role });
      expect(screen.getByRole("link", { name: "Usher's desk for Church Roof" })).toHaveAttribute(
        "href",
        "/campaign/7/desk",
      );
      cleanup();
    }
    renderCard({ viewer_role: "viewer" });
    expect(screen.queryByRole("link", { name: /Usher's desk/ })).not.toBeInTheDocument();
    cleanup();
    renderCard({ viewer_role: "usher", has_ended: true });
    expect(screen.queryByRole("link", { name: /Usher's desk/ })).not.toBeInTheDocument();
  });
});
