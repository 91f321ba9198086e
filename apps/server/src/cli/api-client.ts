// The CLI's HTTP client for a running server: one project, its super secret admin key (admin access also covers the
// server endpoints), JSON in and out. A known error keeps its code, so callers decide by code, not by message.
export type ApiTarget = {
  url: string;
  projectId: string;
  adminKey: string;
  /** In-process tests pass the app's own `request`; the CLI uses the global fetch. */
  fetch?: (input: string, init?: RequestInit) => Promise<Response> | Response;
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export type ApiClient = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

export function apiClient(target: ApiTarget): ApiClient {
  const base = target.url.replace(/\/+$/, "");
  const send = target.fetch ?? fetch;
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await send(`${base}/api/v1${path}`, {
      method,
      headers: {
        "x-stack-access-type": "admin",
        "x-stack-project-id": target.projectId,
        "x-stack-super-secret-admin-key": target.adminKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      const code = response.headers.get("x-stack-known-error") ?? undefined;
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {}
      throw new ApiError(
        response.status,
        code,
        `${response.status} ${code ?? ""} ${message}`.replace(/\s+/g, " "),
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/** Every page of `GET /users` (or another cursor-paginated list), one user at a time. */
export async function* allUsers(api: ApiClient, query = ""): AsyncGenerator<Record<string, unknown>> {
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    params.set("limit", "500");
    if (cursor) params.set("cursor", cursor);
    const page: { items: Record<string, unknown>[]; pagination?: { next_cursor: string | null } } = await api(
      "GET",
      `/users?${params}`,
    );
    yield* page.items;
    cursor = page.pagination?.next_cursor ?? null;
  } while (cursor);
}
