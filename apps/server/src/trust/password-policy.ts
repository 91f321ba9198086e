// Refusing breached and weak passwords (issue 21 item 3): the shipped list of the most common passwords, a Have I Been
// Pwned k-anonymity range service when the project turns it on, and an optional zxcvbn-ts strength minimum. Runs on
// sign-up, reset, set and update, after the length check and before any hashing.
import { createHash } from "node:crypto";
import { KnownErrors, type ProjectConfig } from "@gatehouse/contract";
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

export const DEFAULT_RANGE_URL = "https://api.pwnedpasswords.com/range/";
/** How many of the ranked common passwords count as breached when the range service cannot answer. */
export const OFFLINE_LIST_SIZE = 10_000;

type PolicyConfig = Pick<
  ProjectConfig,
  "password_breach_check" | "password_breach_range_url" | "password_min_strength"
>;

export type PasswordPolicyDeps = {
  /** Injected so tests can count calls; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** A range service slower than this is treated as unreachable: sign-up must not hang on a third party. */
  rangeTimeoutMs?: number;
  onRangeFailure?: (error: unknown) => void;
};

/** The upper-case hex SHA-1 of the password: the range protocol's alphabet. */
export function sha1Hex(password: string): string {
  return createHash("sha1").update(password, "utf8").digest("hex").toUpperCase();
}

/**
 * Whether the range body lists `suffix` with a count above zero. Padding entries (`Add-Padding: true`) carry a count
 * of 0 and never match a real password, so they are skipped.
 */
export function rangeListsSuffix(body: string, suffix: string): boolean {
  for (const line of body.split("\n")) {
    const [hash, count] = line.trim().split(":");
    if (hash?.toUpperCase() === suffix && Number(count) > 0) return true;
  }
  return false;
}

/**
 * The words zxcvbn should count as known: each input whole, and an e-mail address's local part and its pieces
 * (`jane.doe@example.com` gives `jane.doe`, `jane`, `doe`), since a password built from them is guessed first.
 */
export function guessableWords(inputs: string[]): string[] {
  const words = inputs.flatMap((input) => {
    const local = input.includes("@") ? input.slice(0, input.lastIndexOf("@")) : input;
    return [input, local, ...local.split(/[^\p{L}\p{N}]+/u)];
  });
  return [...new Set(words.filter((word) => word.length >= 3).map((word) => word.toLowerCase()))];
}

export function createPasswordPolicy(deps: PasswordPolicyDeps = {}) {
  const doFetch = deps.fetch ?? fetch;
  const timeoutMs = deps.rangeTimeoutMs ?? 3000;
  // Loaded and built on first use, as oidc-provider/library.ts does: the dictionaries take a moment to decompress and
  // hold a few MiB, and an idle process (or one that never takes a password) never needs them.
  let commonList: Promise<Set<string>> | undefined;
  let estimator: Promise<ZxcvbnFactory> | undefined;
  const common = () => {
    commonList ??= import("@zxcvbn-ts/language-common").then(
      ({ dictionary }) => new Set(dictionary["passwords-common"]?.slice(0, OFFLINE_LIST_SIZE) ?? []),
    );
    return commonList;
  };
  const zxcvbn = () => {
    estimator ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common")]).then(
      ([{ ZxcvbnFactory }, { dictionary, adjacencyGraphs }]) =>
        new ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs }),
    );
    return estimator;
  };

  /** `true` listed, `false` not listed, `undefined` the service could not answer. */
  async function inRange(baseUrl: string, password: string): Promise<boolean | undefined> {
    const hash = sha1Hex(password);
    // Only the first five characters of the hash leave the server (k-anonymity); padding hides the answer's size.
    const url = `${baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`}${hash.slice(0, 5)}`;
    try {
      const response = await doFetch(url, {
        headers: { "Add-Padding": "true", "User-Agent": "Gatehouse" },
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`range service answered ${response.status}`);
      return rangeListsSuffix(await response.text(), hash.slice(5));
    } catch (error) {
      deps.onRangeFailure?.(error);
      return undefined;
    }
  }

  return {
    /**
     * Throws PASSWORD_BREACHED or PASSWORD_TOO_WEAK when the project's policy refuses the password. `userInputs`
     * (the e-mail address, the display name) count against strength: a password made of them is easy to guess.
     */
    async assertAcceptable(config: PolicyConfig, password: string, userInputs: string[] = []): Promise<void> {
      // Configurations stored before the policy existed lack the keys: they get the default (the list).
      const mode = config.password_breach_check ?? "list";
      if (mode !== "off") {
        // Case-folded: "Password1" is as breached as "password1" for any guesser.
        const list = await common();
        if (list.has(password) || list.has(password.toLowerCase())) throw KnownErrors.PASSWORD_BREACHED();
        if (mode === "range") {
          const listed = await inRange(config.password_breach_range_url ?? DEFAULT_RANGE_URL, password);
          if (listed) throw KnownErrors.PASSWORD_BREACHED();
        }
      }
      const minScore = config.password_min_strength ?? null;
      if (minScore !== null && minScore > 0) {
        const { score } = (await zxcvbn()).check(password, guessableWords(userInputs));
        if (score < minScore) throw KnownErrors.PASSWORD_TOO_WEAK({ score, min_score: minScore });
      }
    },
  };
}

export type PasswordPolicy = ReturnType<typeof createPasswordPolicy>;
