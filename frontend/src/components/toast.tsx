import { useLingui } from "@lingui/react/macro";
import * as RadixToast from "@radix-ui/react-toast";
import { useSyncExternalStore } from "react";

export type ToastOptions = { title: string; description?: string; variant?: "default" | "destructive" };
type ToastItem = ToastOptions & { id: number };

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

function dismiss(id: number) {
  items = items.filter((item) => item.id !== id);
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function Toaster() {
  const { t } = useLingui();
  const current = useSyncExternalStore(subscribe, () => items);
  return (
    <RadixToast.Provider swipeDirection="right" duration={5000} label={t`Notification`}>
      {current.map((item) => (
        <RadixToast.Root
          key={item.id}
          onOpenChange={(open) => !open && dismiss(item.id)}
          className={`rounded-lg border p-4 shadow-lg ${
            item.variant === "destructive"
              ? "border-red-300 bg-red-50 text-red-900"
              : "border-slate-200 bg-white text-slate-900"
          }`}
        >
          <RadixToast.Title className="font-semibold">{item.title}</RadixToast.Title>
          {item.description && (
            <RadixToast.Description className="mt-1 text-sm">{item.description}</RadixToast.Description>
          )}
          <RadixToast.Close
            className="absolute right-2 top-2 rounded px-1 text-lg leading-none"
            aria-label={t`Close`}
          >
            ×
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="fixed bottom-20 right-4 z-50 flex w-[calc(100%-2rem)] max-w-sm flex-col gap-2 [&>li]:relative" />
    </RadixToast.Provider>
  );
}
