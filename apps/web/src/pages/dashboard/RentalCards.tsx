import type { Order } from '@simdock/contract';
import { BellRing, Hourglass } from 'lucide-react';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { errorMessage } from '../../api/client.ts';
import {
  Button,
  CopyableText,
  CopyButton,
  OrderStatusBadge,
  RelativeTime,
  Switch,
} from '../../components/index.ts';
import { Popover } from '../../components/Popover.tsx';
import { notify } from '../../components/toast.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { formatMoney, formatPhone } from '../../lib/format.ts';
import { useNow } from '../../lib/useNow.ts';
import {
  codeAlerts,
  enableCodeNotifications,
  notificationsSupported,
  useCodeAlerts,
} from '../../live/attention.ts';
import { useAnotherSmsMutation, useCancelMutation, useFinishMutation, useMyOrders } from './api.ts';
import { OrderCountry } from './OrderCountry.tsx';
import { cancelState, focusSection, MY_NUMBERS_ID, useRepeatable } from './OrderList.tsx';

/**
 * A rental pinned at the top of the Dashboard: waiting for its code, or with its code and not yet
 * finished, before it expires. A one-code rental stays after its code too, so the code shows where
 * the user was waiting for it (no jump), until Finish or the end of its time.
 */
export function isPinnedRental(order: Order, now: number): boolean {
  if (order.finished || Date.parse(order.expiresAt) <= now) return false;
  return order.status === 'WAIT_CODE' || order.status === 'SUCCESS';
}

/** The time left as m:ss (h:mm:ss from an hour), never below 0:00. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

// ---- focus after Rent -------------------------------------------------------------------------

/** The order whose card takes the focus when it appears (set by Rent). */
let pendingFocus: string | null = null;
const focusListeners = new Set<() => void>();
const setPendingFocus = (id: string | null) => {
  pendingFocus = id;
  for (const fn of focusListeners) fn();
};
const subscribeFocus = (fn: () => void) => {
  focusListeners.add(fn);
  return () => void focusListeners.delete(fn);
};

/** After Rent: the new rental's card takes the keyboard focus as soon as it is on the page. */
export function focusRentalCard(orderId: string): void {
  setPendingFocus(orderId);
}

/**
 * Where the focus goes when a card leaves (Cancel, Finish): the next pinned card, else the one
 * before, else "My numbers", where the rental now shows. Read before the card goes.
 */
function focusAfter(card: HTMLElement | null): () => void {
  const cards = [...document.querySelectorAll<HTMLElement>('[data-testid="rental-card"]')];
  const i = card ? cards.indexOf(card) : -1;
  const neighbour = i < 0 ? undefined : (cards[i + 1] ?? cards[i - 1]);
  return () => {
    if (neighbour?.isConnected) neighbour.focus();
    else focusSection(document.getElementById(MY_NUMBERS_ID));
  };
}

// ---- one rental ---------------------------------------------------------------------------------

