import { type Gateway, SIM_LOCK_REASON_MAX, SIM_ROLES, type Sim, type SimRole } from '@simdock/contract';
import { Lock, LockOpen, MessageSquareText, PencilLine, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { CopyableText } from '../../components/CopyButton.tsx';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input, Select, Textarea } from '../../components/Input.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { RowActions } from '../../components/RowActions.tsx';
import { EmptyState } from '../../components/StateViews.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { notify } from '../../components/toast.tsx';
import { type MessageKey, useI18n } from '../../i18n/index.tsx';
import { formatDateTime, formatRelative } from '../../lib/format.ts';
import {
  useGatewayReport,
  useLockSimMutation,
  useSetSimNumberMutation,
  useSetSimRoleMutation,
  useSimulateSmsMutation,
  useUnlockSimMutation,
} from './api.ts';
import { parseSimNumber } from './forms.ts';

export interface SimPanelProps {
  gateway: Gateway;
  /** The panel's id, for the SIMs button's aria-controls. */
  id: string;
  onClose: () => void;
}

/**
 * The SIM table of one gateway, under the gateway list: what the last scan (or status push) found,
 * with a number per SIM that the admin can set, and a control to simulate an incoming SMS.
 */
export function SimPanel({ gateway, id, onClose }: SimPanelProps) {
  const { t } = useI18n();
  const report = useGatewayReport(gateway.id);
  const [setting, setSetting] = useState<Sim>();
  const [simulating, setSimulating] = useState<Sim>();
  const [locking, setLocking] = useState<{ sim: Sim; unlock: boolean }>();
  const roleMutation = useSetSimRoleMutation();
  const now = Date.now();
  const heading = useRef<HTMLHeadingElement>(null);

  // Opening the panel (or switching gateway) brings it into view and moves focus to its title.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when another gateway is shown
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [gateway.id]);

  const sims = report.data?.sims;
  const usable = sims?.filter((s) => s.usable).length ?? 0;
  const locked = sims?.filter((s) => s.lock.locked).length ?? 0;

  const columns: Column<Sim>[] = [
    {
      key: 'port',
      header: t('gateways.colPort'),
      cell: (s) => <span className="font-mono tabular">{s.port}</span>,
      className: 'whitespace-nowrap',
    },
    {
      key: 'iccid',
      header: t('gateways.colIccid'),
      cell: (s) => <span className="font-mono text-xs text-muted">{s.iccid ?? '-'}</span>,
      className: 'whitespace-nowrap',
    },
    {
      key: 'number',
      header: t('gateways.colNumber'),
      cell: (s) => (
        <span className="flex flex-col items-start">
          {s.number ? <CopyableText value={s.number} /> : <span className="text-muted">-</span>}
          {s.numberSource ? (
            <span className="text-xs text-muted">
              {s.numberSource === 'manual' ? t('gateways.sourceManual') : t('gateways.sourceDevice')}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'operator',
      header: t('gateways.colOperator'),
      cell: (s) => s.operator ?? '-',
      className: 'whitespace-nowrap',
    },
    {
      key: 'signal',
      header: t('gateways.colSignal'),
      cell: (s) => <span className="tabular">{s.signal ?? '-'}</span>,
      align: 'right',
    },
    {
      key: 'state',
      header: t('gateways.colState'),
      cell: (s) => (
        <span className="flex flex-col items-start gap-1">
          <span className="whitespace-nowrap">{s.stateText}</span>
          <StatusBadge tone={s.usable ? 'green' : 'grey'}>
            {s.usable ? t('gateways.usable') : t('gateways.notUsable')}
          </StatusBadge>
          {s.lock.locked ? <LockBadge sim={s} now={now} /> : null}
          {s.state === 0 && !s.lock.locked ? null : (
            <Button
              size="sm"
              variant="ghost"
              className="-ml-2"
              icon={
                s.lock.locked ? (
                  <LockOpen className="size-4" aria-hidden />
                ) : (
                  <Lock className="size-4" aria-hidden />
                )
              }
              aria-label={t(s.lock.locked ? 'gateways.unlockFor' : 'gateways.lockFor', { port: s.port })}
              onClick={() => setLocking({ sim: s, unlock: s.lock.locked })}
            >
              {s.lock.locked ? t('gateways.unlock') : t('gateways.lock')}
            </Button>
          )}
        </span>
      ),
    },
    {
      key: 'health',
      header: t('gateways.colHealth'),
      cell: (s) => <HealthFigures sim={s} now={now} />,
    },
    {
      key: 'role',
      header: t('gateways.colRole'),
      cell: (s) => (
        <Select
          className="w-36"
          aria-label={t('gateways.roleFor', { port: s.port })}
          value={s.role}
          disabled={roleMutation.isPending}
          onChange={(e) =>
            roleMutation.mutate(
              { gatewayId: gateway.id, port: s.port, role: e.target.value as SimRole },
              {
                onSuccess: (res) => notify.success(res.msg),
                onError: (err) => notify.error(t('gateways.roleFailed'), errorMessage(err)),
              },
            )
          }
        >
          {SIM_ROLES.map((r) => (
            <option key={r} value={r}>
              {t(ROLE_TEXT[r])}
            </option>
          ))}
        </Select>
      ),
    },
    {
      key: 'actions',
      // The relative box keeps the visually hidden header inside the table's scroll area.
      header: (
        <span className="relative">
          <span className="sr-only">{t('gateways.colActions')}</span>
        </span>
      ),
      cell: (s) => (
        <RowActions
          name={`${t('gateways.colPort')} ${s.port}`}
          className="flex-nowrap"
          actions={[
            {
              key: 'number',
              label: t('gateways.setNumber'),
              icon: <PencilLine className="size-4" aria-hidden />,
              disabled: s.state === 0,
              onSelect: () => setSetting(s),
            },
            {
              key: 'sms',
              label: t('gateways.simulateSms'),
              icon: <MessageSquareText className="size-4" aria-hidden />,
              onSelect: () => setSimulating(s),
            },
          ]}
        />
      ),
      align: 'right',
      className: 'whitespace-nowrap',
    },
  ];

  return (
    <section id={id} aria-labelledby={`${id}-title`} className="mt-5 scroll-mt-4">
      <Card flush>
        <div className="flex items-start justify-between gap-3 border-b border-line px-4 py-3">
          <div className="min-w-0">
            <h2
              id={`${id}-title`}
              ref={heading}
              tabIndex={-1}
              className="rounded text-[15px] font-semibold text-fg focus:outline-none focus-visible:ring-2 focus-visible:ring-accent/50"
            >
              {t('gateways.simsTitle', { name: gateway.name })}
            </h2>
            <p className="mt-0.5 text-[13px] text-muted">
              {t('gateways.simsText')}
              {sims && sims.length > 0 ? ` ${t('gateways.simsCount', { count: sims.length, usable })}` : null}
              {locked > 0 ? ` · ${t('gateways.simsLocked', { locked })}` : null}
            </p>
          </div>
          <Button
            size="sm"
            variant="ghost"
            className="shrink-0"
            icon={<X className="size-4" aria-hidden />}
            onClick={onClose}
            aria-label={t('gateways.simsClose')}
          />
        </div>
        {sims && sims.length === 0 ? (
          <EmptyState title={t('gateways.simsEmpty')} />
        ) : (
          <DataTable
            phoneCards
            columns={columns}
            rows={sims}
            rowKey={(s) => s.port}
            loading={report.isPending}
            error={report.isError && !sims ? report.error : undefined}
            errorTitle={t('gateways.simsFailed')}
            onRetry={() => report.refetch()}
            caption={t('gateways.simsCaption', { name: gateway.name })}
            skeletonRows={4}
          />
        )}
      </Card>

      {setting ? (
        <SetNumberModal
          gatewayId={gateway.id}
          sim={setting}
          onClose={() => setSetting(undefined)}
          onDone={(text, ok) => {
            setSetting(undefined);
            // A toast: seen where the admin acted, however far down the SIM list.
            if (ok) notify.success(text);
            else notify.info(text);
          }}
        />
      ) : null}
      {locking ? (
        <LockSimModal
          gatewayId={gateway.id}
          sim={locking.sim}
          unlock={locking.unlock}
          onClose={() => setLocking(undefined)}
          onDone={(text) => {
            setLocking(undefined);
            notify.success(text);
          }}
        />
      ) : null}
      {simulating ? (
        <SimulateSmsModal
          gatewayId={gateway.id}
          sim={simulating}
          onClose={() => setSimulating(undefined)}
          onDone={(text) => {
            setSimulating(undefined);
            notify.success(text);
          }}
        />
      ) : null}
    </section>
  );
}

const ROLE_TEXT: Record<SimRole, MessageKey> = {
  both: 'gateways.roleBoth',
  rental: 'gateways.roleRental',
  messaging: 'gateways.roleMessaging',
};

/** "Locked" with why and for how long: minutes left, until unlocked, or until the device recovers. */
function LockBadge({ sim, now }: { sim: Sim; now: number }) {
  const { t } = useI18n();
  const { lock } = sim;
  const kind =
    lock.kind === 'auto'
      ? t('gateways.lockKindAuto')
      : lock.kind === 'device'
        ? t('gateways.lockKindDevice')
        : t('gateways.lockKindManual', { by: lock.by ?? '?' });
  let left: string;
  if (lock.until) {
    const minutes = Math.max(1, Math.ceil((new Date(lock.until).getTime() - now) / 60_000));
    left =
      minutes < 60
        ? t('gateways.lockLeftMinutes', { minutes })
        : t('gateways.lockLeftHours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
  } else {
    left = lock.kind === 'device' ? t('gateways.lockUntilRecovers') : t('gateways.lockUntilUnlocked');
  }
  return (
    <span className="flex max-w-56 flex-col items-start gap-0.5" data-testid="sim-lock">
      <StatusBadge tone="red" title={lock.until ? formatDateTime(lock.until) : undefined}>
        {t('gateways.locked')} · {kind}
      </StatusBadge>
      {lock.reason ? <span className="text-xs text-fg">{lock.reason}</span> : null}
      <span className="text-xs text-muted">{left}</span>
    </span>
  );
}

/** The SIM's figures: sent today and this month (UTC), failures, received, rentals, last success. */
function HealthFigures({ sim, now }: { sim: Sim; now: number }) {
  const { t } = useI18n();
  const h = sim.health;
  return (
    <span className="flex min-w-48 flex-col items-start gap-0.5 text-xs tabular" data-testid="sim-health">
      <span>{t('gateways.healthSent', { today: h.sentToday, month: h.sentThisMonth })}</span>
      <span className={h.consecutiveFailures > 0 ? 'text-bad' : undefined}>
        {t('gateways.healthFailed', { failed: h.failed, inRow: h.consecutiveFailures })}
      </span>
      <span>{t('gateways.healthReceived', { received: h.received, rentals: h.rentalsToday })}</span>
      <span className="text-muted" title={h.lastSuccess ? formatDateTime(h.lastSuccess) : undefined}>
        {h.lastSuccess
          ? t('gateways.healthLastSuccess', { time: formatRelative(h.lastSuccess, now, t) })
          : t('gateways.healthNever')}
      </span>
      {h.atCap ? (
        <StatusBadge tone="yellow">
          {h.atCap === 'day' ? t('gateways.atCapDay') : t('gateways.atCapMonth')}
        </StatusBadge>
      ) : null}
    </span>
  );
}

/** Durations offered for a manual lock; '' = until unlocked. */
const LOCK_DURATIONS: { minutes: string; label: MessageKey }[] = [
  { minutes: '', label: 'gateways.lockForever' },
  { minutes: '15', label: 'gateways.lock15m' },
  { minutes: '60', label: 'gateways.lock1h' },
  { minutes: '1440', label: 'gateways.lock24h' },
  { minutes: '10080', label: 'gateways.lock7d' },
];

/** Lock (with a reason and a duration) or unlock (with a reason) one SIM; both are audited. */
function LockSimModal({
  gatewayId,
  sim,
  unlock,
  onClose,
  onDone,
}: {
  gatewayId: string;
  sim: Sim;
  unlock: boolean;
  onClose: () => void;
  onDone: (msg: string) => void;
}) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const [minutes, setMinutes] = useState('');
  const [tried, setTried] = useState(false);
  const lockMutation = useLockSimMutation();
  const unlockMutation = useUnlockSimMutation();
  const mutation = unlock ? unlockMutation : lockMutation;
  const reasonBad = reason.trim() === '' || reason.length > SIM_LOCK_REASON_MAX;

  const submit = () => {
    setTried(true);
    if (reasonBad || mutation.isPending) return;
    const done = { onSuccess: (res: { msg: string }) => onDone(res.msg) };
    if (unlock) unlockMutation.mutate({ gatewayId, port: sim.port, reason: reason.trim() }, done);
    else
      lockMutation.mutate(
        {
          gatewayId,
          port: sim.port,
          reason: reason.trim(),
          ...(minutes ? { minutes: Number(minutes) } : {}),
        },
        done,
      );
  };

  return (
    <Modal
      open
      title={t(unlock ? 'gateways.unlockFor' : 'gateways.lockFor', { port: sim.port })}
      onClose={onClose}
      busy={mutation.isPending}
      size="sm"
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose} disabled={mutation.isPending}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            busy={mutation.isPending}
            busyLabel={t(unlock ? 'gateways.unlocking' : 'gateways.locking')}
          >
            {t(unlock ? 'gateways.unlock' : 'gateways.lock')}
          </Button>
        </>
      }
    >
      <p className="mb-3 text-[13px] text-muted">{t(unlock ? 'gateways.unlockText' : 'gateways.lockText')}</p>
      <div className="flex flex-col gap-4">
        <FormField
          label={t('gateways.lockReason')}
          hint={t('gateways.lockReasonHint')}
          error={tried && reasonBad ? t('gateways.lockReasonRequired') : undefined}
        >
          <Input
            name="reason"
            autoComplete="off"
            maxLength={SIM_LOCK_REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </FormField>
        {unlock ? null : (
          <FormField label={t('gateways.lockDuration')}>
            <Select name="minutes" value={minutes} onChange={(e) => setMinutes(e.target.value)}>
              {LOCK_DURATIONS.map((d) => (
                <option key={d.minutes} value={d.minutes}>
                  {t(d.label)}
                </option>
              ))}
            </Select>
          </FormField>
        )}
      </div>
      {mutation.isError ? (
        <Notice
          tone="error"
          title={t(unlock ? 'gateways.unlockFailed' : 'gateways.lockFailed')}
          className="mt-3"
        >
          {errorMessage(mutation.error)}
        </Notice>
      ) : null}
    </Modal>
  );
}

function SetNumberModal({
  gatewayId,
  sim,
  onClose,
  onDone,
}: {
  gatewayId: string;
  sim: Sim;
  onClose: () => void;
  /** The server's message; `deviceUpdated` false means only the platform kept the number. */
  onDone: (msg: string, deviceUpdated: boolean) => void;
}) {
  const { t } = useI18n();
  const [value, setValue] = useState(sim.number ?? '');
  const [tried, setTried] = useState(false);
  const mutation = useSetSimNumberMutation();
  const number = parseSimNumber(value);
  const showError = tried && number === undefined;

  const submit = () => {
    setTried(true);
    if (number === undefined || mutation.isPending) return;
    mutation.mutate(
      { gatewayId, port: sim.port, number },
      { onSuccess: (res) => onDone(res.msg, res.deviceUpdated) },
    );
  };

  return (
    <Modal
      open
      title={t('gateways.setNumberFor', { port: sim.port })}
      onClose={onClose}
      busy={mutation.isPending}
      size="sm"
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose} disabled={mutation.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="primary" busy={mutation.isPending} busyLabel={t('common.saving')}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      <p className="mb-3 text-[13px] text-muted">{t('gateways.setNumberText')}</p>
      <FormField
        label={t('gateways.number')}
        hint={t('gateways.numberHint')}
        error={showError ? t('gateways.numberInvalid') : undefined}
      >
        <Input
          name="number"
          inputMode="numeric"
          autoComplete="off"
          className="font-mono"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </FormField>
      {mutation.isError ? (
        <Notice tone="error" title={t('gateways.saveFailed')} className="mt-3">
          {errorMessage(mutation.error)}
        </Notice>
      ) : null}
    </Modal>
  );
}

function SimulateSmsModal({
  gatewayId,
  sim,
  onClose,
  onDone,
}: {
  gatewayId: string;
  sim: Sim;
  onClose: () => void;
  onDone: (msg: string) => void;
}) {
  const { t } = useI18n();
  const [from, setFrom] = useState('Verify');
  const [text, setText] = useState('');
  const [tried, setTried] = useState(false);
  const mutation = useSimulateSmsMutation();
  const fromBad = from.trim() === '';
  const textBad = text.trim() === '' || text.length > 1000;

  const submit = () => {
    setTried(true);
    if (fromBad || textBad || mutation.isPending) return;
    mutation.mutate(
      { gatewayId, port: sim.port, from: from.trim(), text },
      { onSuccess: (res) => onDone(res.msg) },
    );
  };

  return (
    <Modal
      open
      title={t('gateways.simulateFor', { port: sim.port })}
      onClose={onClose}
      busy={mutation.isPending}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose} disabled={mutation.isPending}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            busy={mutation.isPending}
            busyLabel={t('gateways.simulating')}
          >
            {t('gateways.simulate')}
          </Button>
        </>
      }
    >
      <p className="mb-3 text-[13px] text-muted">{t('gateways.simulateText')}</p>
      <div className="flex flex-col gap-4">
        <FormField
          label={t('gateways.from')}
          error={tried && fromBad ? t('gateways.fromRequired') : undefined}
        >
          <Input name="from" autoComplete="off" value={from} onChange={(e) => setFrom(e.target.value)} />
        </FormField>
        <FormField
          label={t('gateways.text')}
          error={tried && textBad ? t('gateways.textRequired') : undefined}
        >
          <Textarea
            name="text"
            value={text}
            maxLength={1000}
            placeholder={t('gateways.textPlaceholder')}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              // Ctrl/Cmd+Enter sends, as Enter does in the one-line fields.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                submit();
              }
            }}
          />
        </FormField>
      </div>
      {mutation.isError ? (
        <Notice tone="error" title={t('gateways.simulateFailed')} className="mt-3">
          {errorMessage(mutation.error)}
        </Notice>
      ) : null}
    </Modal>
  );
}
