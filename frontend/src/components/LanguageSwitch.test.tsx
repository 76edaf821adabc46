import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "@/lib/api/client";
import * as locales from "@/lib/i18n";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import { LanguageSwitch } from "./LanguageSwitch";
import { toast } from "./toast";

vi.mock("@/lib/i18n", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/i18n")>();
  return { ...actual, activateLocale: vi.fn(actual.activateLocale) };
});
vi.mock("./toast", () => ({ toast: vi.fn() }));

const { activateLocale } = locales;

const renderSwitch = () => renderWithProviders(<LanguageSwitch />).user;

describe("LanguageSwitch", () => {
  // The languages the server was asked to remember.
  let saved: Schemas["LanguageIn"][];
  beforeEach(() => {
    vi.clearAllMocks();
    saved = [];
    server.use(
      http.put("/api/auth/language", async ({ request, response }) => {
        const body = await request.json();
        saved.push(body);
        return response(200).json(body);
      }),
    );
  });
  afterEach(() => activateLocale("en"));

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
    expect(saved).toEqual([{ language: "sw" }]);
  });

  it("does nothing when the current language is pressed", async () => {
    const user = renderSwitch();
    await user.click(screen.getByRole("button", { name: "English" }));
    expect(activateLocale).not.toHaveBeenCalled();
    expect(saved).toEqual([]);
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
    expect(saved).toEqual([]);
  });

  it("names each language in its own words", () => {
    renderSwitch();
    expect(screen.getAllByRole("button").map((button) => [button.textContent, button.lang])).toEqual([
      ["English", "en"],
      ["Kiswahili", "sw"],
    ]);
  });
});
