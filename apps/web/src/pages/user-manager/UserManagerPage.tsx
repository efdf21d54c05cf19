import {
  ADMIN_ROLE,
  type AdminUser,
  USER_LIMITS,
  USER_PAGE_SIZES,
  type UserSortField,
} from '@simdock/contract';
import { Gauge, Pencil, ShieldOff, Trash2, UserCheck, UserPlus, Users, Wallet } from 'lucide-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import {
  Button,
  Card,
  type Column,
  ConfirmDialog,
  DataTable,
  Notice,
  notify,
  PageHeader,
  Pager,
  RowActions,
  SearchInput,
  type SortState,
  StatTile,
  StatusBadge,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { usePageAnchors } from '../../lib/page-anchors.ts';
import { pageNumber, useSearchState } from '../../lib/useSearchState.ts';
import { useSession } from '../../session/session.tsx';
import { useDeleteUserMutation, useResetSecondFactorMutation, useUsersQuery } from './api.ts';
import { SmppLimitsDialog } from './SmppLimitsDialog.tsx';
import { UserFormModal } from './UserFormModal.tsx';
import { roleLabel } from './user-form.ts';

type Editing = { user?: AdminUser } | null;
const SORTABLE: readonly string[] = ['username', 'email', 'roles', 'status', 'balance'];
/** What the URL keeps (?q&sort&dir&page&size): reload and Back show the same list. */
const URL_DEFAULTS = { q: '', sort: 'username', dir: 'asc', page: '1', size: String(USER_PAGE_SIZES[0]) };

/** Waits `ms` after the last change (search typed into the box). */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

/**
 * /usermanager (docs/product.md#screens-and-routes): stat cards with real figures, server-side search, sort
 * and paging (50/100/200/500), Add User, Edit, Delete with confirmation (deactivates users with history).
 */
