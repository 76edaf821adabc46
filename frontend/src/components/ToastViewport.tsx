import { useLingui } from "@lingui/react/macro";
import * as RadixToast from "@radix-ui/react-toast";
import { dismissToast, type ToastItem } from "./toast";

export default function ToastViewport({ items }: { items: ToastItem[] }) {
  const { t } = useLingui();
  return (
    <RadixToast.Provider swipeDirection="right" duration={5000} label={t`Notification`}>
      {items.map((item) => (
        <RadixToast.Root
          key={item.id}
          onOpenChange={(open) => !open && dismissToast(item.id)}
          className={`rounded-lg border p-4 pr-8 shadow-lg ${
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
