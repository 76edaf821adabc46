import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { ApiRequestError } from "@/lib/api/client";
import { card, useFailureToast } from "./Approvals";
import { useEmbedOriginAdd, useEmbedOriginRemove, useEmbedOrigins } from "./api";

/** The websites allowed to show the organization's campaigns in a frame (the embed the campaign's share
 * panel gives): every member sees them, owners add and remove them. */
export function EmbedOrigins({ organizationId, canManage }: { organizationId: number; canManage: boolean }) {
  const { t } = useLingui();
  const origins = useEmbedOrigins(organizationId);
  const add = useEmbedOriginAdd(organizationId);
  const remove = useEmbedOriginRemove(organizationId);
  const failed = useFailureToast();
  const [origin, setOrigin] = useState("");
  const [fieldError, setFieldError] = useState("");

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFieldError("");
    add.mutate(origin, {
      onSuccess: (added) => {
        setOrigin("");
        toast({ title: t`${added.origin} can now show your campaigns.` });
      },
      onError: (error) => {
        const message = error instanceof ApiRequestError ? error.fieldErrors.origin : undefined;
        if (message) setFieldError(message);
        else failed(error);
      },
    });
  };

  return (
    <section aria-labelledby="embed-origins" className={card}>
      <h2 id="embed-origins" className="text-lg font-semibold text-slate-900">
        <Trans>Websites that show your campaigns</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>
          Your church's website can show a campaign's progress and its pledge form (copy the code from the
          campaign's share panel). Only the websites listed here may show it.
        </Trans>
      </p>
      {origins.data && origins.data.length > 0 ? (
        <ul className="mt-3 divide-y divide-slate-200">
          {origins.data.map((registered) => (
            <li key={registered.id} className="flex items-center justify-between gap-2 py-2">
              <span className="break-all font-mono text-sm text-slate-900">{registered.origin}</span>
              {canManage && (
                <button
                  type="button"
                  className={outlineButton}
                  disabled={remove.isPending}
                  aria-label={t`Remove ${registered.origin}`}
                  onClick={() =>
                    remove.mutate(registered.id, {
                      onSuccess: () =>
                        toast({ title: t`${registered.origin} can no longer show your campaigns.` }),
                      onError: failed,
                    })
                  }
                >
                  <Trans>Remove</Trans>
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        origins.data && (
          <p className="mt-3 text-sm text-slate-700">
            <Trans>No website yet.</Trans>
          </p>
        )
      )}
      {canManage && (
        <form noValidate onSubmit={onSubmit} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
          <TextField
            className="grow"
            label={t`Website address`}
            hint={t`As https://www.yourchurch.org, without a path.`}
            type="url"
            inputMode="url"
            autoComplete="off"
            value={origin}
            onChange={(event) => setOrigin(event.target.value)}
            error={fieldError || undefined}
          />
          <button
            type="submit"
            className={`${primaryButton} sm:w-auto`}
            disabled={add.isPending || !origin.trim()}
          >
            <Trans>Add website</Trans>
          </button>
        </form>
      )}
    </section>
  );
}
