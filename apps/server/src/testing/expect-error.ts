// Assertions for error answers: a known error must carry its code in both header spellings and in the body.
import { KnownErrors } from "@gatehouse/contract";
import { expect } from "vitest";

type Code = keyof typeof KnownErrors;

export async function expectKnownError(res: Response, code: Code, details?: Record<string, unknown>) {
  const body = (await res.json()) as { code: string; message: string; error: string; details?: unknown };
  expect({ status: res.status, code: body.code }).toEqual({ status: KnownErrors[code].status, code });
  expect(res.headers.get("x-stack-known-error")).toBe(code);
  expect(res.headers.get("x-hexclave-known-error")).toBe(code);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(body.error).toBe(body.message);
  if (details !== undefined) expect(body.details).toEqual(details);
  return body;
}

export async function expectTextError(res: Response, status: number, text: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(res.headers.get("x-stack-known-error")).toBeNull();
  expect(await res.text()).toBe(text);
}

/** The JSON body of an answer that must have this status; a failure shows the body beside the status. */
export async function expectJson<T = Record<string, unknown>>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  return JSON.parse(text) as T;
}
