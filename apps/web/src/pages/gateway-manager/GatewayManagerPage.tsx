import { type Gateway, onlineTone } from '@simdock/contract';
import { BarChart3, Cpu, Pencil, RefreshCw, Router, Trash2 } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { AddButton } from '../../components/AddButton.tsx';
import { Card } from '../../components/Card.tsx';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RelativeTime } from '../../components/RelativeTime.tsx';
import { RowActions } from '../../components/RowActions.tsx';
import { EmptyState, ErrorState } from '../../components/StateViews.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { notify } from '../../components/toast.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { failureText } from '../../lib/errors.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useSearchState } from '../../lib/useSearchState.ts';
import {
  useDeleteGatewayMutation,
  useGatewaySettings,
  useScanFailures,
  useScanGatewayMutation,
  useScanningIds,
} from './api.ts';
import { GoipSetupDialog } from './DeviceSettings.tsx';
import { GatewayFormModal } from './GatewayFormModal.tsx';
import { KindBadge, PhoneIdentity } from './KindBadge.tsx';
import { detailsPath, gatewayUrl, goipLineId } from './kinds.ts';
import { SimPanel } from './SimPanel.tsx';

/**
 * /gatewaymanager (docs/product.md#screens-and-routes): the device gateways (Ejoin boxes, SMSGate
 * phones and GoIP boxes, each with its kind) with their SIM count, Online/Offline and Enabled/Disabled badges; Scan, Details, SIMs, Edit and Delete per gateway (RowActions);
 * the add/edit modal; the messages of docs/product.md#errors-and-messages as toasts where the admin acted. A
 * failed load shows 'Load failed' with Retry, never the empty text. A table, one card per
 * gateway below 1280 px (the shared DataTable pattern). The list refetches every 30 s and after every change.
 */
const URL_DEFAULTS = { sims: '' };

