// Stack Auth's documented React usage (docs.stack-auth.com, @stackframe/react 2.8), copied with one change: the
// import below reads "@gatehouse/react" where the docs read "@stackframe/react". stack-compat.test.ts compiles it.
import {
  AccountSettings,
  AuthPage,
  CredentialSignIn,
  CredentialSignUp,
  type CurrentUser,
  MagicLinkSignIn,
  MessageCard,
  OAuthButton,
  OAuthButtonGroup,
  SelectedTeamSwitcher,
  SignIn,
  SignUp,
  StackClientApp,
  StackHandler,
  StackProvider,
  StackTheme,
  type Team,
  TeamSwitcher,
  UserAvatar,
  UserButton,
  useStackApp,
  useUser,
} from "@gatehouse/react";
import { Suspense } from "react";

export const stackClientApp = new StackClientApp({
  projectId: "00000000-0000-4000-8000-000000000000",
  publishableClientKey: "pck_example",
  tokenStore: "cookie",
  redirectMethod: { navigate: (to: string) => window.history.pushState(null, "", to) },
});

const theme = {
  light: { primary: "hsl(222, 80%, 50%)", background: "white" },
  dark: { primary: "hsl(222, 80%, 70%)" },
  radius: "8px",
};

export function App({ pathname }: { pathname: string }) {
  return (
    <Suspense fallback="Loading…">
      <StackProvider app={stackClientApp}>
        <StackTheme theme={theme}>
          {pathname.startsWith("/handler") ? <StackHandler fullPage location={pathname} /> : <Home />}
        </StackTheme>
      </StackProvider>
    </Suspense>
  );
}

function Home() {
  const user = useUser();
  const app = useStackApp();
  const project = app.useProject();
  if (!user) {
    return (
      <div>
        <p>{project.displayName}: you are not signed in.</p>
        <button type="button" onClick={() => app.redirectToSignIn()}>
          Sign in
        </button>
        <SignIn fullPage={false} extraInfo={<>By signing in you agree to our terms.</>} />
        <SignUp fullPage={false} />
      </div>
    );
  }
  return <Dashboard />;
}

function Dashboard() {
  const user = useUser({ or: "redirect" });
  const teams = user.useTeams();
  const channels = user.useContactChannels();
  const providers = user.useOAuthProviders();
  const keys = user.useApiKeys();
  const categories = user.useNotificationCategories();
  const isAdmin = user.usePermission("admin");
  const permissions = user.usePermissions();
  return (
    <div>
      <UserButton />
      <UserAvatar user={user} size={40} />
      <SelectedTeamSwitcher
        urlMap={(team) => `/team/${team.id}`}
        selectedTeam={user.selectedTeam ?? undefined}
      />
      <p>
        {user.displayName ?? user.primaryEmail} has {channels.length} e-mail(s), {providers.length} linked
        account(s),
        {keys.length} API key(s), {categories.length} notification categories, {permissions.length}{" "}
        permission(s)
        {isAdmin ? " and is an admin" : ""}.
      </p>
      {teams.map((team) => (
        <TeamCard key={team.id} team={team} user={user} />
      ))}
      <TeamSwitcher
        teamId={teams[0]?.id}
        onChange={async (team) => {
          await user.setSelectedTeam(team);
        }}
      />
      <button type="button" onClick={() => user.signOut()}>
        Sign out
      </button>
    </div>
  );
}

function TeamCard({ team, user }: { team: Team; user: CurrentUser }) {
  const members = team.useUsers();
  const teamKeys = team.useApiKeys();
  const canInvite = user.usePermission(team, "$invite_members");
  const same = user.useTeam(team.id);
  return (
    <section>
      <h2>{same?.displayName ?? team.displayName}</h2>
      <ul>
        {members.map((member) => (
          <li key={member.id}>{member.teamProfile.displayName ?? member.id}</li>
        ))}
      </ul>
      <p>{teamKeys.length} team API key(s)</p>
      {canInvite && (
        <button type="button" onClick={() => team.inviteUser({ email: "new@example.com" })}>
          Invite
        </button>
      )}
    </section>
  );
}

export function CustomSignInPage() {
  return (
    <div>
      <h1>My custom sign in page</h1>
      <OAuthButton provider="google" type="sign-in" />
      <OAuthButtonGroup type="sign-in" />
      <MagicLinkSignIn />
      <CredentialSignIn />
    </div>
  );
}

export function CustomSignUpPage() {
  return (
    <div>
      <AuthPage
        type="sign-up"
        fullPage={false}
        firstTab="password"
        extraInfo={<>By signing up you agree.</>}
      />
      <CredentialSignUp noPasswordRepeat />
    </div>
  );
}

export function Settings() {
  return <AccountSettings fullPage={true} />;
}

export function Notice() {
  const app = useStackApp();
  return (
    <MessageCard
      title="Check your inbox"
      fullPage
      primaryButtonText="Back home"
      primaryAction={() => app.redirectToHome()}
      secondaryButtonText="Sign out"
      secondaryAction={async () => {
        await app.redirectToSignOut();
      }}
    >
      We sent you an e-mail.
    </MessageCard>
  );
}

export function Tokens() {
  const app = useStackApp();
  const user = app.useUser();
  const token = app.useAccessToken();
  return (
    <p>
      {user?.primaryEmail}: {token ?? "no token"}
    </p>
  );
}
