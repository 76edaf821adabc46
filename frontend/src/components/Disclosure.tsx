import { type ReactNode, useId, useState } from "react";

/**
 * A button that shows and hides a panel (WAI-ARIA disclosure). The panel's content is rendered
 * only while open, so whatever it loads is fetched on first opening, not with the page.
 */
export function Disclosure({
  label,
  children,
}: {
  /** The button's text; it may change with the state (e.g. 'View' / 'Hide'). */
  label: (open: boolean) => ReactNode;
  children: () => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((shown) => !shown)}
        className="font-medium text-brand-700 underline-offset-2 hover:underline"
      >
        {label(open)}
      </button>
      <div id={panelId} hidden={!open}>
        {open && children()}
      </div>
    </div>
  );
}
