// The signed-in area: a visitor who is not signed in is sent to sign in (and comes back here afterwards).
import { useTeams, useUser } from "@gatehouse/react";

export function Protected() {
  const user = useUser({ or: "redirect" });
  const teams = useTeams();
  return (
    <section>
      <h1>Your notes</h1>
      <dl className="demo-facts">
        <dt>Name</dt>
        <dd>{user.displayName ?? "No name yet"}</dd>
        <dt>E-mail</dt>
        <dd>{user.primaryEmail ?? "No e-mail"}</dd>
        <dt>Selected team</dt>
        <dd>{user.selectedTeam?.displayName ?? "None"}</dd>
      </dl>
      <h2>Your teams</h2>
      {teams.length === 0 ? (
        <p className="demo-muted">You are not in a team yet.</p>
      ) : (
        <ul className="demo-teams">
          {teams.map((team) => (
            <li key={team.id}>{team.displayName}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
