import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BADGE_FAVICON, codeAlerts, signalCode, tabBadgeCount } from './attention.ts';

const signal = (code: string) => ({
  title: (count: number) => `(${count}) New code ${code}`,
  notification: { title: `Code ${code}`, body: 'Number 1555', tag: `code-${code}` },
});

function setHidden(hidden: boolean) {
  vi.spyOn(document, 'hidden', 'get').mockReturnValue(hidden);
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  document.head.innerHTML = '<link rel="icon" type="image/svg+xml" href="/favicon.svg" />';
  document.title = 'Dashboard · SimDock';
  localStorage.clear();
  codeAlerts.reload();
});
afterEach(() => {
  setHidden(false);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const favicon = () => document.querySelector('link[rel="icon"]')!.getAttribute('href');

describe('a code arriving in a background tab', () => {
  it('badges the title and the favicon, counts the codes, and clears both when the tab is shown', () => {
    setHidden(true);
    signalCode(signal('48213'));
    expect(document.title).toBe('(1) New code 48213');
    expect(favicon()).toBe(BADGE_FAVICON);
    signalCode(signal('55120'));
    expect(document.title).toBe('(2) New code 55120');
    expect(tabBadgeCount()).toBe(2);

    setHidden(false);
    expect(document.title).toBe('Dashboard · SimDock');
    expect(favicon()).toBe('/favicon.svg');
    expect(tabBadgeCount()).toBe(0);
  });

  it('leaves a visible tab alone', () => {
    setHidden(false);
    signalCode(signal('1'));
    expect(document.title).toBe('Dashboard · SimDock');
    expect(favicon()).toBe('/favicon.svg');
  });

  it('shows a browser notification only when the user turned it on (off by default, kept)', () => {
    const shown: { title: string; body?: string }[] = [];
    class FakeNotification {
      static permission = 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, opts: { body?: string }) {
        shown.push({ title, body: opts.body });
      }
      close() {}
    }
    vi.stubGlobal('Notification', FakeNotification);
    setHidden(true);
    expect(codeAlerts.get()).toEqual({ sound: false, notification: false });
    signalCode(signal('1'));
    expect(shown).toEqual([]);

    codeAlerts.set({ notification: true });
    expect(JSON.parse(localStorage.getItem('simdock.codeAlerts')!)).toEqual({
      sound: false,
      notification: true,
    });
    codeAlerts.reload();
    signalCode(signal('2'));
    expect(shown).toEqual([{ title: 'Code 2', body: 'Number 1555' }]);
  });

  it('plays the sound only when turned on', () => {
    const started = vi.fn();
    class FakeAudio {
      currentTime = 0;
      destination = {};
      resume = () => Promise.resolve();
      createOscillator = () => ({ frequency: {}, connect: (n: unknown) => n, start: started, stop() {} });
      createGain = () => ({
        gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
        connect: (n: unknown) => n,
      });
    }
    vi.stubGlobal('AudioContext', FakeAudio);
    signalCode(signal('1'));
    expect(started).not.toHaveBeenCalled();
    codeAlerts.set({ sound: true });
    signalCode(signal('2'));
    expect(started).toHaveBeenCalledTimes(2);
  });
});
