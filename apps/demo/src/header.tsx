// The demo's header: the product name (a link home), the team switcher and the user button.
import { SelectedTeamSwitcher, UserButton } from "@gatehouse/react";
import { Suspense } from "react";

export function Header() {
  return (
    <header className="demo-header">
      <a className="demo-brand" href="/">
        Acme Notes
      </a>
      <nav className="demo-nav" aria-label="Account">
        <Suspense fallback={null}>
          <SelectedTeamSwitcher />
          <UserButton />
        </Suspense>
      </nav>
    </header>
  );
}
