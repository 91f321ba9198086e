// The Gatehouse dashboard: an app of the internal project, served by the server under /dashboard (see app.tsx for
// what each path shows).
import { StackProvider } from "@gatehouse/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "./dashboard.css";
import "./dashboard-parts.css";
import "./dashboard-users.css";
import "./dashboard-narrow.css";
import { DashboardApp } from "./app.tsx";
import { readAgainOnReturn } from "./data.ts";
import { stackApp } from "./stack.ts";

readAgainOnReturn();
const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element.");
createRoot(root).render(
  <StrictMode>
    <StackProvider app={stackApp}>
      <DashboardApp />
    </StackProvider>
  </StrictMode>,
);
