import {
  type DeviceKind,
  type Gateway,
  LockSimBody,
  normalizePhoneNumber,
  SIM_LOCK_REASON_MAX,
  SIM_ROLES,
  type Sim,
  type SimRole,
  SimulateSmsBody,
  TEXT_LIMITS,
  UnlockSimBody,
} from '@simdock/contract';
import { Lock, LockOpen, MessageSquareText, PencilLine, X } from 'lucide-react';
import { Fragment, useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { CopyableText } from '../../components/CopyButton.tsx';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input, Select, Textarea } from '../../components/Input.tsx';
import { Notice } from '../../components/Notice.tsx';
import { RelativeTime } from '../../components/RelativeTime.tsx';
import { RowActions } from '../../components/RowActions.tsx';
import { EmptyState } from '../../components/StateViews.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { notify } from '../../components/toast.tsx';
import { type MessageKey, type TFunction, useI18n } from '../../i18n/index.tsx';
import { formatDateTime, formatPhone } from '../../lib/format.ts';
import { bodyResolver, fieldErrorText, keyResolver } from '../../lib/forms.ts';
import { useNow } from '../../lib/useNow.ts';
import {
  useGatewayReport,
  useLockSimMutation,
  useSetSimNumberMutation,
  useSetSimRoleMutation,
  useSimulateSmsMutation,
  useUnlockSimMutation,
} from './api.ts';
import { simPlace } from './kinds.ts';
import { lockReasonText, simStateName } from './sim-text.ts';

export interface SimPanelProps {
  gateway: Gateway;
  /** The panel's id, for the SIMs button's aria-controls. */
  id: string;
  onClose: () => void;
}

/**
 * The SIM table of one gateway, under the gateway list: what the last scan (or status push) found,
 * with a number per SIM that the admin can set, and a control to simulate an incoming SMS. A phone's
 * SIMs are its slots ("SIM 1"); it reports no signal, and in Cloud/Private mode its SIM numbers come
 * masked, so a number set by hand is what makes such a SIM rentable.
 */