export function UserManagerPage() {
  const { t } = useI18n();
  const session = useSession();
  const [url, setUrl] = useSearchState(URL_DEFAULTS);
  const sort: SortState = {
    key: SORTABLE.includes(url.sort) ? url.sort : URL_DEFAULTS.sort,
    dir: url.dir === 'desc' ? 'desc' : 'asc',
  };
  const page = pageNumber(url.page);
  const pageSize = (USER_PAGE_SIZES as readonly number[]).includes(Number(url.size))
    ? Number(url.size)
    : USER_PAGE_SIZES[0];
  const [search, setSearch] = useState(url.q);
  const debounced = useDebounced(search.trim(), 300);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const remove = useDeleteUserMutation();
  // The user list does not say who has a second factor: the action is offered for everyone, and the
  // server's answer for a user without one ("has no two-factor authentication") shows in the dialog.
  const [resetting, setResetting] = useState<AdminUser | null>(null);
  const reset = useResetSecondFactorMutation();
  const [limiting, setLimiting] = useState<AdminUser | null>(null);

  // The typed search reaches the URL once typing pauses (replacing, not stacking history entries); a new
  // search starts at page 1. A URL changed from outside (Back, a link) refills the box.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the debounced text changes
  useEffect(() => {
    if (debounced !== url.q) setUrl({ q: debounced, page: '1' }, { replace: true });
  }, [debounced]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the URL's search changes
  useEffect(() => {
    if (url.q !== search.trim()) setSearch(url.q);
  }, [url.q]);

  const anchors = usePageAnchors([url.q, sort.key, sort.dir, pageSize].join('\u0000'));
  const users = useUsersQuery({
    search: url.q || undefined,
    sort: sort.key as UserSortField,
    dir: sort.dir,
    page,
    pageSize: pageSize as (typeof USER_PAGE_SIZES)[number],
    ...anchors.cursors,
  });
  const data = users.data;
  const isSelf = (u: AdminUser) => u.username === session.user?.username;
  const stats = data?.stats;

  const columns: Column<AdminUser>[] = [
    {
      key: 'username',
      header: t('users.colUsername'),
      sortable: true,
      cell: (u) => <span className="font-medium text-fg">{u.username}</span>,
    },
    {
      key: 'email',
      header: t('users.colEmail'),
      sortable: true,
      cell: (u) => u.email,
      cellClassName: 'text-muted',
    },
    {
      key: 'roles',
      header: t('users.colRole'),
      sortable: true,
      cell: (u) => (
        <span className="flex flex-wrap gap-1">
          {u.roles.map((r) => (
            <StatusBadge key={r} tone={r === ADMIN_ROLE ? 'yellow' : 'grey'}>
              {roleLabel(t, r)}
            </StatusBadge>
          ))}
        </span>
      ),
    },
    {
      key: 'status',
      header: t('users.colStatus'),
      sortable: true,
      cell: (u) => (
        <StatusBadge tone={u.status === 'Active' ? 'green' : 'red'}>
          {u.status === 'Active' ? t('users.statusActive') : t('users.statusInactive')}
        </StatusBadge>
      ),
    },
    {
      key: 'balance',
      header: t('users.colBalance'),
      sortable: true,
      align: 'right',
      cellClassName: 'tabular',
      cell: (u) => formatMoney(u.balance, { decimals: 4 }),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('users.colActions')}</span>,
      align: 'right',
      className: 'whitespace-nowrap',
      cell: (u) => (
        <RowActions
          name={u.username}
          actions={[
            {
              key: 'edit',
              label: t('users.edit'),
              icon: <Pencil className="size-4" aria-hidden />,
              onSelect: () => {
                setDone(null);
                setEditing({ user: u });
              },
            },
            // No Delete on one's own row (the server refuses it too).
            ...(isSelf(u)
              ? []
              : [
                  {
                    key: 'delete',
                    label: t('users.delete'),
                    icon: <Trash2 className="size-4" aria-hidden />,
                    destructive: true,
                    onSelect: () => {
                      remove.reset();
                      setDeleting(u);
                    },
                  },
                ]),
            // Only for an account that has it on (the server refuses the others too).
            ...(u.secondFactor
              ? [
                  {
                    key: 'resetSecondFactor',
                    label: t('sf.reset'),
                    icon: <ShieldOff className="size-4" aria-hidden />,
                    onSelect: () => {
                      reset.reset();
                      setResetting(u);
                    },
                  },
                ]
              : []),
            {
              key: 'smppLimits',
              label: t('users.smppLimits'),
              icon: <Gauge className="size-4" aria-hidden />,
              onSelect: () => setLimiting(u),
            },
          ]}
        />
      ),
    },
  ];

  const confirmDelete = () => {
    if (!deleting) return;
    const { id, username } = deleting;
    remove.mutate(id, {
      onSuccess: (res) => {
        setDeleting(null);
        setDone(t(res.outcome === 'deleted' ? 'users.deleted' : 'users.deactivated', { name: username }));
      },
    });
  };

  const confirmReset = () => {
    if (!resetting) return;
    const { id, username } = resetting;
    reset.mutate(id, {
      onSuccess: () => {
        setResetting(null);
        notify.success(t('sf.resetDone'), username);
      },
    });
  };

  return (
    <>
      <PageHeader
        title={t('users.title')}
        subtitle={t('users.subtitle')}
        count={data?.total}
        countEstimated={data?.totalEstimated}
        actions={
          <Button
            variant="primary"
            icon={<UserPlus className="size-4" aria-hidden />}
            onClick={() => {
              setDone(null);
              setEditing({});
            }}
          >
            {t('users.add')}
          </Button>
        }
      />

      <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatTile
          label={t('users.statTotal')}
          value={stats ? formatNumber(stats.totalUsers) : '—'}
          icon={<Users className="size-4" aria-hidden />}
        />
        <StatTile
          label={t('users.statActive')}
          value={stats ? formatNumber(stats.activeUsers) : '—'}
          icon={<UserCheck className="size-4" aria-hidden />}
        />
        <StatTile
          label={t('users.statBalance')}
          value={stats ? formatMoney(stats.totalBalance, { decimals: 4 }) : '—'}
          icon={<Wallet className="size-4" aria-hidden />}
        />
        <StatTile
          label={t('users.statNew')}
          value={stats ? formatNumber(stats.newUsers7d) : '—'}
          icon={<UserPlus className="size-4" aria-hidden />}
        />
      </div>

      {done ? (
        <Notice tone="success" className="mb-4" onDismiss={() => setDone(null)}>
          {done}
        </Notice>
      ) : null}

      <Card flush>
        <div className="border-b border-line p-3">
          <SearchInput
            className="sm:max-w-sm"
            value={search}
            maxLength={USER_LIMITS.search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t('users.searchPlaceholder')}
            aria-label={t('users.search')}
          />
        </div>
        <DataTable
          caption={t('users.tableCaption')}
          columns={columns}
          rows={data?.users}
          rowKey={(u) => u.id}
          loading={users.isFetching}
          error={users.isError && !data ? users.error : undefined}
          errorTitle={t('users.loadFailedTitle')}
          onRetry={() => users.refetch()}
          emptyText={t('users.empty')}
          sort={sort}
          onSortChange={(s) => {
            if (!SORTABLE.includes(s.key)) return;
            setUrl({ sort: s.key, dir: s.dir, page: '1' });
          }}
          phoneCards
        />
        <div className="border-t border-line p-3">
          <Pager
            page={data?.page ?? page}
            totalPages={data?.totalPages ?? 1}
            totalEstimated={data?.totalEstimated}
            onPageChange={(p) => {
              anchors.keep(data);
              setUrl({ page: String(p) });
            }}
            disabled={users.isFetching}
            pageSize={pageSize}
            pageSizes={USER_PAGE_SIZES}
            onPageSizeChange={(size) => setUrl({ size: String(size), page: '1' })}
          />
        </div>
      </Card>

      {editing ? (
        <UserFormModal
          user={editing.user}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            setDone(t(created ? 'users.created' : 'users.updated', { name: saved.username }));
            // The admin may have changed their own balance.
            void session.refresh();
          }}
        />
      ) : null}

      {limiting ? (
        <SmppLimitsDialog
          user={limiting}
          onClose={() => setLimiting(null)}
          onSaved={() => {
            notify.success(t('users.smppSaved', { name: limiting.username }));
            setLimiting(null);
          }}
        />
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        title={t('users.deleteTitle')}
        message={deleting ? t('users.deleteConfirm', { name: deleting.username }) : undefined}
        confirmLabel={t('users.delete')}
        tone="danger"
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />

      <ConfirmDialog
        open={resetting !== null}
        title={t('sf.reset')}
        message={resetting ? t('sf.resetConfirm', { name: resetting.username }) : undefined}
        confirmLabel={t('sf.reset')}
        tone="danger"
        busy={reset.isPending}
        error={reset.isError ? errorMessage(reset.error) : undefined}
        onConfirm={confirmReset}
        onCancel={() => setResetting(null)}
      />
    </>
  );
}
