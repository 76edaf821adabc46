import { lazy, Suspense, useSyncExternalStore } from "react";

export type ToastOptions = { title: string; description?: string; variant?: "default" | "destructive" };
export type ToastItem = ToastOptions & { id: number };

// A tiny store so any code (hooks, mutations) can raise a toast without a context.
let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
function emit() {
  for (const listener of listeners) listener();
}

export function toast(options: ToastOptions): void {
  items = [...items, { ...options, id: nextId++ }];
  emit();
}

export function dismissToast(id: number): void {
  items = items.filter((item) => item.id !== id);
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Radix's toast code loads with the first toast, not with the page: most visits never raise one.
const ToastViewport = lazy(() => import("./ToastViewport"));

export function Toaster() {
  const current = useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
  if (current.length === 0 && nextId === 1) return null;
  return (
    <Suspense fallback={null}>
      <ToastViewport items={current} />
    </Suspense>
  );
}
