import { useSyncExternalStore } from 'react';

/**
 * What a code arriving does beyond the page itself, so it is seen from another tab: while the tab is
 * hidden the title and the favicon carry a badge (cleared when the tab is shown again); a sound and a
 * browser notification, each off until the user turns it on (kept in localStorage).
 */

export interface CodeAlertPrefs {
  sound: boolean;
  notification: boolean;
}

const PREFS_KEY = 'simdock.codeAlerts';
const OFF: CodeAlertPrefs = { sound: false, notification: false };

let prefs: CodeAlertPrefs = readPrefs();
const listeners = new Set<() => void>();

function readPrefs(): CodeAlertPrefs {
  try {
    const raw = JSON.parse(localStorage.getItem(PREFS_KEY) ?? 'null') as Partial<CodeAlertPrefs> | null;
    return { sound: raw?.sound === true, notification: raw?.notification === true };
  } catch {
    return OFF;
  }
}

export const codeAlerts = {
  get: () => prefs,
  set(next: Partial<CodeAlertPrefs>) {
    prefs = { ...prefs, ...next };
    try {
      localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
    } catch {
      // Not persisted.
    }
    for (const fn of listeners) fn();
  },
  /** Reads the stored choice again (another tab, or a test that cleared the storage). */
  reload() {
    prefs = readPrefs();
    for (const fn of listeners) fn();
  },
  subscribe(fn: () => void) {
    listeners.add(fn);
    return () => void listeners.delete(fn);
  },
};

export const useCodeAlerts = () => useSyncExternalStore(codeAlerts.subscribe, codeAlerts.get, codeAlerts.get);

/** Whether this browser can show notifications at all (not on plain http, not in every browser). */
export const notificationsSupported = () => typeof window !== 'undefined' && 'Notification' in window;

/**
 * Turns the browser notification on: asks the browser's permission first (this runs from the
 * switch's click, as browsers require). Returns whether it is on.
 */
export async function enableCodeNotifications(): Promise<boolean> {
  if (!notificationsSupported()) return false;
  const permission =
    Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  const on = permission === 'granted';
  codeAlerts.set({ notification: on });
  return on;
}

// ---- the tab's badge --------------------------------------------------------------------------

/** The favicon with a red dot: the app's icon (public/favicon.svg) plus a badge, as a data URL. */
export const BADGE_FAVICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4f46e5"/><rect x="10" y="6" width="12" height="20" rx="2.5" fill="none" stroke="#fff" stroke-width="2"/><path d="M13 20h6M13 16h6M13 12h3" stroke="#fff" stroke-width="2" stroke-linecap="round"/><circle cx="25" cy="7" r="7" fill="#dc2626" stroke="#fff" stroke-width="1.5"/></svg>',
)}`;

let badge: { count: number; title: string; icon: string | null } | null = null;

function iconLink(): HTMLLinkElement | null {
  return document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
}

function clearBadge() {
  if (!badge) return;
  document.title = badge.title;
  const link = iconLink();
  if (link && badge.icon !== null) link.setAttribute('href', badge.icon);
  badge = null;
  document.removeEventListener('visibilitychange', onVisibility);
}

function onVisibility() {
  if (!document.hidden) clearBadge();
}

/**
 * While the tab is hidden: "(n) New code …" in the title and a dot on the favicon, n counting the
 * codes since the tab was left; both go back when the tab is shown. A visible tab is left alone.
 */
export function badgeTab(title: (count: number) => string): void {
  if (typeof document === 'undefined' || !document.hidden) return;
  if (!badge) {
    badge = { count: 0, title: document.title, icon: iconLink()?.getAttribute('href') ?? null };
    document.addEventListener('visibilitychange', onVisibility);
  }
  badge.count += 1;
  document.title = title(badge.count);
  iconLink()?.setAttribute('href', BADGE_FAVICON);
}

/** The number of codes the tab's badge counts now (0: no badge). */
export const tabBadgeCount = () => badge?.count ?? 0;

// ---- sound and notification -------------------------------------------------------------------

let audio: AudioContext | undefined;

/** Two short tones (made here: no sound file to load). Browsers allow it after the user's click. */
export function playCodeSound(): void {
  try {
    const Ctx =
      window.AudioContext ?? (window as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    audio ??= new Ctx();
    void audio.resume();
    const start = audio.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.15, start + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.001, start + i * 0.18 + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + i * 0.18);
      osc.stop(start + i * 0.18 + 0.17);
    }
  } catch {
    // No sound: the page and the title still show the code.
  }
}

export interface CodeSignal {
  /** The title while hidden, for the count of codes since the tab was left. */
  title: (count: number) => string;
  /** The browser notification's title and text. */
  notification: { title: string; body: string; tag: string };
}

/** A code arrived: the tab's badge (hidden tab), then the sound and the notification if turned on. */
export function signalCode(signal: CodeSignal): void {
  badgeTab(signal.title);
  const { sound, notification } = codeAlerts.get();
  if (sound) playCodeSound();
  if (
    notification &&
    typeof document !== 'undefined' &&
    document.hidden &&
    notificationsSupported() &&
    Notification.permission === 'granted'
  ) {
    try {
      const n = new Notification(signal.notification.title, {
        body: signal.notification.body,
        tag: signal.notification.tag,
      });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      // Some browsers allow notifications only from a service worker: the badge still shows.
    }
  }
}
