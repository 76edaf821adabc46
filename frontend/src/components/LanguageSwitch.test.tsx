import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "@/lib/api/client";
import { activateLocale, i18n } from "@/lib/i18n";
import { LanguageSwitch } from "./LanguageSwitch";

vi.mock("@/lib/api/client", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/api/client")>();
  return { ...actual, api: { PUT: vi.fn() } };
});

function renderSwitch() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <LanguageSwitch />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return userEvent.setup();
}

describe("LanguageSwitch", () => {
  beforeEach(() => {
    vi.mocked(api.PUT).mockResolvedValue({
      data: { language: "sw" },
      response: new Response(null, { status: 200 }),
    } as never);
  });
  afterEach(async () => {
    cleanup();
    await activateLocale("en");
  });

  it("switches the app to Kiswahili and asks the server to remember it", async () => {
    const user = renderSwitch();
    const select = screen.getByLabelText("Language");
    expect(select).toHaveValue("en");

    await user.selectOptions(select, "Kiswahili");

    expect(await screen.findByLabelText("Lugha")).toHaveValue("sw");
    expect(document.documentElement.lang).toBe("sw");
    expect(api.PUT).toHaveBeenCalledWith("/api/auth/language", { body: { language: "sw" } });
  });

  it("names each language in its own words", () => {
    renderSwitch();
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual([
      "English",
      "Kiswahili",
    ]);
  });
});
