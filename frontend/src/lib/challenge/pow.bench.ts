// `make bench` (bench/run.sh): how long a browser takes to solve one challenge at the server's
// difficulty (CHALLENGE_DIFFICULTY_BITS, 12), each iteration a fresh token. Results: bench/results/challenge.json.
import { bench } from "vitest";
import { solve } from "./pow";

bench(
  "solve a 12-bit challenge (Web Crypto SHA-256)",
  async () => {
    await solve(crypto.randomUUID(), 12);
  },
  { iterations: 40, time: 0 },
);
