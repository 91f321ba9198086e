// Reading Gatehouse request headers in either spelling (x-stack-* or x-hexclave-*, WIRE.md §1.2).
import { bothSpellings, type RequestHeaderSuffix } from "@gatehouse/contract";
import { TextError } from "../text-error.ts";

export type HeaderReader = {
  get(suffix: RequestHeaderSuffix): string | undefined;
  flag(suffix: RequestHeaderSuffix): boolean;
};

export function readGatehouseHeaders(headers: Headers): HeaderReader {
  const get = (suffix: RequestHeaderSuffix) => {
    const [stack, hexclave] = bothSpellings(suffix);
    const a = headers.get(stack) ?? undefined;
    const b = headers.get(hexclave) ?? undefined;
    if (a !== undefined && b !== undefined && a !== b) {
      throw new TextError(400, `Conflicting values in headers ${stack} and ${hexclave}.`);
    }
    return a ?? b;
  };
  return { get, flag: (suffix) => get(suffix)?.toLowerCase() === "true" };
}

/** Status masking is on when the header is present with any value but `false` (WIRE.md §1.8). */
export function wantsMaskedStatus(headers: Headers): boolean {
  return bothSpellings("override-error-status").some((name) => {
    const value = headers.get(name);
    return value !== null && value.toLowerCase() !== "false";
  });
}
