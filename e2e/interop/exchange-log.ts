// The log of every exchange between an SDK and the server under test: a fetch that records each request (method,
// path, headers) and its real status and body, and marks in the log, so that a failed assertion names the calls
// that failed since the mark.

export type Exchange = {
  method: string;
  /** Path and query, e.g. `/api/v1/users/me`. */
  path: string;
  /** The real status, also when the SDK asked for status masking (WIRE.md §1.8); 0 while the answer is pending. */
  status: number;
  body: string;
  requestHeaders: Record<string, string>;
};

export type Mark = {
  /** The exchanges since the mark. */
  since(): Exchange[];
  /** Every failed exchange since the mark, one per line (for assertion messages). */
  failures(): string;
  /** `METHOD /path STATUS` of every exchange since the mark (the query left out). */
  calls(): string[];
};

export type ExchangeLog = {
  /** A fetch that records the exchanges with `baseUrl` and passes every other request through. */
  fetch: typeof fetch;
  mark(): Mark;
};

export function createExchangeLog(baseUrl: string, realFetch: typeof fetch): ExchangeLog {
  const exchanges: Exchange[] = [];

  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(baseUrl)) return realFetch(request);
    const url = new URL(request.url);
    // Logged in the order the requests start; status and body are filled in when the answer arrives.
    const exchange: Exchange = {
      method: request.method,
      path: `${url.pathname}${url.search}`,
      status: 0,
      body: "",
      requestHeaders: Object.fromEntries(request.headers),
    };
    exchanges.push(exchange);
    const response = await realFetch(request);
    const masked =
      response.headers.get("x-hexclave-actual-status") ?? response.headers.get("x-stack-actual-status");
    exchange.status = masked ? Number(masked) : response.status;
    exchange.body = await response.clone().text();
    return response;
  };

  function mark(): Mark {
    const from = exchanges.length;
    const since = () => exchanges.slice(from);
    return {
      since,
      failures: () =>
        since()
          .filter((e) => e.status >= 400)
          .map((e) => `${e.method} ${e.path} → ${e.status} ${e.body.slice(0, 400)}`)
          .join("\n") || "(no failed requests)",
      calls: () => since().map((e) => `${e.method} ${e.path.split("?")[0]} ${e.status}`),
    };
  }

  return { fetch: recordingFetch, mark };
}