export function RentalCard({
  order: o,
  repeatable,
  now,
}: {
  order: Order;
  repeatable: boolean;
  now: number;
}) {
  const { t } = useI18n();
  const ref = useRef<HTMLElement>(null);
  const cancel = useCancelMutation();
  const finish = useFinishMutation();
  const another = useAnotherSmsMutation();
  // "Another SMS" asked for: waiting until the next code changes what the order shows.
  const [askedFor, setAskedFor] = useState<string | null>(null);
  const shown = `${o.codeText}\u0000${o.smsText}`;
  const waitingAnother = askedFor !== null && askedFor === shown;

  const pending = useSyncExternalStore(subscribeFocus, () => pendingFocus);
  useEffect(() => {
    if (pending !== o.id) return;
    ref.current?.focus();
    setPendingFocus(null);
  }, [pending, o.id]);

  const left = Date.parse(o.expiresAt) - now;
  const hasCode = o.status === 'SUCCESS' && o.codeText !== null;
  // An SMS came but no code was recognised in it: the user reads it (and may copy it) here.
  const smsNoCode = !hasCode && Boolean(o.smsText);
  // A one-code rental is done once its code is here: no time is left to count.
  const done = hasCode && !repeatable;
  const cancelable = cancelState(o, now);

  // mutateAsync, not mutate's callbacks: the live event of the change can remove this card before
  // the answer arrives, and an unmounted card's callbacks never run (the toast with the refund).
  const onCancel = () => {
    const refocus = focusAfter(ref.current);
    cancel.mutateAsync(o.id).then(
      (cancelled) => {
        notify.success(t('dashboard.cancelled', { amount: formatMoney(cancelled.price) }));
        refocus();
      },
      (err) => notify.error(t('dashboard.cancelFailed', { msg: errorMessage(err) })),
    );
  };
  const onFinish = () => {
    const refocus = focusAfter(ref.current);
    finish.mutateAsync(o.id).then(
      () => {
        notify.success(t('dashboard.finishedToast', { phone: formatPhone(o.phoneNumber) }));
        refocus();
      },
      (err) => notify.error(t('dashboard.finishFailed', { msg: errorMessage(err) })),
    );
  };
  const onAnother = () =>
    another.mutate(o.id, {
      onSuccess: () => {
        setAskedFor(shown);
        // The button is disabled while waiting: the card keeps the focus (and reads out the wait).
        ref.current?.focus();
      },
      onError: (err) => notify.error(t('dashboard.anotherSmsFailed', { msg: errorMessage(err) })),
    });

  return (
    <article
      ref={ref}
      tabIndex={-1}
      aria-label={t('dashboard.rentalCard', { service: o.serviceName, phone: formatPhone(o.phoneNumber) })}
      data-testid="rental-card"
      data-order-id={o.id}
      className={cx(
        'flex min-w-0 flex-col gap-3 rounded-lg border-2 bg-surface p-4 shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-accent/60 focus:ring-2 focus:ring-accent/60',
        hasCode ? 'border-ok/60' : smsNoCode ? 'border-warn/60' : 'border-accent/40',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="truncate font-semibold text-fg">{o.serviceName}</h3>
          <div className="flex items-center">
            <OrderCountry country={o.country} />
            <CopyableText
              value={o.phoneNumber}
              display={formatPhone(o.phoneNumber)}
              testId="order-phone"
              className="text-[15px] text-fg"
            />
          </div>
        </div>
        <div className="flex shrink-0 flex-col items-end gap-1">
          <span data-testid="order-status">
            <OrderStatusBadge status={o.status} />
          </span>
          {done ? (
            <span className="text-xs text-muted" data-testid="rental-done">
              {t('dashboard.done')}
            </span>
          ) : (
            <span className="inline-flex items-center gap-1 text-xs text-muted">
              <Hourglass className="size-3.5" aria-hidden />
              <span className="sr-only">{t('dashboard.colTimeLeft')}: </span>
              <time
                role="timer"
                dateTime={o.expiresAt}
                data-testid="rental-countdown"
                className={cx(
                  'font-mono text-sm font-semibold tabular',
                  left < 60_000 ? 'text-bad' : 'text-fg',
                )}
              >
                {formatCountdown(left)}
              </time>
            </span>
          )}
        </div>
      </div>

      {/* The code's place is kept while waiting, so nothing moves when it arrives; read out when it does. */}
      <div
        aria-live="polite"
        className="flex min-h-20 flex-col justify-center rounded-md bg-subtle/60 px-3 py-2"
      >
        {hasCode ? (
          <>
            <span className="text-xs font-medium text-muted">{t('dashboard.colCode')}</span>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <output
                data-testid="rental-code"
                className="font-mono text-4xl font-bold tracking-[0.12em] text-ok tabular sm:text-5xl"
              >
                {o.codeText}
              </output>
              <CopyButton
                value={o.codeText ?? ''}
                label={t('dashboard.copyCode')}
                className="border border-line px-2.5 py-1.5 text-sm text-fg"
              />
            </div>
            {o.smsText ? (
              <p className="mt-1 line-clamp-2 text-xs text-muted" title={o.smsText}>
                {t('dashboard.fullSms', { text: o.smsText })}
              </p>
            ) : null}
            {waitingAnother ? (
              <p className="mt-1 text-xs font-medium text-accent-text">{t('dashboard.anotherSmsWaiting')}</p>
            ) : null}
          </>
        ) : smsNoCode ? (
          <div data-testid="rental-sms">
            <span className="text-xs font-medium text-warn">{t('dashboard.smsNoCode')}</span>
            <p className="mt-1 text-sm whitespace-pre-wrap break-words text-fg">{o.smsText}</p>
            <CopyButton
              value={o.smsText ?? ''}
              label={t('dashboard.copySms')}
              className="mt-2 border border-line px-2.5 py-1.5 text-sm text-fg"
            />
          </div>
        ) : (
          <span className="inline-flex items-center gap-2 text-sm text-muted">
            {/* Not animate-pulse: that marks a skeleton still loading (e2e settle waits for it to go). */}
            <span className="relative flex size-2" aria-hidden>
              <span className="absolute inline-flex size-full rounded-full bg-accent opacity-60 motion-safe:animate-ping" />
              <span className="relative inline-flex size-2 rounded-full bg-accent" />
            </span>
            {t('dashboard.waitingCode')}
          </span>
        )}
      </div>

      <div className="flex flex-wrap items-center justify-end gap-2">
        {cancelable !== 'hidden' ? (
          <>
            {cancelable === 'wait' ? (
              <RelativeTime value={o.cancelableAt} className="mr-auto text-xs text-muted">
                {(time) => t('dashboard.cancelAvailable', { time })}
              </RelativeTime>
            ) : null}
            <Button
              size="sm"
              variant="secondary"
              busy={cancel.isPending}
              busyLabel={t('dashboard.cancelling')}
              disabled={cancelable === 'wait'}
              onClick={onCancel}
            >
              {t('dashboard.cancel')}
            </Button>
          </>
        ) : null}
        {hasCode && repeatable ? (
          <Button
            size="sm"
            variant="secondary"
            busy={another.isPending}
            busyLabel={t('dashboard.anotherSmsBusy')}
            disabled={waitingAnother}
            onClick={onAnother}
          >
            {t('dashboard.anotherSms')}
          </Button>
        ) : null}
        {hasCode ? (
          <Button
            size="sm"
            variant="primary"
            busy={finish.isPending}
            busyLabel={t('dashboard.finishing')}
            onClick={onFinish}
          >
            {t('dashboard.finish')}
          </Button>
        ) : null}
      </div>
    </article>
  );
}

// ---- code alerts ----------------------------------------------------------------------------------

/** The switches for the sound and the browser notification on a code (both off until turned on). */
export function CodeAlertsControl() {
  const { t } = useI18n();
  const prefs = useCodeAlerts();
  const [note, setNote] = useState<string | null>(null);
  const supported = notificationsSupported();
  const onNotification = async (on: boolean) => {
    setNote(null);
    if (!on) return codeAlerts.set({ notification: false });
    if (!(await enableCodeNotifications())) setNote(t('dashboard.alertsDenied'));
  };
  const anyOn = prefs.sound || prefs.notification;
  return (
    <Popover
      label={t('dashboard.alerts')}
      buttonClassName={cx(
        'inline-flex items-center gap-1.5 rounded-md border px-2.5 py-1.5 text-xs font-medium hover:bg-subtle',
        anyOn ? 'border-accent/40 text-accent-text' : 'border-line text-muted',
      )}
      button={
        <>
          <BellRing className="size-3.5" aria-hidden />
          <span className="hidden sm:inline">{t('dashboard.alerts')}</span>
        </>
      }
      panelClassName="w-80 p-3"
    >
      {() => (
        <div className="flex flex-col gap-2" data-testid="code-alerts">
          <p className="text-[13px] font-semibold">{t('dashboard.alerts')}</p>
          <p className="text-xs text-muted">{t('dashboard.alertsText')}</p>
          <Switch
            label={t('dashboard.alertsSound')}
            checked={prefs.sound}
            onCheckedChange={(on) => codeAlerts.set({ sound: on })}
          />
          <Switch
            label={t('dashboard.alertsNotification')}
            hint={supported ? undefined : t('dashboard.alertsUnsupported')}
            disabled={!supported}
            checked={prefs.notification}
            onCheckedChange={(on) => void onNotification(on)}
          />
          {note ? (
            <p role="alert" className="text-xs text-bad">
              {note}
            </p>
          ) : null}
        </div>
      )}
    </Popover>
  );
}

// ---- the pinned list ------------------------------------------------------------------------------

/** The active rentals, pinned at the top of the Dashboard, newest first. */
export function PinnedRentals() {
  const { t } = useI18n();
  const orders = useMyOrders();
  const now = useNow();
  const repeatable = useRepeatable();
  const pinned = (orders.data ?? []).filter((o) => isPinnedRental(o, now));
  if (pinned.length === 0) return null;
  return (
    <section
      aria-labelledby="pinned-rentals-title"
      data-testid="pinned-rentals"
      className="flex flex-col gap-2"
    >
      <div>
        <h2 id="pinned-rentals-title" className="font-semibold text-fg">
          {t('dashboard.pinnedTitle')}
        </h2>
        <p className="text-[13px] text-muted">{t('dashboard.activeText')}</p>
      </div>
      <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
        {pinned.map((o) => (
          <li key={o.id} className="min-w-0">
            <RentalCard order={o} repeatable={repeatable(o.serviceCode)} now={now} />
          </li>
        ))}
      </ul>
    </section>
  );
}
