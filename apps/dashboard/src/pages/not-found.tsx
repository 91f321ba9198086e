// A dashboard path that names nothing, or a project the operator's teams do not own.
import { Link } from "../router.tsx";

export function NotFound({ what = "page" }: { what?: "page" | "project" }) {
  return (
    <div className="dash-failure">
      <h1>{what === "project" ? "Project not found" : "Page not found"}</h1>
      <p>
        {what === "project"
          ? "No project of your teams has this id."
          : "There is nothing at this address in the dashboard."}
      </p>
      <Link to="/projects">Go to your projects</Link>
    </div>
  );
}
