import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";
import type { ManagedPledge } from "./managementApi";
import { RemindButton, ReminderSettingsPanel } from "./Reminders";

vi.mock("@/lib/api/client", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/api/client")>();
  return { ...actual, api: { GET: vi.fn(), POST: vi.fn() } };
});

function renderWithProviders(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
    </I18nProvider>,
  );
  return userEvent.setup();
}

const pledge = (status: ManagedPledge["status"]) =>
  ({ id: 7, name: "Amina Otieno", status }) as ManagedPledge;

describe("RemindButton", () => {
  afterEach(cleanup);

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
  beforeEach(() => vi.mocked(api.GET).mockReset());
  afterEach(cleanup);

  it("says it is loading, then offers to try again when the settings cannot be fetched", async () => {
    let fail: (reason: Error) => void = () => {};
    vi.mocked(api.GET).mockReturnValueOnce(
      new Promise((_resolve, reject) => {
        fail = reject;
      }) as never,
    );
    const user = renderWithProviders(<ReminderSettingsPanel campaignId={3} />);
    await user.click(screen.getByRole("button", { name: "Reminders and new-pledge e-mails" }));

    expect(screen.getByRole("status")).toHaveTextContent("Loading...");

    fail(new Error("offline"));
    expect(await screen.findByRole("alert")).toBeInTheDocument();
    vi.mocked(api.GET).mockReturnValueOnce(new Promise(() => {}) as never);
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(api.GET).toHaveBeenCalledTimes(2);
  });
});
