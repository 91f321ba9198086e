// @vitest-environment happy-dom
// The dashboard's screens in another language than English: their texts from the locale tables, their numbers and
// dates through Intl in that locale (German here, Arabic for a right-to-left one).
import { cleanup, screen } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../testing.tsx";
import { AuthSettingsPage } from "./auth-settings.tsx";
import { EmailsPage } from "./emails/index.tsx";
import { Overview } from "./overview.tsx";
import { PermissionsPage } from "./permissions.tsx";
import { ProjectsPage } from "./projects.tsx";
import { TeamsPage } from "./teams/index.tsx";
import { TeamPage } from "./teams/team-page.tsx";
import { UsersPage } from "./users/index.tsx";
import { UserPage } from "./users/user-page.tsx";
import { WebhooksPage } from "./webhooks.tsx";

const live = dashboardLiveSuite();

beforeAll(async () => {
  const app = live().project.app;
  for (let i = 0; i < 3; i++)
    await app.createUser({ primaryEmail: `u${i}@example.com`, password: "a long password" });
  await app.createTeam({ displayName: "Crew" });
});

describe("the dashboard's screens in other languages", () => {
  it("shows the overview in German, its figures and dates formatted for German", async () => {
    await renderScreen(live().app, <Overview project={live().project} />, { lang: "de" });
    expect(await screen.findByRole("heading", { name: "Neueste Registrierungen" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Anmeldemethoden" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Aktualisieren" })).toBeTruthy();
    expect(screen.getByText("Täglich aktive Benutzer")).toBeTruthy();
    // Intl in German: "28. November 2026" rather than "November 28, 2026".
    const created = live().project.createdAt;
    const german = created.toLocaleDateString("de", { dateStyle: "long" });
    expect(screen.getByText(german)).toBeTruthy();
    expect(screen.queryByText("Latest sign-ups")).toBeNull();
  });

  it("shows the teams list and the projects list in Arabic", async () => {
    await renderScreen(live().app, <TeamsPage project={live().project} />, { lang: "ar" });
    expect(await screen.findByRole("button", { name: "فريق جديد" })).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: "معرّف الفريق" })).toBeTruthy();
    expect(screen.queryByText("New team")).toBeNull();
  });

  it("shows the projects screen in Japanese", async () => {
    await renderScreen(live().app, <ProjectsPage />, { lang: "ja" });
    expect(await screen.findByRole("heading", { name: "プロジェクトを作成" })).toBeTruthy();
    expect(screen.getByLabelText("プロジェクト名")).toBeTruthy();
  });

  it("shows the users list and a user's page in French, the sign-up date through Intl in French", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />, { lang: "fr" });
    expect(await screen.findByRole("button", { name: "Nouvel utilisateur" })).toBeTruthy();
    expect(screen.getByRole("searchbox", { name: "Rechercher des utilisateurs" })).toBeTruthy();
    expect(screen.queryByText("Rows per page")).toBeNull();
    expect(await screen.findByRole("columnheader", { name: /Dernière activité/ })).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: "Méthodes de connexion" })).toBeTruthy();
    expect(screen.getAllByRole("button", { name: /^Bannir / }).length).toBeGreaterThan(0);

    const [user] = await live().project.app.listUsers({ limit: 1 });
    if (!user) throw new Error("no user");
    cleanup();
    await renderScreen(live().app, <UserPage project={live().project} userId={user.id} />, { lang: "fr" });
    expect(await screen.findByRole("region", { name: "Profil" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Enregistrer les métadonnées client" })).toBeTruthy();
    const french = new Intl.DateTimeFormat("fr", { dateStyle: "medium", timeStyle: "short" });
    // Signed up and last active: the same minute for a user created by the test.
    expect(screen.getAllByText(french.format(user.signedUpAt)).length).toBeGreaterThan(0);
    expect(screen.queryByText("Signed up")).toBeNull();
    expect(await screen.findByLabelText("Ajouter un e-mail")).toBeTruthy();
    expect(screen.getByText("Connexion par code à usage unique")).toBeTruthy();
    expect(await screen.findByText("Dans aucune équipe.")).toBeTruthy();
  });

  it("shows a team's members, permissions and invitations in German", async () => {
    const [team] = await live().project.app.listTeams();
    if (!team) throw new Error("no team");
    await renderScreen(live().app, <TeamPage project={live().project} teamId={team.id} />, { lang: "de" });
    expect(await screen.findByText("Noch keine Mitglieder.")).toBeTruthy();
    expect(
      await screen.findByText("Fügen Sie Mitglieder hinzu, um ihnen Berechtigungen zu erteilen."),
    ).toBeTruthy();
    expect(await screen.findByText("Keine offenen Einladungen.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Mitglied hinzufügen" })).toBeTruthy();
    expect(screen.queryByText("No members yet.")).toBeNull();
    // The single sign-on panels: headings, texts, labels and buttons in German too.
    expect(await screen.findByText(/^Noch kein Identitätsanbieter\./)).toBeTruthy();
    expect(screen.getByRole("region", { name: "Single Sign-On" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Verbindung hinzufügen" })).toBeTruthy();
    expect(screen.getByLabelText("Name der Verbindung")).toBeTruthy();
    expect(await screen.findByText("Noch keine Domain beansprucht.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Domain beanspruchen" })).toBeTruthy();
    expect(await screen.findByRole("button", { name: "SCIM-Token erstellen" })).toBeTruthy();
    expect(screen.queryByText("Add connection")).toBeNull();
  });

  it("shows the Authentication screen, with the project logo panel, in Korean", async () => {
    await renderScreen(live().app, <AuthSettingsPage project={live().project} />, { lang: "ko" });
    expect(await screen.findByRole("heading", { name: "로그인 방법" })).toBeTruthy();
    expect(
      screen.getByText("새 사용자가 계정을 만들 수 있습니다(직접 만든 사용자에게는 영향이 없습니다)."),
    ).toBeTruthy();
    expect(screen.getByRole("button", { name: "로그인 설정 저장" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "공급자 추가" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "프로젝트 로고" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "로고 저장" })).toBeTruthy();
    expect(screen.queryByText("Sign-in methods")).toBeNull();
  });

  it("shows the permissions, e-mail and webhook screens in Polish, Spanish and Arabic", async () => {
    await renderScreen(live().app, <PermissionsPage project={live().project} />, { lang: "pl" });
    expect(await screen.findByRole("heading", { name: "Definicje uprawnień" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Utwórz uprawnienie" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Zapisz domyślne uprawnienia" })).toBeTruthy();
    cleanup();
    await renderScreen(live().app, <EmailsPage project={live().project} />, { lang: "es" });
    expect(await screen.findByRole("tab", { name: "Plantillas" })).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "Envío" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Guardar ajustes de correo" })).toBeTruthy();
    cleanup();
    await live().project.app.createWebhookEndpoint({ url: "https://93.184.215.14/in" });
    await renderScreen(live().app, <WebhooksPage project={live().project} />, { lang: "ar" });
    expect(await screen.findByRole("button", { name: "إرسال حدث تجريبي" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "سر التوقيع" })).toBeTruthy();
    expect(screen.queryByText("Signing secret")).toBeNull();
  });
});
