// An operator's choice that outlives the page (which columns the users table shows): React state mirrored in the
// browser's localStorage under one key. A missing, unreadable or blocked store falls back to the default.
import { useState } from "react";

export function useStoredChoice<T extends object>(key: string, fallback: T): [T, (next: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = window.localStorage.getItem(key);
      // Merged over the default, so a column added after the choice was stored shows as the default says.
      return stored ? { ...fallback, ...(JSON.parse(stored) as T) } : fallback;
    } catch {
      return fallback;
    }
  });
  const choose = (next: T) => {
    setValue(next);
    try {
      window.localStorage.setItem(key, JSON.stringify(next));
    } catch {
      // Storage full or refused (private mode): the choice holds for this page only.
    }
  };
  return [value, choose];
}
