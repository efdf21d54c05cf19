import { useSyncExternalStore } from 'react';

/**
 * The bell's notifications: kept per user in localStorage (a reload keeps them), newest first, at
 * most 50. Texts are rendered from `kind` + params at display time, so they follow the language.
 * Kinds today: a code arrived (`code`); an SMS arrived on a rental with no code recognised in it
 * (`sms`, its text in `params.text`). Later: payment credited, campaign finished, reply received.
 */
export interface AppNotification {
  id: string;
  kind: 'code' | 'sms';
  at: number;
  read: boolean;
  /** Where the notification leads. */
  href: string;
  params: Record<string, string>;
}

const MAX = 50;
const KEY = 'simdock.notifications';
type Listener = () => void;

let owner: string | null = null;
let items: AppNotification[] = [];
const listeners = new Set<Listener>();

function load(user: string | null): AppNotification[] {
  if (!user) return [];
  try {
    const raw = localStorage.getItem(`${KEY}.${user}`);
    const parsed = raw ? (JSON.parse(raw) as AppNotification[]) : [];
    return Array.isArray(parsed) ? parsed.slice(0, MAX) : [];
  } catch {
    return [];
  }
}

function save() {
  if (!owner) return;
  try {
    localStorage.setItem(`${KEY}.${owner}`, JSON.stringify(items));
  } catch {
    // Not persisted.
  }
}

function set(next: AppNotification[]) {
  items = next;
  save();
  for (const fn of listeners) fn();
}

export const notifications = {
  /** The signed-in user whose list is shown (null signs out: the list empties). */
  setOwner(user: string | null) {
    if (user === owner) return;
    owner = user;
    items = load(user);
    for (const fn of listeners) fn();
  },
  add(n: Omit<AppNotification, 'id' | 'at' | 'read'> & { id?: string }): AppNotification {
    const full: AppNotification = {
      id: n.id ?? `${Date.now()}-${Math.random()}`,
      at: Date.now(),
      read: false,
      ...n,
    };
    set([full, ...items.filter((i) => i.id !== full.id)].slice(0, MAX));
    return full;
  },
  markAllRead() {
    if (items.some((i) => !i.read)) set(items.map((i) => (i.read ? i : { ...i, read: true })));
  },
  clear() {
    set([]);
  },
  get: () => items,
  subscribe(fn: Listener) {
    listeners.add(fn);
    return () => void listeners.delete(fn);
  },
};

export function useNotifications(): { items: AppNotification[]; unread: number } {
  const list = useSyncExternalStore(notifications.subscribe, notifications.get, notifications.get);
  return { items: list, unread: list.filter((i) => !i.read).length };
}
