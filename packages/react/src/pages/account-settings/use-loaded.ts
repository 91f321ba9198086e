// A read a section shows that no shared hook covers (sessions, members, invitations, the team profile): loaded when
// the section mounts or `key` changes, reloadable after a write, and its failure as a sentence in place.
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { errorMessage } from "../../ui/use-action.ts";

export function useLoaded<T>(load: () => Promise<T>, key: string) {
  const t = useTranslation();
  const [state, setState] = useState<{ data: T | undefined; error: string | null }>({
    data: undefined,
    error: null,
  });
  // The latest load and translate function (both new each render) without making `reload` new each render.
  const latest = useRef({ load, t });
  latest.current = { load, t };
  const reload = useCallback(async () => {
    try {
      const data = await latest.current.load();
      setState({ data, error: null });
    } catch (error) {
      setState((previous) => ({ data: previous.data, error: errorMessage(error, {}, latest.current.t) }));
    }
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what is read; a new one reads again.
  useEffect(() => {
    void reload();
  }, [reload, key]);
  return { ...state, reload };
}
