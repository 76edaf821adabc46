export function FeedbackWidget() {
  return null;
}
