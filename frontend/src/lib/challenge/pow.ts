/**
 * The proof of work behind a per-address limit (backend/common/challenges.py): the first nonce for
 * which SHA-256(`token:nonce`) starts with `difficulty` zero bits. Web Crypto only, no dependency.
 */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

// Digests asked for together: Web Crypto's cost is mostly the round trip of each call, not the hash.
const BATCH = 256;

export async function solve(token: string, difficulty: number): Promise<number> {
  const encoder = new TextEncoder();
  for (let first = 0; ; first += BATCH) {
    const nonces = Array.from({ length: BATCH }, (_, index) => first + index);
    const digests = await Promise.all(
      nonces.map((nonce) => crypto.subtle.digest("SHA-256", encoder.encode(`${token}:${nonce}`))),
    );
    const found = digests.findIndex((digest) => leadingZeroBits(new Uint8Array(digest)) >= difficulty);
    if (found >= 0) return first + found;
  }
}
