import * as Dialog from "@radix-ui/react-dialog";
import { Fragment, type ReactNode, useId } from "react";
import { DialogCloseButton } from "@/components/DialogCloseButton";
import { dialogPanel } from "./styles";

type Props = {
  title: ReactNode;
  description?: ReactNode;
  /** "alertdialog" for a question that cannot be taken back. */
  role?: "dialog" | "alertdialog";
  onClose(): void;
  /** Rendered where it stands instead of in a portal at the end of the body, so that it is in the
   * server's HTML (a portal renders only in the browser, after hydrating): the pledge form. */
  inPlace?: boolean;
  children: ReactNode;
};

/** An open Radix dialog with its title, optional description and close button; Escape and the overlay close it. */
export function DialogShell({
  title,
  description,
  role = "dialog",
  onClose,
  inPlace = false,
  children,
}: Props) {
  const Portal = inPlace ? Fragment : Dialog.Portal;
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Portal>
        {/* Pointer events by class, not Radix's inline style: the CSP refuses style attributes in the
            server's HTML (inPlace). */}
        <Dialog.Overlay
          className="pointer-events-auto fixed inset-0 z-50 bg-slate-900/50"
          style={{ pointerEvents: undefined }}
        />
        <Dialog.Content
          role={role}
          // Named and described from the first render (Radix links its title and description only
          // once they have mounted, so not in the server's HTML); without a description, none.
          aria-labelledby={titleId}
          aria-describedby={description ? descriptionId : undefined}
          className={dialogPanel}
        >
          <Dialog.Title id={titleId} className="pr-10 text-lg font-semibold text-slate-900">
            {title}
          </Dialog.Title>
          {description && (
            <Dialog.Description id={descriptionId} className="mt-1 text-sm text-slate-600">
              {description}
            </Dialog.Description>
          )}
          <div className="mt-4">{children}</div>
          <DialogCloseButton />
        </Dialog.Content>
      </Portal>
    </Dialog.Root>
  );
}
