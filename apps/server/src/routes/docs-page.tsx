/** @jsxRuntime automatic @jsxImportSource react */
// The API reference page (/api/v1/docs): the OpenAPI document rendered to static HTML with React on the server.
// Self-contained (no scripts, no CDN) so it works offline and under a strict content security policy.
import { renderToStaticMarkup } from "react-dom/server";
import { contentSecurityPolicy, inlineStyleSources } from "../http/html.ts";

type Json = Record<string, unknown>;
type Operation = {
  method: string;
  path: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: { name: string; in: string; required: boolean; schema: Json }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Json }> }>;
};

const anchor = (op: Operation) => `${op.method}-${op.path}`.replace(/[^a-zA-Z0-9]+/g, "-");

function operationsOf(doc: Json): Operation[] {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Omit<Operation, "method" | "path">>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
}

/** Text with `code` spans, as the contract's summaries write them. */
function Inline({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string never reorder
        i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>,
      )}
    </>
  );
}

function Schema({ schema }: { schema: Json }) {
  const { $schema: _ignored, ...rest } = schema;
  return <pre className="schema">{JSON.stringify(rest, null, 2)}</pre>;
}

function OperationSection({ op }: { op: Operation }) {
  const success = Object.entries(op.responses).find(
    ([status]) => status.startsWith("2") || status.startsWith("3"),
  );
  const body = op.requestBody?.content["application/json"]?.schema;
  return (
    <section id={anchor(op)} className="operation">
      <h3>
        <span className={`method ${op.method.toLowerCase()}`}>{op.method}</span> <code>{op.path}</code>
      </h3>
      <p>
        <Inline text={op.summary} />
      </p>
      <p className="access">{op.description}</p>
      {op.parameters.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Parameter</th>
              <th>In</th>
              <th>Required</th>
              <th>Schema</th>
            </tr>
          </thead>
          <tbody>
            {op.parameters.map((p) => (
              <tr key={`${p.in}-${p.name}`}>
                <td>
                  <code>{p.name}</code>
                </td>
                <td>{p.in}</td>
                <td>{p.required ? "yes" : "no"}</td>
                <td>
                  <code>{JSON.stringify(p.schema.enum ?? p.schema.type ?? p.schema)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {body && (
        <>
          <h4>Request body</h4>
          <Schema schema={body} />
        </>
      )}
      {success && (
        <>
          <h4>
            Response {success[0]}: <Inline text={success[1].description} />
          </h4>
          {success[1].content?.["application/json"] && (
            <Schema schema={success[1].content["application/json"].schema} />
          )}
        </>
      )}
    </section>
  );
}

function DocsPage({ doc }: { doc: Json }) {
  const info = doc.info as { title: string; description: string; version: string };
  const operations = operationsOf(doc);
  const tags = [...new Set(operations.map((op) => op.tags[0] ?? "Other"))];
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${info.title} reference`}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <nav>
          <h1>{info.title}</h1>
          <p className="version">v{info.version}</p>
          {tags.map((tag) => (
            <div key={tag}>
              <h2>{tag}</h2>
              <ul>
                {operations
                  .filter((op) => (op.tags[0] ?? "Other") === tag)
                  .map((op) => (
                    <li key={anchor(op)}>
                      <a href={`#${anchor(op)}`}>
                        <span className={`method ${op.method.toLowerCase()}`}>{op.method}</span> {op.path}
                      </a>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
        </nav>
        <main>
          <p>{info.description}</p>
          <p>
            The machine-readable document is at <a href="openapi.json">openapi.json</a>. Errors are JSON known
            errors (<code>code</code>, <code>message</code>, <code>error</code>, <code>details</code>) or
            plain text.
          </p>
          {tags.map((tag) => (
            <div key={tag}>
              <h2>{tag}</h2>
              {operations
                .filter((op) => (op.tags[0] ?? "Other") === tag)
                .map((op) => (
                  <OperationSection key={anchor(op)} op={op} />
                ))}
            </div>
          ))}
        </main>
      </body>
    </html>
  );
}

/** The page and its policy: nothing but its own inline style, no forms, no scripts, never framed. */
export function renderDocsPage(doc: Json): { html: string; csp: string } {
  const html = `<!doctype html>${renderToStaticMarkup(<DocsPage doc={doc} />)}`;
  return {
    html,
    csp: contentSecurityPolicy({ "default-src": "'none'", "style-src": inlineStyleSources(html) }),
  };
}

const STYLE = `
body { margin: 0; display: flex; font: 15px/1.5 system-ui, sans-serif; color: #1c2430; }
nav { width: 320px; flex-shrink: 0; height: 100vh; overflow-y: auto; position: sticky; top: 0;
  background: #f4f6f9; border-right: 1px solid #dde3ea; padding: 16px; box-sizing: border-box; }
nav h1 { font-size: 20px; margin: 0; } nav h2 { font-size: 13px; text-transform: uppercase; color: #5b6878; }
nav ul { list-style: none; padding: 0; margin: 0; } nav li { margin: 2px 0; font-size: 13px; }
nav a { color: inherit; text-decoration: none; word-break: break-all; } nav a:hover { text-decoration: underline; }
.version { color: #5b6878; margin: 0 0 8px; }
main { padding: 24px 40px; max-width: 980px; }
.operation { border-top: 1px solid #dde3ea; padding: 12px 0 20px; }
.operation h3 { margin: 8px 0; font-size: 17px; }
.access { color: #5b6878; font-size: 14px; }
.method { display: inline-block; min-width: 52px; text-align: center; border-radius: 4px; padding: 0 6px;
  font: 600 12px/20px ui-monospace, monospace; color: #fff; background: #5b6878; }
.method.get { background: #1f7a4d; } .method.post { background: #1d5fb8; } .method.patch { background: #a86500; }
.method.delete { background: #b3261e; } .method.put { background: #6a3fb5; }
table { border-collapse: collapse; margin: 8px 0; } th, td { border: 1px solid #dde3ea; padding: 4px 10px; text-align: left; }
.schema { background: #f4f6f9; padding: 10px; border-radius: 6px; overflow-x: auto; font-size: 13px; }
`;