export function GatewayManagerPage() {
  const { t, tn } = useI18n();
  const settings = useGatewaySettings();
  const scan = useScanGatewayMutation();
  const remove = useDeleteGatewayMutation();
  const scanning = useScanningIds();
  const simPanelId = useId();

  /** Open form: `{}` adds, `{ gateway }` edits. */
  const [form, setForm] = useState<{ gateway?: Gateway }>();
  const [deleting, setDeleting] = useState<Gateway>();
  /** A GoIP box just added: what to enter on it, with the password as typed. */
  const [setup, setSetup] = useState<{ gateway: Gateway; password: string }>();
  // The open SIM panel is in the URL (?sims=<id>): reload and Back keep it.
  const [url, setUrl] = useSearchState(URL_DEFAULTS);
  const simsFor = url.sims || undefined;
  const setSimsFor = (id: string | undefined) => setUrl({ sims: id ?? '' });

  const gateways = settings.data?.gateways;
  const serverTime = settings.data?.serverTime;
  // The server's clock minus ours when the list arrived: "Last report" counts on the server's clock.
  const skewMs = serverTime ? new Date(serverTime).getTime() - settings.dataUpdatedAt : 0;
  const scanFailures = useScanFailures();
  const simsGateway = gateways?.find((g) => g.id === simsFor);

  const startScan = (g: Gateway) => {
    // mutateAsync: each scan reports its own outcome, even when several run at once.
    scan.mutateAsync(g.id).then(
      (res) => notify.success(tn('gateways.scanDone', res.totalSIM, { name: res.name })),
      (err: unknown) => notify.error(t('gateways.scanFailed'), `${g.name}: ${failureText(err, t)}`),
    );
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const g = deleting;
    remove.mutate(g.id, {
      onSuccess: () => {
        setDeleting(undefined);
        if (simsFor === g.id) setSimsFor(undefined);
        notify.success(t('gateways.deleted', { name: g.name }));
      },
      onError: (err) => {
        setDeleting(undefined);
        notify.error(t('gateways.deleteFailed'), failureText(err, t));
      },
    });
  };

  // ---- pieces shared by the table and the cards ----

  // While scanning, the SIM count shows 0 locally.
  const simCount = (g: Gateway) => (
    <span className="tabular" data-testid="gateway-sim-count">
      {formatNumber(scanning.has(g.id) ? 0 : g.totalSIM)}
    </span>
  );
  const onlineBadge = (g: Gateway) => (
    <StatusBadge tone={onlineTone(g.onlineStatus)}>
      {g.onlineStatus === 'Online' ? t('gateways.online') : t('gateways.offline')}
    </StatusBadge>
  );
  const lastSeen = (g: Gateway) => {
    const failure = scanFailures.get(g.id);
    const lastReport = g.lastUpdate ? new Date(g.lastUpdate).getTime() : undefined;
    // A failed scan newer than the last report is the news; an older one was overtaken by a report.
    const showFailure = failure && (lastReport === undefined || failure.at + skewMs > lastReport);
    // These lines wrap: in a phone card ("Báo cáo gần nhất vừa xong") they would widen the page.
    return (
      <span className="flex flex-col items-start text-xs text-muted">
        {showFailure ? (
          <RelativeTime
            value={new Date(failure.at)}
            title={`${formatDateTime(failure.at / 1000, { seconds: true })}: ${failureText(failure.error, t)}`}
            className="text-bad"
          >
            {(time) => t('gateways.scanFailedAt', { time })}
          </RelativeTime>
        ) : null}
        {g.lastUpdate ? (
          <RelativeTime value={g.lastUpdate} skewMs={skewMs}>
            {(time) => t('gateways.lastSeen', { time })}
          </RelativeTime>
        ) : showFailure ? null : (
          // A GoIP box on UDP is not scanned: its lines report by themselves.
          <span>
            {t(g.kind === 'goip' && g.mode !== 'web' ? 'gateways.neverReported' : 'gateways.neverSeen')}
          </span>
        )}
      </span>
    );
  };
  const enabledBadge = (g: Gateway) => (
    <StatusBadge tone={g.isEnable ? 'green' : 'grey'}>
      {g.isEnable ? t('gateways.enabled') : t('gateways.disabled')}
    </StatusBadge>
  );
  const actions = (g: Gateway, className: string) => {
    const open = simsFor === g.id;
    return (
      <RowActions
        name={g.name}
        className={className}
        inline={2}
        actions={[
          {
            key: 'scan',
            label: t('gateways.scan'),
            icon: <RefreshCw className="size-4" aria-hidden />,
            busy: scanning.has(g.id),
            busyLabel: t('gateways.scanning'),
            onSelect: () => startScan(g),
          },
          {
            key: 'sims',
            label: t('gateways.sims'),
            icon: <Cpu className="size-4" aria-hidden />,
            pressed: open,
            onSelect: () => setSimsFor(open ? undefined : g.id),
          },
          {
            key: 'details',
            label: t('gateways.details'),
            icon: <BarChart3 className="size-4" aria-hidden />,
            href: detailsPath(g),
          },
          {
            key: 'edit',
            label: t('gateways.edit'),
            icon: <Pencil className="size-4" aria-hidden />,
            onSelect: () => setForm({ gateway: g }),
          },
          {
            key: 'delete',
            label: t('gateways.delete'),
            icon: <Trash2 className="size-4" aria-hidden />,
            destructive: true,
            onSelect: () => setDeleting(g),
          },
        ]}
      />
    );
  };

  const columns: Column<Gateway>[] = [
    {
      key: 'name',
      header: t('gateways.colNameUrl'),
      cell: (g) => (
        <span className="flex min-w-0 flex-col items-start gap-0.5">
          <span className="font-medium text-fg">{g.name}</span>
          <span className="block max-w-60 truncate text-xs text-muted" title={gatewayUrl(g)}>
            {gatewayUrl(g)}
          </span>
          <KindBadge gateway={g} />
        </span>
      ),
      className: 'min-w-40',
    },
    {
      key: 'totalSIM',
      header: t('gateways.colTotalSim'),
      cell: simCount,
      align: 'right',
      className: 'whitespace-nowrap',
    },
    {
      key: 'online',
      header: t('gateways.colStatus'),
      cell: (g) => (
        <span className="flex flex-col items-start gap-0.5">
          {onlineBadge(g)}
          {lastSeen(g)}
        </span>
      ),
    },
    { key: 'enabled', header: t('gateways.colEnabled'), cell: enabledBadge },
    {
      key: 'mac',
      // A phone has no MAC: its model and device id take the place (the spec's header otherwise).
      header: gateways?.some((g) => g.kind === 'smsgate')
        ? t('gateways.colDeviceUser')
        : t('gateways.colMacUser'),
      cell: (g) => (
        <span className="flex max-w-56 flex-col">
          {g.kind === 'smsgate' ? (
            <PhoneIdentity gateway={g} />
          ) : g.kind === 'goip' ? (
            // No MAC: the IDs its lines log in with, which the admin finds on the box.
            <span className="whitespace-nowrap font-mono text-xs">
              {t('gateways.goipLines', {
                first: goipLineId(g.userName, 1),
                second: goipLineId(g.userName, 2),
              })}
            </span>
          ) : (
            <span className="whitespace-nowrap font-mono text-xs">{g.mac}</span>
          )}
          <span className="text-xs text-muted">{g.userName}</span>
        </span>
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
      align: 'right',
      cell: (g) => actions(g, 'min-w-max flex-nowrap'),
    },
  ];

  const add = <AddButton onClick={() => setForm({})}>{t('gateways.add')}</AddButton>;
  let list: ReactNode;
  if (settings.isError && !gateways) {
    list = (
      <Card>
        <ErrorState
          title={t('gateways.loadFailed')}
          error={settings.error}
          onRetry={() => settings.refetch()}
        />
      </Card>
    );
  } else if (gateways && gateways.length === 0) {
    list = (
      <Card>
        <EmptyState icon={<Router className="size-6" />} title={t('gateways.empty')} action={add} />
      </Card>
    );
  } else {
    // The shared table pattern: a table, one card per gateway on narrow screens (its actions inside).
    list = (
      <Card flush>
        <DataTable
          columns={columns}
          rows={gateways}
          rowKey={(g) => g.id}
          loading={settings.isPending}
          caption={t('gateways.tableCaption')}
          skeletonRows={3}
          phoneCards
          // Five columns and the actions: cards until the table fits without scrolling.
          cardsBelow={1280}
          cardName={(g) => g.name}
          stickyFirst
        />
      </Card>
    );
  }

  return (
    <>
      <PageHeader
        title={t('gateways.title')}
        subtitle={t('gateways.subtitle')}
        count={gateways?.length}
        actions={add}
      />

      {list}

      {simsGateway ? (
        <SimPanel gateway={simsGateway} id={simPanelId} onClose={() => setSimsFor(undefined)} />
      ) : null}

      {form ? (
        <GatewayFormModal
          gateway={form.gateway}
          onClose={() => setForm(undefined)}
          onSaved={(g, added, password) => {
            setForm(undefined);
            if (added && g.kind === 'goip' && g.mode !== 'web') {
              // Nothing to scan: the box's lines report once the admin has entered SimDock on it.
              setSetup({ gateway: g, password });
              notify.success(t('gateways.addedGoip', { name: g.name }));
            } else notify.success(t(added ? 'gateways.added' : 'gateways.saved', { name: g.name }));
          }}
        />
      ) : null}

      {setup ? (
        <GoipSetupDialog
          gateway={setup.gateway}
          password={setup.password}
          onClose={() => setSetup(undefined)}
        />
      ) : null}

      <ConfirmDialog
        open={deleting !== undefined}
        title={t('gateways.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('gateways.deleteConfirm')}
        confirmLabel={t('gateways.delete')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(undefined)}
      />
    </>
  );
}
