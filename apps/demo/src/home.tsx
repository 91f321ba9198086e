// The demo's public pages: the pitch on the home page, and the answer to an unknown path.
export function Home() {
  return (
    <section className="demo-hero">
      <h1>Notes your whole team can find.</h1>
      <p>
        Acme Notes keeps your team's notes in one place: write them together, find them in a second, share
        them with the people who need them.
      </p>
      <p>
        <a className="demo-cta" href="/protected">
          Open your notes
        </a>
      </p>
    </section>
  );
}

export function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <a href="/">Back to Acme Notes</a>
      </p>
    </section>
  );
}
