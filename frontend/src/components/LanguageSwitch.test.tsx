import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "@/lib/api/client";
import * as locales from "@/lib/i18n";
import { LanguageSwitch } from "./LanguageSwitch";
import { toast } from "./toast";

vi.mock("@/lib/api/client", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/api/client")>();
  return { ...actual, api: { PUT: vi.fn() } };
});
vi.mock("@/lib/i18n", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/i18n")>();
  return { ...actual, activateLocale: vi.fn(actual.activateLocale) };
});
vi.mock("./toast", () => ({ toast: vi.fn() }));

const { activateLocale, i18n } = locales;

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
    vi.clearAllMocks();
    vi.mocked(api.PUT).mockResolvedValue({
      data: { language: "sw" },
      response: new Response(null, { status: 200 }),
    } as never);
  });
  afterEach(async () => {
    cleanup();
    await activateLocale("en");
  });

  it("switches the app to Kiswahili when pressed and asks the server to remember it", async () => {
    const user = renderSwitch();
    const group = screen.getByRole("group", { name: "Language" });
    expect(screen.getByRole("button", { name: "English" })).toHaveAttribute("aria-pressed", "true");
    expect(group).toContainElement(screen.getByRole("button", { name: "Kiswahili" }));

    await user.click(screen.getByRole("button", { name: "Kiswahili" }));

    expect(await screen.findByRole("group", { name: "Lugha" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Kiswahili" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("button", { name: "English" })).toHaveAttribute("aria-pressed", "false");
    expect(document.documentElement.lang).toBe("sw");
    expect(api.PUT).toHaveBeenCalledWith("/api/auth/language", { body: { language: "sw" } });
  });

  it("does nothing when the current language is pressed", async () => {
    const user = renderSwitch();
    await user.click(screen.getByRole("button", { name: "English" }));
    expect(activateLocale).not.toHaveBeenCalled();
    expect(api.PUT).not.toHaveBeenCalled();
  });

  it("stays in English and says so when the Kiswahili catalogue cannot be loaded", async () => {
    vi.mocked(activateLocale).mockRejectedValueOnce(
      new TypeError("Failed to fetch dynamically imported module"),
    );
    const user = renderSwitch();

    await user.click(screen.getByRole("button", { name: "Kiswahili" }));

    expect(toast).toHaveBeenCalledWith({
      title: "Error",
      description: "The language could not be loaded. Check your connection and try again.",
      variant: "destructive",
    });
    expect(screen.getByRole("button", { name: "English" })).toHaveAttribute("aria-pressed", "true");
    expect(api.PUT).not.toHaveBeenCalled();
  });

  it("names each language in its own words", () => {
    renderSwitch();
    expect(screen.getAllByRole("button").map((button) => [button.textContent, button.lang])).toEqual([
      ["English", "en"],
      ["Kiswahili", "sw"],
    ]);
  });
});
