import type { ReactNode } from "react";
import { AppHeader } from "./AppHeader";
import { Footer } from "./Footer";

export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <AppHeader />
      {/* Bottom room so the floating feedback button never hides the last field or button. */}
      <main id="main" className="flex-1 pb-24">
        {children}
      </main>
      <Footer />
    </div>
  );
}
