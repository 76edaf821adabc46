import { useRef } from "react";
import { ApiRequestError } from "@/lib/api/client";

/**
 * One idempotency key per attempt: a double tap, or a retry after the answer got lost, sends the
 * same key, so the server makes one intent. Once the server has answered, the next try is new.
 */
export function useAttemptKey() {
  const key = useRef<string | null>(null);
  return {
    take: () => {
      key.current ??= crypto.randomUUID();
      return key.current;
    },
    settle: (error?: unknown) => {
      if (error === undefined || error instanceof ApiRequestError) key.current = null;
    },
  };
}
