// A local stand-in for Cloudflare Turnstile, for the bot-protection tests: `POST /siteverify` answers Turnstile's
// siteverify protocol (`pass-*` tokens succeed, once when `remembers`; `slow-*` answer after 4 s; others fail), and
// `GET /api.js` is a widget script with Turnstile's browser API (`turnstile.render(el, {sitekey, callback})`, `reset`,
// `remove`): a checkbox "I am human" whose tick hands the page a `pass-*` token, or `window.ghNextTurnstileToken`.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Verification = { secret: string | null; response: string | null; remoteip: string | null };

const WIDGET_SCRIPT = `(() => {
  let next = 0;
  const widgets = new Map();
  window.turnstile = {
    render(element, options) {
      const id = "w" + ++next;
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.addEventListener("change", () => {
        if (!box.checked) return;
        const token = window.ghNextTurnstileToken || "pass-" + crypto.randomUUID();
        window.ghNextTurnstileToken = undefined;
        options.callback(token);
      });
      label.append(box, " I am human");
      label.dataset.sitekey = options.sitekey;
      element.append(label);
      widgets.set(id, { label, box });
      return id;
    },
    reset(id) {
      const widget = widgets.get(id);
      if (widget) widget.box.checked = false;
    },
    remove(id) {
      widgets.get(id)?.label.remove();
      widgets.delete(id);
    },
  };
})();
`;

export type TurnstilePeer = {
  server: Server;
  siteverifyUrl: string;
  scriptUrl: string;
  /** Every verification request received, in order. */
  seen: Verification[];
  close(): Promise<void>;
};

export async function startTurnstilePeer(opts: {
  secret: string;
  remembers: boolean;
}): Promise<TurnstilePeer> {
  const used = new Set<string>();
  const seen: Verification[] = [];
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/api.js") {
      res.writeHead(200, { "content-type": "text/javascript", "access-control-allow-origin": "*" });
      res.end(WIDGET_SCRIPT);
      return;
    }
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const form = new URLSearchParams(raw);
      const v = {
        secret: form.get("secret"),
        response: form.get("response"),
        remoteip: form.get("remoteip"),
      };
      seen.push(v);
      const token = v.response ?? "";
      const answer = (success: boolean, codes: string[] = []) =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ success, "error-codes": codes }));
      if (v.secret !== opts.secret) return answer(false, ["invalid-input-secret"]);
      if (token.startsWith("slow-")) return setTimeout(() => answer(true), 4000);
      if (!token.startsWith("pass-")) return answer(false, ["invalid-input-response"]);
      if (opts.remembers && used.has(token)) return answer(false, ["timeout-or-duplicate"]);
      used.add(token);
      answer(true);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    siteverifyUrl: `${origin}/siteverify`,
    scriptUrl: `${origin}/api.js`,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
