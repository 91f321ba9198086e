// The project's name above an auth card's title, so a person knows which app they are signing in to (as Stack's and
// Clerk's cards show the app). Projects carry no logo today; when the project's config gains one it goes here.
import { useProject } from "../hooks.ts";

export function ProjectBrand() {
  const { displayName } = useProject();
  if (!displayName) return null;
  return <p className="gh-brand">{displayName}</p>;
}
