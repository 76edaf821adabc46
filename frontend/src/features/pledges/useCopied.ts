import { useEffect, useRef, useState } from "react";

/**
 * Copies text to the clipboard; `copied` is true for `forMs` afterwards (the button says so).
 * `copy` answers false when the browser refused, so the caller can show the text instead.
 */
export function useCopied(forMs: number) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy(text: string): Promise<boolean> {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      return false;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), forMs);
    return true;
  }

  return { copied, copy };
}
