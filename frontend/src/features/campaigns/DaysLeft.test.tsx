import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18nActivate } from "@/lib/i18n";
import { renderWithProviders } from "@/test/render";
import { DaysLeft } from "./DaysLeft";

/** What DaysLeft says for `days`. */
function said(days: number): string | null {
  const { container, unmount } = renderWithProviders(<DaysLeft days={days} />);
  const text = container.textContent;
  unmount();
  return text;
}

describe("DaysLeft", () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    await i18nActivate("en");
  });

  // First: Lingui keeps the Intl objects it has built, and a test after one that had built them would pass.
  it("builds no Intl object: the pages that show it are hydrated, and a phone's first one is slow", () => {
    const numberFormat = vi.spyOn(Intl, "NumberFormat");
    const pluralRules = vi.spyOn(Intl, "PluralRules");
    renderWithProviders(<DaysLeft days={35} />);
    expect(screen.getByText("35 days left")).toBeInTheDocument();
    expect(numberFormat).not.toHaveBeenCalled();
    expect(pluralRules).not.toHaveBeenCalled();
  });

  it("says one day in the singular and any other count in the plural, its thousands grouped", () => {
    expect([1, 0, 35, 1200].map(said)).toEqual([
      "1 day left",
      "0 days left",
      "35 days left",
      "1,200 days left",
    ]);
  });

  it("says it in Kiswahili", async () => {
    await i18nActivate("sw");
    expect([1, 35].map(said)).toEqual(["Imebaki siku 1", "Zimebaki siku 35"]);
  });
});
