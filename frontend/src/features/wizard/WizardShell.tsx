import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, type ReactNode, useEffect, useRef } from "react";
import { AppLayout } from "@/components/AppLayout";
import { ProgressBar } from "@/components/ProgressBar";
import { type StepNumber, stepPosition } from "./steps";

export const buttonPrimary =
  "inline-flex items-center justify-center rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white " +
  "hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60";
export const buttonSecondary =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-5 py-2.5 " +
  "font-semibold text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50";
export const editLink = "text-sm font-medium text-brand-700 underline-offset-2 hover:underline";

type Props = {
  heading: ReactNode;
  /** The steps this user walks, with their titles. */
  steps: readonly StepNumber[];
  titles: Record<StepNumber, string>;
  step: StepNumber;
  onBack(): void;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  /** The last step's button ('Launch Campaign', 'Create Fundraiser'); Continue on the others. */
  finish: ReactNode;
  busy?: boolean;
  children: ReactNode;
};

/** A wizard page: side list of steps, 'Step N of M', a progress bar, the step, Back and Continue. */
export function WizardShell({
  heading,
  steps,
  titles,
  step,
  onBack,
  onSubmit,
  finish,
  busy,
  children,
}: Props) {
  const { t } = useLingui();
  const { position, total } = stepPosition(steps, step);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);

  // Keyboard and screen-reader users land on the new step's title, not on a vanished button.
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    stepHeading.current?.focus();
  });

  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:py-10">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{heading}</h1>
        <div className="mt-6 grid gap-6 md:grid-cols-[14rem_1fr]">
          <nav aria-label={t`Steps`} className="order-2 md:order-1">
            <ol className="grid grid-cols-2 gap-1 text-sm sm:grid-cols-3 md:flex md:flex-col">
              {steps.map((item, index) => {
                const current = item === step;
                const done = index < position - 1;
                return (
                  <li
                    key={item}
                    aria-current={current ? "step" : undefined}
                    className={`flex items-center gap-2 rounded-md px-3 py-2 ${
                      current ? "bg-brand-50 font-semibold text-brand-800" : "text-slate-600"
                    }`}
                  >
                    <span
                      aria-hidden="true"
                      className={`flex h-6 w-6 items-center justify-center rounded-full text-xs ${
                        current || done ? "bg-brand-700 text-white" : "bg-slate-200 text-slate-700"
                      }`}
                    >
                      {done ? "✓" : index + 1}
                    </span>
                    {titles[item]}
                  </li>
                );
              })}
            </ol>
          </nav>
          <form
            noValidate
            onSubmit={onSubmit}
            className="order-1 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 md:order-2"
          >
            <p className="text-sm font-medium text-slate-600">
              <Trans>
                Step {position} of {total}
              </Trans>
            </p>
            <div className="mt-2">
              <ProgressBar percent={(position / total) * 100} label={t`Progress`} />
            </div>
            <h2
              ref={stepHeading}
              tabIndex={-1}
              className="mt-5 text-xl font-semibold text-slate-900 outline-none"
            >
              {titles[step]}
            </h2>
            <div className="mt-4 space-y-5">{children}</div>
            <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
              <button
                type="button"
                className={buttonSecondary}
                onClick={onBack}
                disabled={position === 1 || busy}
              >
                <Trans>Back</Trans>
              </button>
              <button type="submit" className={buttonPrimary} disabled={busy}>
                {position === total ? finish : <Trans>Continue</Trans>}
              </button>
            </div>
          </form>
        </div>
      </div>
    </AppLayout>
  );
}
