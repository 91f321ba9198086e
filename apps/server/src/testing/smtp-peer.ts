// A real SMTP peer for tests: smtp-server in the test process, every message parsed with mailparser.
import { once } from "node:events";
import type { AddressInfo, Socket } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type Received = { mail: ParsedMail; user: unknown; rcptTo: string[] };

/**
 * An SMTP server in this process. `reject` makes it refuse messages after DATA with a temporary error;
 * `dropAfterData` makes it keep the next message and cut the connection before answering, as when the sender dies
 * mid-exchange: the receiver has the mail, the sender never heard it was accepted. `holdAfterData` keeps every
 * message and never answers, so the sender can be killed in the middle of the exchange.
 */
export async function startSmtpPeer(port = 0) {
  const received: Received[] = [];
  const state = { reject: false, dropAfterData: false, holdAfterData: false };
  const sockets = new Set<Socket>();
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        if (state.reject) {
          callback(Object.assign(new Error("mailbox temporarily unavailable"), { responseCode: 451 }));
          return;
        }
        const mail = await simpleParser(Buffer.concat(chunks));
        received.push({ mail, user: session.user, rcptTo: session.envelope.rcptTo.map((r) => r.address) });
        if (state.holdAfterData) return;
        if (state.dropAfterData) {
          state.dropAfterData = false;
          for (const socket of sockets) if (socket.remotePort === session.remotePort) socket.destroy();
          return;
        }
        callback();
      });
    },
  });
  server.server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.listen(port, "127.0.0.1");
  await once(server.server, "listening");
  const address = server.server.address() as AddressInfo;
  return {
    port: address.port,
    state,
    received,
    to: (address: string) => received.filter((r) => r.rcptTo.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpPeer = Awaited<ReturnType<typeof startSmtpPeer>>;