export function SimPanel({ gateway, id, onClose }: SimPanelProps) {
  const { t, tn } = useI18n();
  const report = useGatewayReport(gateway.id);
  /** The SIM dialog that is open, if any. */
  const [dialog, setDialog] = useState<{ kind: SimDialogKind; sim: Sim }>();
  const roleMutation = useSetSimRoleMutation();
  // Lock countdowns keep counting while the panel is open: a render every 15 s, each reading the time
  // afresh (the shared clock's value can be up to 15 s old, a minute off in "59 min left").
  useNow(15_000);
  const now = Date.now();
  const heading = useRef<HTMLHeadingElement>(null);

  // Opening the panel (or switching gateway) brings it into view and moves focus to its title.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when another gateway is shown
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [gateway.id]);

  const sims = report.data?.sims;
  // A locked SIM is never counted usable (the server says so too; an older answer may not).
  const usable = sims?.filter((s) => s.usable && !s.lock.locked).length ?? 0;
  const locked = sims?.filter((s) => s.lock.locked).length ?? 0;
  const kind = gateway.kind;
  const phone = kind === 'smsgate';
  const place = (s: Sim) => simPlace(kind, s.port, t);
  const phoneHint = !phone
    ? undefined
    : gateway.mode !== 'local'
      ? t('gateways.simsPhoneHint')
      : sims?.some((s) => !s.number)
        ? t('gateways.simsPhoneHintLocal')
        : undefined;

  const columns: Column<Sim>[] = [
    {
      key: 'port',
      header: t('gateways.colPort'),
      cell: (s) => <span className={phone ? 'whitespace-nowrap' : 'font-mono tabular'}>{place(s)}</span>,
      className: 'whitespace-nowrap',
    },
    {
      key: 'number',
      // The ICCID under the number and the signal under the operator, not columns of their own: the
      // panel's Role and actions stay in view at 1280 px.
      header: `${t('gateways.colNumber')} · ${t('gateways.colIccid')}`,
      cell: (s) => (
        <span className="flex flex-col items-start">
          {s.number ? (
            <CopyableText value={s.number} display={formatPhone(s.number)} />
          ) : phone ? (
            // Not rentable without a number: say what makes it so, where the dash would be.
            <span className="whitespace-nowrap text-xs text-warn">{t('gateways.simNeedsNumber')}</span>
          ) : (
            <span className="text-muted">-</span>
          )}
          {s.numberSource ? (
            <span className="text-xs text-muted">
              {s.numberSource === 'manual' ? t('gateways.sourceManual') : t('gateways.sourceDevice')}
            </span>
          ) : null}
          {s.iccid ? (
            // Named by the column's header (and for screen readers here): the digits alone stay narrower
            // than the number above them.
            <span className="whitespace-nowrap font-mono text-xs text-muted" title={t('gateways.colIccid')}>
              <span className="sr-only">{t('gateways.colIccid')} </span>
              {s.iccid}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'operator',
      // SMSGate reports no signal: a phone's SIMs show none.
      header: phone ? (
        t('gateways.colOperator')
      ) : (
        <span className="whitespace-normal">{`${t('gateways.colOperator')} · ${t('gateways.colSignal')}`}</span>
      ),
      cardLabel: phone
        ? t('gateways.colOperator')
        : `${t('gateways.colOperator')} · ${t('gateways.colSignal')}`,
      // Wraps ("310260 / T-Mobile") so Role and the actions stay in view at 1280 px.
      cell: (s) => (
        <span className="flex flex-col items-start">
          {/* Breaks between words only ("310260 / T-Mobile", never "T- / Mobile"). */}
          <span>
            {(s.operator ?? '-').split(' ').map((word, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the words of one fixed text
              <Fragment key={i}>
                {i ? ' ' : null}
                <span className="whitespace-nowrap">{word}</span>
              </Fragment>
            ))}
          </span>
          {phone ? null : (
            <span className="whitespace-nowrap text-xs text-muted tabular">
              {t('gateways.colSignal')} {s.signal ?? '-'}
            </span>
          )}
        </span>
      ),
      cellClassName: 'min-w-20',
    },
    {
      key: 'state',
      header: t('gateways.colState'),
      cell: (s) => (
        <span className="flex flex-col items-start gap-1">
          <span className="whitespace-nowrap">{simStateName(t, s.state, s.stateText)}</span>
          {/* Locked: the lock's badge says so (and why); "Usable" beside it would contradict it. */}
          {s.lock.locked ? (
            <LockBadge sim={s} now={now} />
          ) : (
            <StatusBadge tone={s.usable ? 'green' : 'grey'}>
              {s.usable ? t('gateways.usable') : t('gateways.notUsable')}
            </StatusBadge>
          )}
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
              aria-label={
                s.lock.locked
                  ? simText(t, kind, s.port, 'gateways.unlockFor', 'gateways.unlockForSim')
                  : simText(t, kind, s.port, 'gateways.lockFor', 'gateways.lockForSim')
              }
              onClick={() => setDialog({ kind: s.lock.locked ? 'unlock' : 'lock', sim: s })}
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
      cell: (s) => <HealthFigures sim={s} />,
    },
    {
      key: 'role',
      header: t('gateways.colRole'),
      cell: (s) => (
        <Select
          className="w-36"
          aria-label={simText(t, kind, s.port, 'gateways.roleFor', 'gateways.roleForSim')}
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
          name={phone ? place(s) : `${t('gateways.colPort')} ${s.port}`}
          actions={[
            {
              key: 'number',
              label: t('gateways.setNumber'),
              icon: <PencilLine className="size-4" aria-hidden />,
              disabled: s.state === 0,
              onSelect: () => setDialog({ kind: 'number', sim: s }),
            },
            {
              key: 'sms',
              label: t('gateways.simulateSms'),
              icon: <MessageSquareText className="size-4" aria-hidden />,
              onSelect: () => setDialog({ kind: 'sms', sim: s }),
            },
          ]}
        />
      ),
      // The buttons go one under the other when the panel is narrow (the rows are tall anyway).
      align: 'right',
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
              {sims && sims.length > 0 ? ` ${tn('gateways.simsCount', sims.length, { usable })}` : null}
              {locked > 0 ? ` · ${t('gateways.simsLocked', { locked })}` : null}
            </p>
            {phoneHint ? (
              <Notice tone="info" className="mt-2 py-2 text-[13px]">
                {phoneHint}
              </Notice>
            ) : null}
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

      {dialog ? (
        <SimDialog
          kind={dialog.kind}
          deviceKind={kind}
          gatewayId={gateway.id}
          sim={dialog.sim}
          onClose={() => setDialog(undefined)}
          onDone={(text, ok) => {
            setDialog(undefined);
            // A toast: seen where the admin acted, however far down the SIM list.
            if (ok) notify.success(text);
            else notify.info(text);
          }}
        />
      ) : null}
    </section>
  );
}

/** A SIM's text in a box's words (port "1.01") or a phone's (slot: "SIM 1"). */
function simText(t: TFunction, kind: DeviceKind, port: string, box: MessageKey, phone: MessageKey): string {
  return kind === 'smsgate' ? t(phone, { slot: port }) : t(box, { port });
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
      {lock.reason ? <span className="text-xs text-fg">{lockReasonText(t, lock.reason)}</span> : null}
      <span className="text-xs text-muted">{left}</span>
    </span>
  );
}

/** The SIM's figures: sent today and this month (UTC), failures, received, rentals, last success. */
function HealthFigures({ sim }: { sim: Sim }) {
  const { t } = useI18n();
  const h = sim.health;
  return (
    <span className="flex min-w-40 flex-col items-start gap-0.5 text-xs tabular" data-testid="sim-health">
      <span>{t('gateways.healthSent', { today: h.sentToday, month: h.sentThisMonth })}</span>
      <span className={h.consecutiveFailures > 0 ? 'text-bad' : undefined}>
        {t('gateways.healthFailed', { failed: h.failed, inRow: h.consecutiveFailures })}
      </span>
      <span>{t('gateways.healthReceived', { received: h.received, rentals: h.rentalsToday })}</span>
      {h.lastSuccess ? (
        <RelativeTime value={h.lastSuccess} className="text-muted">
          {(time) => t('gateways.healthLastSuccess', { time })}
        </RelativeTime>
      ) : (
        <span className="text-muted">{t('gateways.healthNever')}</span>
      )}
      {h.atCap ? (
        <StatusBadge tone="yellow">
          {h.atCap === 'day' ? t('gateways.atCapDay') : t('gateways.atCapMonth')}
        </StatusBadge>
      ) : null}
    </span>
  );
}

type SimDialogKind = 'number' | 'sms' | 'lock' | 'unlock';

interface SimDialogProps {
  /** How the dialog names the SIM: by port (box) or slot (phone). */
  deviceKind: DeviceKind;
  gatewayId: string;
  sim: Sim;
  onClose: () => void;
  /** The server's message; `ok` false: done only in part (a number the device did not store). */
  onDone: (msg: string, ok: boolean) => void;
}

/** One of the SIM's dialogs: set its number, simulate an incoming SMS, lock or unlock it. */
function SimDialog({ kind, ...props }: SimDialogProps & { kind: SimDialogKind }) {
  switch (kind) {
    case 'number':
      return <SetNumberDialog {...props} />;
    case 'sms':
      return <SimulateSmsDialog {...props} />;
    case 'lock':
    case 'unlock':
      return <LockSimDialog {...props} unlock={kind === 'unlock'} />;
  }
}

/** Durations offered for a manual lock; '' = until unlocked. */
const LOCK_DURATIONS: { minutes: string; label: MessageKey }[] = [
  { minutes: '', label: 'gateways.lockForever' },
  { minutes: '15', label: 'gateways.lock15m' },
  { minutes: '60', label: 'gateways.lock1h' },
  { minutes: '1440', label: 'gateways.lock24h' },
  { minutes: '10080', label: 'gateways.lock7d' },
];

interface LockValues {
  reason: string;
  /** '' = until unlocked. */
  minutes: string;
}

/** Lock (with a reason and a duration) or unlock (with a reason) one SIM; both are audited. */
function LockSimDialog({
  deviceKind,
  gatewayId,
  sim,
  unlock,
  onClose,
  onDone,
}: SimDialogProps & { unlock: boolean }) {
  const { t } = useI18n();
  const lockMutation = useLockSimMutation();
  const unlockMutation = useUnlockSimMutation();
  const mutation = unlock ? unlockMutation : lockMutation;
  const toBody = (v: LockValues) => ({
    gatewayId,
    port: sim.port,
    reason: v.reason.trim(),
    ...(v.minutes && !unlock ? { minutes: Number(v.minutes) } : {}),
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LockValues>({
    defaultValues: { reason: '', minutes: '' },
    resolver: bodyResolver(unlock ? UnlockSimBody : LockSimBody, toBody, {
      reason: 'gateways.lockReasonRequired',
    }),
  });

  const submit = handleSubmit((v) => {
    const done = { onSuccess: (res: { msg: string }) => onDone(res.msg, true) };
    if (unlock) unlockMutation.mutate(toBody(v), done);
    else lockMutation.mutate(toBody(v), done);
  });

  return (
    <FormDialog
      title={
        unlock
          ? simText(t, deviceKind, sim.port, 'gateways.unlockFor', 'gateways.unlockForSim')
          : simText(t, deviceKind, sim.port, 'gateways.lockFor', 'gateways.lockForSim')
      }
      intro={t(unlock ? 'gateways.unlockText' : 'gateways.lockText')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t(unlock ? 'gateways.unlock' : 'gateways.lock')}
      pending={mutation.isPending}
      pendingLabel={t(unlock ? 'gateways.unlocking' : 'gateways.locking')}
      size="sm"
      error={mutation.isError ? errorMessage(mutation.error) : undefined}
      errorTitle={t(unlock ? 'gateways.unlockFailed' : 'gateways.lockFailed')}
    >
      <div className="flex flex-col gap-4">
        <FormField
          label={t('gateways.lockReason')}
          hint={t('gateways.lockReasonHint')}
          error={fieldErrorText(t, errors.reason)}
        >
          <Input autoComplete="off" maxLength={SIM_LOCK_REASON_MAX} {...register('reason')} />
        </FormField>
        {unlock ? null : (
          <FormField label={t('gateways.lockDuration')}>
            <Select {...register('minutes')}>
              {LOCK_DURATIONS.map((d) => (
                <option key={d.minutes} value={d.minutes}>
                  {t(d.label)}
                </option>
              ))}
            </Select>
          </FormField>
        )}
      </div>
    </FormDialog>
  );
}

/**
 * The SIM's number as the admin knows it. The contract's `normalizePhoneNumber` is the server's rule:
 * spaces, dots, dashes and brackets dropped, then 3 to 20 digits with an optional leading +.
 */
function SetNumberDialog({ deviceKind, gatewayId, sim, onClose, onDone }: SimDialogProps) {
  const { t } = useI18n();
  const mutation = useSetSimNumberMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ number: string }>({
    defaultValues: { number: sim.number ?? '' },
    resolver: keyResolver((v: { number: string }) => ({
      number: normalizePhoneNumber(v.number) === undefined ? 'gateways.numberInvalid' : undefined,
    })),
  });

  const submit = handleSubmit((v) =>
    mutation.mutate(
      { gatewayId, port: sim.port, number: normalizePhoneNumber(v.number)! },
      { onSuccess: (res) => onDone(res.msg, res.deviceUpdated) },
    ),
  );

  return (
    <FormDialog
      title={simText(t, deviceKind, sim.port, 'gateways.setNumberFor', 'gateways.setNumberForSim')}
      intro={t(deviceKind === 'smsgate' ? 'gateways.setNumberTextPhone' : 'gateways.setNumberText')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('common.save')}
      pending={mutation.isPending}
      size="sm"
      error={mutation.isError ? errorMessage(mutation.error) : undefined}
      errorTitle={t('gateways.saveFailed')}
    >
      <FormField
        label={t('gateways.number')}
        hint={t('gateways.numberHint')}
        error={fieldErrorText(t, errors.number)}
      >
        <Input
          inputMode="tel"
          autoComplete="off"
          className="font-mono"
          maxLength={TEXT_LIMITS.phoneNumber}
          {...register('number')}
        />
      </FormField>
    </FormDialog>
  );
}

interface SimulateValues {
  from: string;
  text: string;
}

function SimulateSmsDialog({ deviceKind, gatewayId, sim, onClose, onDone }: SimDialogProps) {
  const { t } = useI18n();
  const mutation = useSimulateSmsMutation();
  // A blank text counts as none: the contract's schema then refuses it.
  const toBody = (v: SimulateValues) => ({
    gatewayId,
    port: sim.port,
    from: v.from.trim(),
    text: v.text.trim() ? v.text : '',
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SimulateValues>({
    defaultValues: { from: 'Verify', text: '' },
    resolver: bodyResolver(SimulateSmsBody, toBody, {
      from: 'gateways.fromRequired',
      text: 'gateways.textRequired',
    }),
  });

  const submit = handleSubmit((v) =>
    mutation.mutate(toBody(v), { onSuccess: (res) => onDone(res.msg, true) }),
  );

  return (
    <FormDialog
      title={simText(t, deviceKind, sim.port, 'gateways.simulateFor', 'gateways.simulateForSim')}
      intro={t('gateways.simulateText')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('gateways.simulate')}
      pending={mutation.isPending}
      pendingLabel={t('gateways.simulating')}
      error={mutation.isError ? errorMessage(mutation.error) : undefined}
      errorTitle={t('gateways.simulateFailed')}
    >
      <div className="flex flex-col gap-4">
        <FormField label={t('gateways.from')} error={fieldErrorText(t, errors.from)}>
          <Input autoComplete="off" maxLength={TEXT_LIMITS.smsSender} {...register('from')} />
        </FormField>
        <FormField label={t('gateways.text')} error={fieldErrorText(t, errors.text)}>
          <Textarea
            maxLength={TEXT_LIMITS.smsText}
            placeholder={t('gateways.textPlaceholder')}
            {...register('text')}
            onKeyDown={(e) => {
              // Ctrl/Cmd+Enter sends, as Enter does in the one-line fields.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                if (!mutation.isPending) void submit();
              }
            }}
          />
        </FormField>
      </div>
    </FormDialog>
  );
}
