import type { Gateway, Sim } from '@simdock/contract';
import { X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { Notice } from '../../components/Notice.tsx';
import { EmptyState } from '../../components/StateViews.tsx';
import { notify } from '../../components/toast.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { useGatewayReport } from './api.ts';
import { LockSimDialog } from './LockSimDialog.tsx';
import { OriginDialog } from './OriginDialog.tsx';
import { SetNumberDialog } from './SetNumberDialog.tsx';
import { SimulateSmsDialog } from './SimulateSmsDialog.tsx';
import { useSimColumns } from './sim-columns.tsx';
import { type SimDialogKind, type SimDialogProps, simCounts, simsHintKey } from './sims.ts';
import { UssdDialog } from './UssdDialog.tsx';

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
 * masked, so a number set by hand is what makes such a SIM rentable. A GoIP box's SIMs are its lines
 * ("Line 1"), reported by the lines' keepalives.
 */
export function SimPanel({ gateway, id, onClose }: SimPanelProps) {
  const { t, tn } = useI18n();
  const report = useGatewayReport(gateway.id);
  /** The SIM dialog that is open, if any. */
  const [dialog, setDialog] = useState<{ kind: SimDialogKind; sim: Sim }>();
  const columns = useSimColumns(gateway, (kind, sim) => setDialog({ kind, sim }));
  const heading = useRef<HTMLHeadingElement>(null);

  // Opening the panel (or switching gateway) brings it into view and moves focus to its title.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when another gateway is shown
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [gateway.id]);

  const sims = report.data?.sims;
  const { usable, locked } = simCounts(sims);
  const hint = simsHintKey(gateway, sims);
  const simsHint = hint ? t(hint) : undefined;

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
            {simsHint ? (
              <Notice tone="info" className="mt-2 py-2 text-[13px]">
                {simsHint}
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
          <EmptyState
            title={t(
              gateway.kind === 'goip' && gateway.mode !== 'web'
                ? 'gateways.simsEmptyGoip'
                : 'gateways.simsEmpty',
            )}
          />
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
          deviceKind={gateway.kind}
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

/** One of the SIM's dialogs: set its number, simulate an incoming SMS, lock or unlock it, check its balance, correct its country. */
function SimDialog({ kind, ...props }: SimDialogProps & { kind: SimDialogKind }) {
  switch (kind) {
    case 'number':
      return <SetNumberDialog {...props} />;
    case 'sms':
      return <SimulateSmsDialog {...props} />;
    case 'lock':
    case 'unlock':
      return <LockSimDialog {...props} unlock={kind === 'unlock'} />;
    case 'ussd':
      return <UssdDialog {...props} />;
    case 'origin':
      return <OriginDialog {...props} />;
  }
}
