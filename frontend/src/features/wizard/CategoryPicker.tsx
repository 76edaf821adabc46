import { Trans } from "@lingui/react/macro";
import { useId } from "react";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { useCampaignCategories } from "@/features/campaigns/api";

const SKELETON_KEYS = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];

type Props = { value: string; onChange(value: string): void; error?: string };

/** The wizard's categories as toggle buttons (each once); the chosen one is pressed. */
export function CategoryPicker({ value, onChange, error }: Props) {
  const categories = useCampaignCategories();
  const errorId = useId();

  if (categories.isPending) {
    return (
      <LoadingPlaceholder className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {SKELETON_KEYS.map((key) => (
          <div key={key} className="h-12 rounded-md bg-slate-200" />
        ))}
      </LoadingPlaceholder>
    );
  }
  if (categories.isError) {
    return (
      <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
        {categories.error.message}
      </p>
    );
  }
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="mb-3 text-sm text-slate-700">
        <Trans>What are you raising funds for?</Trans>
      </legend>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {categories.data.wizard.map((category) => {
          const chosen = category.value === value;
          return (
            <button
              key={category.value}
              type="button"
              aria-pressed={chosen}
              onClick={() => onChange(category.value)}
              className={`rounded-md border px-3 py-3 text-left text-sm font-medium ${
                chosen
                  ? "border-brand-700 bg-brand-50 text-brand-800 ring-2 ring-brand-600"
                  : "border-slate-300 bg-white text-slate-800 hover:border-brand-600"
              }`}
            >
              {category.label}
            </button>
          );
        })}
      </div>
      {error && (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The label of a category value, for the review. */
export function useCategoryLabel(value: string): string {
  const categories = useCampaignCategories();
  return categories.data?.wizard.find((category) => category.value === value)?.label ?? value;
}
