import { screen, waitFor } from "@testing-library/react";
import { HttpResponse } from "msw";
import { createRef } from "react";
import { describe, expect, it, vi } from "vitest";
import type { Schemas } from "@/lib/api/client";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import FeedbackDialog from "./FeedbackDialog";

const TOO_SHORT = "Please enter a message of at least 5 characters.";

function renderDialog() {
  const onOpenChange = vi.fn();
  const { user } = renderWithProviders(
    <FeedbackDialog open onOpenChange={onOpenChange} returnFocusTo={createRef()} />,
  );
  return { onOpenChange, user };
}

/** Answers POST /api/feedback with `answer`, keeping each body sent. */
function serveFeedback(answer: () => Response) {
  const sent: Schemas["FeedbackIn"][] = [];
  server.use(
    http.post("/api/feedback", async ({ request, response }) => {
      sent.push(await request.json());
      return response.untyped(answer());
    }),
  );
  return sent;
}

describe("FeedbackDialog", () => {
  it("shows the minimum-length message for a message shorter than 5 characters", async () => {
    const { user } = renderDialog();
    await user.type(screen.getByLabelText("Message"), "Hi");
    await user.tab();
    expect(await screen.findByText(TOO_SHORT)).toBeInTheDocument();
    expect(screen.getByLabelText("Message")).toHaveAttribute("aria-invalid", "true");
  });

  it("does not count surrounding spaces: a blank message is rejected and nothing is sent", async () => {
    const { user } = renderDialog();
    await user.type(screen.getByLabelText("Message"), "       ");
    const sent = serveFeedback(() => HttpResponse.json({ id: 1 }));
    await user.click(screen.getByRole("button", { name: "Send Feedback" }));
    expect(await screen.findByText(TOO_SHORT)).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it("clears the message as soon as the text is long enough", async () => {
    const { user } = renderDialog();
    const message = screen.getByLabelText("Message");
    await user.type(message, "Good");
    await user.tab();
    expect(await screen.findByText(TOO_SHORT)).toBeInTheDocument();
    await user.type(message, "!");
    await waitFor(() => expect(screen.queryByText(TOO_SHORT)).not.toBeInTheDocument());
  });

  it("sends the trimmed message, the optional contact and the page, then closes", async () => {
    const sent = serveFeedback(() => HttpResponse.json({ id: 1 }));
    const { user, onOpenChange } = renderDialog();
    await user.type(screen.getByLabelText("Message"), "  Great platform  ");
    await user.click(screen.getByRole("button", { name: "Send Feedback" }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(sent).toEqual([{ message: "Great platform", contact: "", page: "/" }]);
  });

  it("shows the server's message when the submission fails", async () => {
    serveFeedback(() =>
      HttpResponse.json(
        { detail: "Too many requests. Please try again later.", code: "throttled", field_errors: {} },
        { status: 429 },
      ),
    );
    const { user, onOpenChange } = renderDialog();
    await user.type(screen.getByLabelText("Message"), "Great platform");
    await user.click(screen.getByRole("button", { name: "Send Feedback" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many requests. Please try again later.");
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it("falls back to 'Failed to submit feedback.' when the network fails", async () => {
    serveFeedback(() => HttpResponse.error());
    const { user } = renderDialog();
    await user.type(screen.getByLabelText("Message"), "Great platform");
    await user.click(screen.getByRole("button", { name: "Send Feedback" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to submit feedback.");
  });
});
