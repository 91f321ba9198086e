// The two log formats as they are written: JSON lines for collectors, readable lines for a terminal (a request in
// one short line, an e-mail's link on a line of its own, control characters escaped), and the level setting.
import { describe, expect, it } from "vitest";
import { createLogger, type LoggerOptions } from "./logger.ts";

/** What a real logger writes with these options, line by line. */
function written(options: LoggerOptions, emit: (logger: ReturnType<typeof createLogger>) => void): string[] {
  let out = "";
  emit(createLogger({ colors: false, ...options, destination: { write: (text: string) => (out += text) } }));
  return out.split("\n").filter((line) => line !== "");
}

const request = (status: number) => ({ method: "GET", path: "/health", status, ms: 1.5, request_id: "r-1" });
const EMAIL = {
  to: "ann@example.com",
  subject: "Reset your password",
  template_type: "password_reset",
  link: "http://localhost:8103/handler/password-reset?code=abc123",
};

describe("the JSON format", () => {
  it("writes one object per line: level by name, ISO time, message and fields, nothing else", () => {
    const lines = written({ format: "json" }, (log) => {
      log.info("listening", { url: "http://localhost:8102", port: 8102 });
      log.warn("careful", { projects: "demo" });
    });
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      msg: "listening",
      url: "http://localhost:8102",
      port: 8102,
    });
    expect(second).toMatchObject({ level: "warn", msg: "careful", projects: "demo" });
  });

  it("keeps every request line at info, whatever its status", () => {
    const lines = written({ format: "json" }, (log) => {
      log.info("request", request(200));
      log.info("request", request(404));
    });
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { level: "info", msg: "request", status: 200, path: "/health", request_id: "r-1" },
      { level: "info", msg: "request", status: 404 },
    ]);
  });

  it("drops what is below the level", () => {
    const lines = written({ format: "json", level: "warn" }, (log) => {
      log.info("request", request(200));
      log.info("listening");
      log.warn("careful");
      log.error("failed");
    });
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["careful", "failed"]);
    expect(written({ format: "json", level: "silent" }, (log) => log.error("failed"))).toEqual([]);
  });
});

describe("the pretty format", () => {
  it("writes a request as one short line, and a successful one only at debug", () => {
    const emit = (log: ReturnType<typeof createLogger>) => {
      log.info("request", request(200));
      log.info("request", request(404));
    };
    expect(written({ format: "pretty" }, emit)).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: GET \/health 404 1\.5ms$/),
    ]);
    expect(written({ format: "pretty", level: "debug" }, emit)).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\] DEBUG: GET \/health 200 1\.5ms$/),
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: GET \/health 404 1\.5ms$/),
    ]);
  });

  it("writes the message with its fields as pairs, and an e-mail's link alone on the next line", () => {
    const lines = written({ format: "pretty" }, (log) => {
      log.info("listening", { port: 8102 });
      log.info("e-mail kept in development inbox", EMAIL);
    });
    expect(lines).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: listening port=8102$/),
      expect.stringMatching(
        /INFO: e-mail kept in development inbox to=ann@example\.com subject="Reset your password" template_type=password_reset$/,
      ),
      `    → ${EMAIL.link}`,
    ]);
  });

  it("colours the link when colours are on, and writes no colour when they are off", () => {
    const coloured = written({ format: "pretty", colors: true }, (log) => log.info("e-mail", EMAIL)).join(
      "\n",
    );
    // Bold, cyan and underlined: the link stands out from the lines around it.
    expect(coloured).toContain(`\u001b[1m\u001b[36m\u001b[4m${EMAIL.link}`);
    const plain = written({ format: "pretty" }, (log) => log.info("e-mail", EMAIL)).join("\n");
    expect(plain).not.toContain("\u001b");
  });

  it("escapes control characters from values, so a value cannot send escape sequences to the terminal", () => {
    const lines = written({ format: "pretty", colors: true }, (log) =>
      log.info("e-mail", { subject: "Hi\u001b[2J\u001b]0;owned\u0007", link: "http://x/\u001b[8m" }),
    );
    const text = lines.join("\n");
    expect(text).toContain("Hi\\u001b[2J\\u001b]0;owned\\u0007");
    expect(text).not.toContain("\u001b[2J");
    expect(text).not.toContain("\u0007");
    expect(text).not.toContain("\u001b[8m");
  });

  it("writes an error's summary, query and stack frames on lines of their own", () => {
    const error = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), { code: "ECONNREFUSED" });
    const lines = written({ format: "pretty" }, (log) =>
      log.warn("e-mail delivery failed", { attempts: 2 }, error),
    );
    expect(lines[0]).toMatch(
      /WARN: e-mail delivery failed attempts=2 error_class=Error error_code=ECONNREFUSED$/,
    );
    expect(lines[1]).toBe("    connect ECONNREFUSED 127.0.0.1:25");
    expect(lines[2]).toMatch(/^ {6}at /);
  });
});
