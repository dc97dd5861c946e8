import i18next from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { auth } from '../api/auth.ts';

/**
 * Local drafts of long forms (the configurator, the quote lines editor; docs/web.md "Drafts"):
 * while a form differs from what it loaded, its state is kept in this browser's localStorage, per
 * user (`pqs-draft:<user id>:<name>`), so nothing is lost when the session ends or the page is
 * reloaded; the next time the same user opens the same form (after signing in again), the draft is
 * restored and the user told so, with a way to discard it. Saving clears it, as does leaving the
 * page through "Leave without saving" (ui/UnsavedChanges.tsx).
 */
const PREFIX = 'pqs-draft:';
type Stored<T> = { savedAt: number; value: T };

const storageKey = (name: string) => {
  const userId = auth.get().me?.id;
  return userId ? `${PREFIX}${userId}:${name}` : undefined;
};

function read<T>(key: string): Stored<T> | undefined {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Stored<T>) : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets a draft (after a save, or when the user discards it). */
export function clearDraft(name: string) {
  const key = storageKey(name);
  if (key) localStorage.removeItem(key);
}

/**
 * Keeps `value` as the draft `name` while it differs from `initial`; on mount, hands a stored draft
 * that differs from `initial` to `restore`. Returns when the restored draft was saved (to tell the
 * user) and `discard`, which goes back to `initial` and forgets the draft.
 */
export function useDraft<T>(name: string, value: T, initial: T, restore: (value: T) => void) {
  const [restoredAt, setRestoredAt] = useState<number>();
  const initialJson = JSON.stringify(initial);
  const restored = useRef(false);
  // Restore once, on mount.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only
  useEffect(() => {
    const key = storageKey(name);
    const draft = key ? read<T>(key) : undefined;
    if (draft && JSON.stringify(draft.value) !== initialJson) {
      restored.current = true;
      setRestoredAt(draft.savedAt);
      restore(draft.value);
    } else restored.current = true;
  }, []);
  const json = JSON.stringify(value);
  useEffect(() => {
    if (!restored.current) return;
    const key = storageKey(name);
    if (!key) return;
    if (json === initialJson) {
      localStorage.removeItem(key);
      return;
    }
    // Written at once: a session can end any second, and a reload must find the last keystroke.
    try {
      localStorage.setItem(key, JSON.stringify({ savedAt: Date.now(), value: JSON.parse(json) }));
    } catch {
      // storage full or disabled: the unsaved-changes guard still protects the form
    }
  }, [json, initialJson, name]);
  return {
    restoredAt,
    dirty: json !== initialJson,
    discard() {
      clearDraft(name);
      setRestoredAt(undefined);
      restore(JSON.parse(initialJson) as T);
    },
    clear() {
      clearDraft(name);
      setRestoredAt(undefined);
    },
  };
}

/** When a draft was kept, as the user's locale writes a date and time. */
export const draftTime = (savedAt: number) =>
  new Intl.DateTimeFormat(i18next.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(savedAt),
  );

/** The names of this user's drafts that start with `prefix` (to reopen the form a draft belongs to). */
export function draftNames(prefix: string): string[] {
  const key = storageKey(prefix);
  if (!key) return [];
  const names: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const stored = localStorage.key(i);
    if (stored?.startsWith(key)) names.push(stored.slice(key.length - prefix.length));
  }
  return names;
}
