import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { CheckboxField } from "./FieldControls";

describe("CheckboxField", () => {
  afterEach(cleanup);

  it("is named by its label and described by its note", async () => {
    render(<CheckboxField label="Pledge anonymously" note="Others see 'Anonymous'." />);
    const checkbox = screen.getByRole("checkbox", { name: "Pledge anonymously" });
    expect(checkbox).toHaveAccessibleDescription("Others see 'Anonymous'.");

    await userEvent.setup().click(screen.getByText("Pledge anonymously"));
    expect(checkbox).toBeChecked();
  });

  it("has no description without a note", () => {
    render(<CheckboxField label="Remind pledgers" />);
    expect(screen.getByRole("checkbox", { name: "Remind pledgers" })).not.toHaveAttribute("aria-describedby");
  });
});
