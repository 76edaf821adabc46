import { screen } from "@testing-library/react";
import { HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import type { ManagedPledge } from "./managementApi";
import { RemindButton, ReminderSettingsPanel } from "./Reminders";

const pledge = (status: ManagedPledge["status"]) =>
  ({ id: 7, name: "Amina Otieno", status }) as ManagedPledge;

describe("RemindButton", () => {
  it("is offered for a pledge not yet paid in full", () => {
    renderWithProviders(<RemindButton pledge={pledge("partly_paid")} />);
    expect(screen.getByRole("button", { name: "Remind: Amina Otieno" })).toBeEnabled();
  });

  it("is left out for a paid pledge, whose status already says so", () => {
    renderWithProviders(<RemindButton pledge={pledge("confirmed")} />);
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });
});

describe("ReminderSettingsPanel", () => {
  it("says it is loading, then offers to try again when the settings cannot be fetched", async () => {
    let asked = 0;
    let fail: () => void = () => {};
    server.use(
      http.get("/api/campaigns/{campaign_id}/reminder-settings", ({ response }) => {
        asked += 1;
        // The first answer is a dropped connection, once the test has seen the loading state.
        if (asked > 1) return new Promise<never>(() => {});
        return new Promise((resolve) => {
          fail = () => resolve(response.untyped(HttpResponse.error()));
        });
      }),
    );
    const { user } = renderWithProviders(<ReminderSettingsPanel campaignId={3} />);
    await user.click(screen.getByRole("button", { name: "Reminders and new-pledge e-mails" }));

    expect(screen.getByRole("status")).toHaveTextContent("Loading...");

    await vi.waitFor(() => expect(asked).toBe(1));
    fail();
    expect(await screen.findByRole("alert")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    await vi.waitFor(() => expect(asked).toBe(2));
  });
});
