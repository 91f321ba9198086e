// @vitest-environment happy-dom
// The webhooks screen against the real server and a receiver listening in the test: an endpoint is validated and
// added, a test event is delivered (200 shown in place and in the attempts), filters are edited, the endpoint is
// disabled, its secret shown and rotated, and it is deleted after confirmation. On a server that refuses private
// addresses, the refusal of a local URL names the setting that allows them.
import { createServer, type Server } from "node:http";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDashboardLive, dashboardLiveSuite, renderScreen } from "../testing.tsx";
import { WebhooksPage } from "./webhooks.tsx";

const live = dashboardLiveSuite();
let receiver: Server;
let receiverUrl: string;
const received: { type: string; signature: string | undefined }[] = [];

beforeAll(async () => {
  // The server in this process sends with the global fetch, which happy-dom replaces with a browser's (same-origin
  // policy and all): the receiver answers its CORS preflight and allows any origin, as a public API would.
  receiver = createServer((request, response) => {
    response.setHeader("access-control-allow-origin", "*");
    response.setHeader("access-control-allow-headers", "*");
    response.setHeader("access-control-allow-methods", "POST");
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      if (request.method === "OPTIONS") return void response.writeHead(204).end();
      received.push({
        type: (JSON.parse(body) as { type: string }).type,
        signature: request.headers["svix-signature"] as string | undefined,
      });
      response.writeHead(200, { "content-type": "text/plain" }).end("thanks");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
});

describe("the webhooks screen", () => {
  it("adds an endpoint, delivers a test event, edits, disables, rotates the secret and deletes", async () => {
    const user = userEvent.setup();
    await renderScreen(live().app, <WebhooksPage project={live().project} />);
    expect(screen.getByText(/No endpoints yet/)).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    const add = await screen.findByRole("form", { name: "Add endpoint" });
    await user.type(within(add).getByLabelText("Endpoint URL"), "ftp://example.com/x");
    await user.click(within(add).getByLabelText("Only these events:"));
    await user.click(within(add).getByRole("button", { name: "Add endpoint" }));
    expect(await within(add).findByText(/Enter an absolute http:\/\/ or https:\/\/ URL/)).toBeTruthy();
    expect(within(add).getByText("Choose at least one event type, or all events.")).toBeTruthy();
    expect(document.activeElement).toBe(within(add).getByLabelText("Endpoint URL"));

    await user.clear(within(add).getByLabelText("Endpoint URL"));
    await user.type(within(add).getByLabelText("Endpoint URL"), receiverUrl);
    await user.type(within(add).getByLabelText("Description (optional)"), "Receiver");
    await user.click(within(add).getByRole("checkbox", { name: "user.created" }));
    await user.click(within(add).getByRole("button", { name: "Add endpoint" }));

    const card = await screen.findByRole("article", { name: "Endpoint Receiver" });
    expect(within(card).getByText("user.created")).toBeTruthy();
    expect(within(card).getByText("Enabled")).toBeTruthy();
    const [stored] = await live().project.app.listWebhookEndpoints();
    expect(stored).toMatchObject({ url: receiverUrl, filterTypes: ["user.created"], enabled: true });

    // Test event: delivered now, the 200 in place and in the attempts.
    await user.click(within(card).getByRole("button", { name: "Send test event" }));
    expect(await within(card).findByText(/^Test event delivered: HTTP 200, \d+ ms\.$/)).toBeTruthy();
    expect(received.map((r) => r.type)).toEqual(["webhook.test"]);
    await user.click(within(card).getByText("Recent attempts"));
    const attempts = await within(card).findByRole("table");
    const row = within(attempts).getByText("webhook.test").closest("tr") as HTMLElement;
    expect(within(row).getByText("Succeeded")).toBeTruthy();
    expect(within(row).getByText("200")).toBeTruthy();
    expect(within(row).getByText("thanks")).toBeTruthy();

    // Edit the filters: all events.
    await user.click(within(card).getByRole("button", { name: "Edit" }));
    const edit = await within(card).findByRole("form", { name: "Save endpoint" });
    await user.click(within(edit).getByLabelText("All events"));
    await user.click(within(edit).getByRole("button", { name: "Save endpoint" }));
    expect(await within(card).findByText("all events", { exact: false })).toBeTruthy();
    expect((await live().project.app.listWebhookEndpoints())[0]?.filterTypes).toBeNull();

    // Disable and enable again.
    await user.click(within(card).getByRole("button", { name: "Disable" }));
    expect(await within(card).findByText("Disabled")).toBeTruthy();
    expect((await live().project.app.listWebhookEndpoints())[0]?.enabled).toBe(false);
    await user.click(within(card).getByRole("button", { name: "Enable" }));
    expect(await within(card).findByText("Enabled")).toBeTruthy();

    // The secret: shown on request, then rotated after confirmation.
    await user.click(within(card).getByRole("button", { name: "Show secret" }));
    const first = (await within(card).findByLabelText<HTMLInputElement>("Signing secret")).value;
    expect(first).toMatch(/^whsec_/);
    expect(first).toBe(await live().project.app.getWebhookEndpointSecret(stored?.id as string));
    await user.click(within(card).getByRole("button", { name: "Rotate secret" }));
    await user.click(within(card).getByRole("button", { name: "Rotate" }));
    await waitFor(() =>
      expect(within(card).getByLabelText<HTMLInputElement>("Signing secret").value).not.toBe(first),
    );
    const second = within(card).getByLabelText<HTMLInputElement>("Signing secret").value;
    expect(second).toMatch(/^whsec_/);
    expect(second).toBe(await live().project.app.getWebhookEndpointSecret(stored?.id as string));

    // Delete, after confirming.
    await user.click(within(card).getByRole("button", { name: "Delete endpoint Receiver" }));
    await user.click(within(card).getByRole("button", { name: "Delete endpoint" }));
    expect(await screen.findByText(/No endpoints yet/)).toBeTruthy();
    expect(await live().project.app.listWebhookEndpoints()).toEqual([]);
  });
});

describe("a server that refuses private addresses", () => {
  it("says which setting allows a local webhook URL", async () => {
    const strict = await createDashboardLive({}, { webhookAllowPrivateUrls: false });
    try {
      const user = userEvent.setup();
      await renderScreen(strict.app, <WebhooksPage project={strict.project} />);
      await user.click(screen.getByRole("button", { name: "Add endpoint" }));
      const add = await screen.findByRole("form", { name: "Add endpoint" });
      await user.type(within(add).getByLabelText("Endpoint URL"), "http://localhost:4000/hooks");
      await user.click(within(add).getByRole("button", { name: "Add endpoint" }));
      const alert = await within(add).findByText(/^Webhook URL must be a public address\./);
      expect(alert.getAttribute("role")).toBe("alert");
      expect(alert.textContent).toContain("start the server with GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS=true");
      expect(await strict.project.app.listWebhookEndpoints()).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});
