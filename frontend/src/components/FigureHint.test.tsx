import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/test/render";
import { FigureHint } from "./FigureHint";

describe("FigureHint", () => {
  it("says what the figure counts on hover and opens it on a tap", async () => {
    const { user } = renderWithProviders(
      <FigureHint figure="Not started" explanation="Pledges with nothing paid yet." />,
    );
    const button = screen.getByRole("button", { name: 'What "Not started" counts' });
    expect(button).toHaveAttribute("title", "Pledges with nothing paid yet.");
    expect(screen.getByText("Pledges with nothing paid yet.")).not.toBeVisible();

    await user.click(button);

    expect(button).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByText("Pledges with nothing paid yet.")).toBeVisible();
  });
});
