import type { components } from "../api/schema";
import { solve } from "./pow";

type Challenge = components["schemas"]["ChallengeOut"];

function solveInWorker(challenge: Challenge): Promise<number> {
  if (typeof Worker === "undefined") return solve(challenge.token, challenge.difficulty);
  const worker = new Worker(new URL("./solver.worker.ts", import.meta.url), { type: "module" });
  return new Promise<number>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<number>) => resolve(event.data);
    worker.onerror = () => reject(new Error("The challenge could not be solved."));
    worker.postMessage(challenge);
  }).finally(() => worker.terminate());
}

/** A new challenge from the server, solved: the value of the `X-Challenge-Solution` header. */
export async function challengeSolution(): Promise<string> {
  const answer = await fetch("/api/challenge", { credentials: "same-origin" });
  if (!answer.ok) throw new Error(`The challenge could not be fetched (${answer.status}).`);
  const challenge = (await answer.json()) as Challenge;
  return `${challenge.token}:${await solveInWorker(challenge)}`;
}
