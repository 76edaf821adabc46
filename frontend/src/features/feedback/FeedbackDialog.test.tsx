import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRef } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";
import FeedbackDialog from "./FeedbackDialog";

vi.mock("@/lib/api/client", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/api/client")>();
  return { ...actual, api: { GET: vi.fn(), POST: vi.fn() } };
});

const TOO_SHORT = "Please enter a message of at least 5 characters.";
const ok = (data: unknown) => ({ data, response: new Response(null, { status: 200 }) });

function renderDialog() {
  const onOpenChange = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <FeedbackDialog open onOpenChange={onOpenChange} returnFocusTo={createRef()} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { onOpenChange, user: userEvent.setup() };
}

describe("FeedbackDialog", () => {
  beforeEach(() => {
    vi.mocked(api.GET).mockResolvedValue(ok({ user: null, csrf_token: "token" }) as never);
    vi.mocked(api.POST).mockReset();
  });
  // Vitest runs without globals, so Testing Library cannot clean up on its own.
  afterEach(cleanup);

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
    await user.click(screen.getByRole("button", { name: "Send Feedback" }));
    expect(await screen.findByText(TOO_SHORT)).toBeInTheDocument();
    expect(api.POST).not.toHaveBeenCalled();
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
    vi.mocked(api.POST).mockResolvedValue(ok({ id: 1 }) as never);
    const { user, onOpenChange } = renderDialog();
    await user.type(screen.getByLabelText("Message"), "  Great platform  ");
    await user.click(screen.getByRole("button", { name: "Send Feedback" }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(api.POST).toHaveBeenCalledWith("/api/feedback", {
      body: { message: "Great platform", contact: "", page: "/" },
    });
  });

  it("shows the server's message when the submission fails", async () => {
    vi.mocked(api.POST).mockResolvedValue({
      error: { detail: "Too many requests. Please try again later.", code: "throttled" },
      response: new Response(null, { status: 429 }),
    } as never);
    const { user, onOpenChange } = renderDialog();
    await user.type(screen.getByLabelText("Message"), "Great platform");
    await user.click(screen.getByRole("button", { name: "Send Feedback" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many requests. Please try again later.");
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it("falls back to 'Failed to submit feedback.' when the network fails", async () => {
    vi.mocked(api.POST).mockRejectedValue(new TypeError("Failed to fetch"));
    const { user } = renderDialog();
    await user.type(screen.getByLabelText("Message"), "Great platform");
    await user.click(screen.getByRole("button", { name: "Send Feedback" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to submit feedback.");
  });
});
