/// <reference lib="webworker" />
// Solves a challenge off the main thread, so the form stays responsive while the phone works.
import { solve } from "./pow";

self.onmessage = async (event: MessageEvent<{ token: string; difficulty: number }>) => {
  self.postMessage(await solve(event.data.token, event.data.difficulty));
};
