import { api, type Schemas, unwrap } from "@/lib/api/client";

/** Sends the feedback widget's message. */
export async function sendFeedback(body: Schemas["FeedbackIn"], fallback?: string) {
  return unwrap(await api.POST("/api/feedback", { body }), fallback);
}
