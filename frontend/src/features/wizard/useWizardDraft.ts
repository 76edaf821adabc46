import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { createDraft, draftOptions, type ToolType, updateDraft } from "./api";

/**
 * The signed-in user's open draft of a wizard, kept on the server (any device resumes it), and
 * `save` for every step change: the first save creates the draft, later ones update it. Saves run
 * one after another, so a quick Continue-Continue never creates two drafts.
 */
export function useWizardDraft(toolType: ToolType) {
  const { t } = useLingui();
  const draftId = useRef<number | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());

  const draft = useQuery({
    ...draftOptions(toolType),
    // Read afresh on every visit: the draft may have moved on on another device.
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

  useEffect(() => {
    if (draft.data) draftId.current = draft.data.id;
  }, [draft.data]);

  useEffect(() => {
    if (draft.error) {
      // The wizard starts afresh; a new draft is made at the first step change.
      toast({
        title: t`Error`,
        description: errorMessage(draft.error, t`Failed to load draft`),
        variant: "destructive",
      });
    }
  }, [draft.error, t]);

  function save(stepData: Record<string, unknown>, currentStep: number): Promise<void> {
    queue.current = queue.current.then(async () => {
      const id = draftId.current;
      try {
        if (id === null) {
          const created = await createDraft({
            tool_type: toolType,
            step_data: stepData,
            current_step: currentStep,
          });
          draftId.current = created.id;
        } else {
          await updateDraft(id, { step_data: stepData, current_step: currentStep });
        }
      } catch (error) {
        const fallback = id === null ? t`Failed to save draft` : t`Failed to update draft`;
        toast({ title: t`Error`, description: errorMessage(error, fallback), variant: "destructive" });
      }
    });
    return queue.current;
  }

  return { draft, save };
}
