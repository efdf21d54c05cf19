import { type Gateway, SIM_ROLES, type Sim, type SimRole } from '@simdock/contract';
import { Globe, Lock, LockOpen, MessageSquareText, PencilLine, Wallet } from 'lucide-react';
import { Fragment } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { CopyableText } from '../../components/CopyButton.tsx';
import { CountryLabel } from '../../components/CountryLabel.tsx';
import type { Column } from '../../components/DataTable.tsx';
import { Select } from '../../components/Input.tsx';
import { RowActions } from '../../components/RowActions.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { notify } from '../../components/toast.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { formatDateTime, formatPhone } from '../../lib/format.ts';
import { useNow } from '../../lib/useNow.ts';
import { useSetSimRoleMutation } from './api.ts';
import { simPlace } from './kinds.ts';
import { HealthFigures, LockBadge } from './SimFigures.tsx';
import { ORIGIN_SOURCE_TEXT, ROLE_TEXT, simStateName, simText } from './sim-text.ts';
import type { SimDialogKind } from './sims.ts';

/**
 * The SIM table's columns: place, number and ICCID, operator and signal, state with the lock, health,
 * role (changed in place) and the row's actions, which open one of the SIM's dialogs (`onDialog`).
 */
export function useSimColumns(
  gateway: Gateway,
  onDialog: (kind: SimDialogKind, sim: Sim) => void,
): Column<Sim>[] {
  const { t } = useI18n();
  const roleMutation = useSetSimRoleMutation();
  // Lock countdowns keep counting while the panel is open: a render every 15 s, each reading the time
  // afresh (the shared clock's value can be up to 15 s old, a minute off in "59 min left").
  useNow(15_000);
  const now = Date.now();
  const kind = gateway.kind;
  // SMSGate reports no signal; a GoIP line does (its keepalives carry it), as an Ejoin port does.
  const noSignal = kind === 'smsgate';
  // A phone's slot and a GoIP line are named in words ("SIM 1", "Line 1"), an Ejoin port by its code.
  const worded = kind !== 'ejoin';
  // A phone's SIMs and a GoIP box's lines often report no number: say how to make one rentable.
  const numberOften = kind !== 'ejoin';
  const place = (s: Sim) => simPlace(kind, s.port, t);

  return [
    {
      key: 'port',
      header: t(kind === 'goip' ? 'gateways.colLine' : 'gateways.colPort'),
      cell: (s) => <span className={worded ? 'whitespace-nowrap' : 'font-mono tabular'}>{place(s)}</span>,
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
          ) : numberOften && s.state !== 'empty' ? (
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
          {s.ussd ? (
            // The last USSD reply (a balance), kept on the SIM: when and by which code on hover.
            <span
              className="max-w-56 text-xs text-muted"
              title={`${s.ussd.code} · ${formatDateTime(s.ussd.at)}`}
            >
              <span className="sr-only">{t('gateways.ussdLast')} </span>
              {s.ussd.reply}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'operator',
      // The country rentals count the SIM in, its operator and what told them, then the signal: one
      // column, so Role and the actions stay in view at 1280 px. SMSGate reports no signal.
      header: (
        <span className="whitespace-normal">
          {noSignal
            ? `${t('gateways.colCountry')} · ${t('gateways.colOperator')}`
            : `${t('gateways.colCountry')} · ${t('gateways.colOperator')} · ${t('gateways.colSignal')}`}
        </span>
      ),
      cardLabel: noSignal
        ? `${t('gateways.colCountry')} · ${t('gateways.colOperator')}`
        : `${t('gateways.colCountry')} · ${t('gateways.colOperator')} · ${t('gateways.colSignal')}`,
      cell: (s) => (
        <span className="flex flex-col items-start">
          {s.state === 'empty' ? (
            <span className="text-muted">-</span>
          ) : (
            <>
              <CountryLabel iso={s.origin.country} wrap />
              {/* The device's own text ("26202 Vodafone") on hover: the name alone reads better. */}
              <span className="text-xs" title={s.operator ?? undefined}>
                {(s.origin.operator ?? s.operator ?? '-').split(' ').map((word, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the words of one fixed text
                  <Fragment key={i}>
                    {i ? ' ' : null}
                    <span className="whitespace-nowrap">{word}</span>
                  </Fragment>
                ))}
              </span>
              <span
                className={cx(
                  'whitespace-nowrap text-xs',
                  s.origin.corrected ? 'text-accent-text' : 'text-muted',
                )}
              >
                {t(ORIGIN_SOURCE_TEXT[s.origin.corrected ? 'admin' : s.origin.source])}
              </span>
            </>
          )}
          {noSignal ? null : (
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
          <span className="whitespace-nowrap">{simStateName(t, s.stateText)}</span>
          {/* Locked: the lock's badge says so (and why); "Usable" beside it would contradict it. */}
          {s.lock.locked ? (
            <LockBadge sim={s} now={now} />
          ) : (
            <StatusBadge tone={s.usable ? 'green' : 'grey'}>
              {s.usable ? t('gateways.usable') : t('gateways.notUsable')}
            </StatusBadge>
          )}
          {s.state === 'empty' && !s.lock.locked ? null : (
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
                s.lock.locked ? simText(t, kind, s.port, 'unlock') : simText(t, kind, s.port, 'lock')
              }
              onClick={() => onDialog(s.lock.locked ? 'unlock' : 'lock', s)}
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
          aria-label={simText(t, kind, s.port, 'role')}
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
          name={worded ? place(s) : `${t('gateways.colPort')} ${s.port}`}
          actions={[
            {
              key: 'number',
              label: t('gateways.setNumber'),
              icon: <PencilLine className="size-4" aria-hidden />,
              disabled: s.state === 'empty',
              onSelect: () => onDialog('number', s),
            },
            {
              key: 'sms',
              label: t('gateways.simulateSms'),
              icon: <MessageSquareText className="size-4" aria-hidden />,
              onSelect: () => onDialog('sms', s),
            },
            {
              key: 'origin',
              label: t('gateways.originCorrect'),
              icon: <Globe className="size-4" aria-hidden />,
              disabled: s.state === 'empty',
              onSelect: () => onDialog('origin', s),
            },
            ...(gateway.canUssd
              ? [
                  {
                    key: 'ussd',
                    label: t('gateways.checkBalance'),
                    icon: <Wallet className="size-4" aria-hidden />,
                    disabled: s.state === 'empty',
                    onSelect: () => onDialog('ussd', s),
                  },
                ]
              : []),
          ]}
        />
      ),
      // The buttons go one under the other when the panel is narrow (the rows are tall anyway).
      align: 'right',
    },
  ];
}
