// The project's logo and name above an auth card's title, so a person knows which app they are signing in to (as
// Stack's and Clerk's cards show the app). The dark-mode logo, when set, replaces the other one on a dark theme.
import { useProject } from "../hooks.ts";

export function ProjectBrand() {
  const { displayName, logoUrl, logoDarkModeUrl } = useProject();
  if (!displayName && !logoUrl) return null;
  // alt="": the name beside it says the same, and a screen reader should not read the project twice.
  const logo = logoUrl ? (
    logoDarkModeUrl && logoDarkModeUrl !== logoUrl ? (
      <>
        <img className="gh-logo-light" src={logoUrl} alt="" />
        <img className="gh-logo-dark" src={logoDarkModeUrl} alt="" />
      </>
    ) : (
      <img src={logoUrl} alt="" />
    )
  ) : null;
  return (
    <p className="gh-brand">
      {logo}
      {displayName}
    </p>
  );
}
