import { normalizePhoneNumber, type Service, type SpentNumber, TEXT_LIMITS } from '@simdock/contract';
import { Ban, RotateCcw, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, errorMessage } from '../../api/client.ts';
import {
  Button,
  type Column,
  ConfirmDialog,
  DataTable,
  FormField,
  Input,
  Modal,
  Notice,
  notify,
  SearchInput,
} from '../../components/index.ts';
import { type TFunction, useI18n } from '../../i18n/index.tsx';
import { formatDateTime, formatPhone } from '../../lib/format.ts';
import { fieldErrorText, keyResolver } from '../../lib/forms.ts';
import {
  useMarkSpentMutation,
  useReturnAllToPoolMutation,
  useReturnToPoolMutation,
  useSpentNumbersQuery,
  useUnmarkSpentMutation,
} from './api.ts';

export interface SpentNumbersDialogProps {
  service: Pick<Service, 'id' | 'name'>;
  onClose: () => void;
}

/** Why a number is spent, in words (and the admin's mark when its orders spent it too). */
function whyText(t: TFunction, n: SpentNumber): { main: string; also?: string } {
  const mark = n.mark ? { by: n.mark.markedBy, reason: n.mark.reason } : undefined;
  if (n.reason === 'admin') return { main: t('services.spentWhyAdmin', mark ?? { by: '', reason: '' }) };
  const main =
    n.reason === 'code'
      ? t('services.spentWhyCode')
      : n.reason === 'sms'
        ? t('services.spentWhySms')
        : t('services.spentWhyLimit', { rentals: n.rentals });
  return mark ? { main, also: t('services.spentAlsoMarked', mark) } : { main };
}

interface MarkValues {
  phoneNumber: string;
  reason: string;
}
const EMPTY_MARK: MarkValues = { phoneNumber: '', reason: '' };

/** The contract's rules for a mark: the number as the server reads it, a reason within its limit. */
const markResolver = keyResolver<MarkValues>((v) => {
  const reason = v.reason.trim();
  return {
    phoneNumber: normalizePhoneNumber(v.phoneNumber) ? undefined : 'services.spentPhoneInvalid',
    reason: reason && reason.length <= TEXT_LIMITS.spentReason ? undefined : 'services.spentReasonRequired',
  };
});

/**
 * Service Manager → a service's spent numbers (the number reuse rule): why each is spent, a form to
 * mark one spent with a reason (e.g. the service banned it), "Undo mark" on admins' marks, and
 * "Return to pool" (one number, or all the reuse limit spent), each after a confirmation. A number
 * that received an SMS of the service is returned only after a warning; one with a code never.
 */
export function SpentNumbersDialog({ service, onClose }: SpentNumbersDialogProps) {
  const { t } = useI18n();
  const [search, setSearch] = useState('');
  const list = useSpentNumbersQuery(service.id, search.trim());
  const mark = useMarkSpentMutation();
  const unmark = useUnmarkSpentMutation();
  const giveBack = useReturnToPoolMutation();
  const giveAllBack = useReturnAllToPoolMutation();
  /** The number whose return is being confirmed, or 'all' for every number the reuse limit spent. */
  const [confirming, setConfirming] = useState<SpentNumber | 'all' | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<MarkValues>({ defaultValues: EMPTY_MARK, resolver: markResolver });

  const submit = handleSubmit((v) => {
    const number = normalizePhoneNumber(v.phoneNumber)!;
    mark.mutate(
      { serviceId: service.id, phoneNumber: number, reason: v.reason.trim() },
      {
        onSuccess: () => {
          reset(EMPTY_MARK);
          notify.success(t('services.spentMarked', { number: formatPhone(number), name: service.name }));
        },
        onError: (err) => {
          if (err instanceof ApiError && (err.field === 'phoneNumber' || err.field === 'reason')) {
            setError(err.field, { type: 'server', message: err.message }, { shouldFocus: true });
          }
        },
      },
    );
  });
  const markBanner =
    mark.isError && !(mark.error instanceof ApiError && mark.error.field)
      ? errorMessage(mark.error)
      : undefined;

  const undo = (n: SpentNumber) =>
    unmark.mutate(
      { serviceId: service.id, phoneNumber: n.phoneNumber },
      {
        onSuccess: () => notify.success(t('services.spentUnmarked', { number: formatPhone(n.phoneNumber) })),
        onError: (err) => notify.error(errorMessage(err)),
      },
    );

  const closeConfirm = () => {
    giveBack.reset();
    giveAllBack.reset();
    setConfirming(null);
  };
  const confirmReturn = () => {
    if (confirming === 'all') {
      giveAllBack.mutate(
        { serviceId: service.id },
        {
          onSuccess: (res) => {
            notify.success(t('services.returnAllDone', { count: res.returned, name: service.name }));
            setConfirming(null);
          },
        },
      );
    } else if (confirming) {
      const n = confirming;
      giveBack.mutate(
        {
          serviceId: service.id,
          phoneNumber: n.phoneNumber,
          ...(n.reason === 'sms' ? { includeSms: true } : {}),
        },
        {
          onSuccess: () => {
            notify.success(
              t('services.returnDone', { number: formatPhone(n.phoneNumber), name: service.name }),
            );
            setConfirming(null);
          },
        },
      );
    }
  };
  const returnError = giveBack.isError
    ? errorMessage(giveBack.error)
    : giveAllBack.isError
      ? errorMessage(giveAllBack.error)
      : undefined;

  const columns: Column<SpentNumber>[] = [
    {
      key: 'number',
      header: t('services.spentColNumber'),
      className: 'whitespace-nowrap',
      cell: (n) => (
        <span className="font-mono text-[13px]" data-value={n.phoneNumber}>
          {formatPhone(n.phoneNumber)}
        </span>
      ),
    },
    {
      key: 'why',
      header: t('services.spentColWhy'),
      className: 'min-w-48',
      cell: (n) => {
        const why = whyText(t, n);
        return (
          <div className="flex flex-col gap-0.5">
            <span className="break-words">{why.main}</span>
            {why.also ? <span className="text-xs text-muted break-words">{why.also}</span> : null}
          </div>
        );
      },
    },
    {
      key: 'since',
      header: t('services.spentColSince'),
      className: 'whitespace-nowrap',
      cell: (n) => <span className="tabular">{formatDateTime(n.at)}</span>,
    },
    {
      key: 'actions',
      header: t('services.colActions'),
      align: 'right',
      className: 'whitespace-nowrap',
      cell: (n) => (
        <div className="flex flex-wrap justify-end gap-2">
          {n.reason === 'limit' || n.reason === 'sms' ? (
            <Button
              size="sm"
              icon={<RotateCcw className="size-3.5" aria-hidden />}
              aria-label={t('services.returnNamed', { number: formatPhone(n.phoneNumber) })}
              onClick={() => setConfirming(n)}
            >
              {t('services.returnShort')}
            </Button>
          ) : null}
          {n.mark ? (
            <Button
              size="sm"
              icon={<Undo2 className="size-3.5" aria-hidden />}
              aria-label={t('services.spentUndoNamed', { number: formatPhone(n.phoneNumber) })}
              disabled={unmark.isPending}
              onClick={() => undo(n)}
            >
              {t('services.spentUndo')}
            </Button>
          ) : null}
        </div>
      ),
    },
  ];

  const data = list.data;
  return (
    <Modal
      open
      size="lg"
      title={t('services.spentTitle', { name: service.name })}
      onClose={onClose}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <div className="flex flex-col gap-4">
        <p className="text-sm text-muted">{t('services.spentIntro', { limit: data?.reuseLimit ?? '…' })}</p>

        <form className="rounded-md border border-line p-3" noValidate onSubmit={submit}>
          <h3 className="mb-3 text-sm font-semibold text-fg">{t('services.spentMarkTitle')}</h3>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-[12rem_1fr]">
            <FormField label={t('services.spentPhone')} error={fieldErrorText(t, errors.phoneNumber)}>
              <Input
                autoComplete="off"
                inputMode="tel"
                className="font-mono"
                maxLength={TEXT_LIMITS.phoneNumber}
                {...register('phoneNumber')}
              />
            </FormField>
            <FormField
              label={t('services.spentReason')}
              hint={t('services.spentReasonHint')}
              error={fieldErrorText(t, errors.reason)}
            >
              <Input autoComplete="off" maxLength={TEXT_LIMITS.spentReason} {...register('reason')} />
            </FormField>
          </div>
          <div className="mt-3 flex justify-end">
            <Button
              type="submit"
              variant="danger"
              icon={<Ban className="size-4" aria-hidden />}
              busy={mark.isPending}
              busyLabel={t('common.saving')}
            >
              {t('services.spentMark')}
            </Button>
          </div>
          {markBanner ? (
            <Notice tone="error" className="mt-3">
              {markBanner}
            </Notice>
          ) : null}
        </form>

        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <SearchInput
            className="sm:max-w-xs sm:flex-1"
            value={search}
            maxLength={TEXT_LIMITS.phoneNumber}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t('services.spentSearchPlaceholder')}
            aria-label={t('services.spentSearch')}
          />
          <Button
            icon={<RotateCcw className="size-4" aria-hidden />}
            onClick={() => setConfirming('all')}
            disabled={!data || data.total === 0}
          >
            {t('services.returnAll')}
          </Button>
        </div>
        <div className="rounded-md border border-line">
          <DataTable
            caption={t('services.spentCaption')}
            columns={columns}
            rows={data?.numbers}
            rowKey={(n) => n.phoneNumber}
            loading={list.isFetching}
            error={list.isError && !data ? list.error : undefined}
            errorTitle={t('services.spentLoadFailed')}
            onRetry={() => list.refetch()}
            emptyText={t('services.spentEmpty')}
            phoneCards
          />
        </div>
        {data && data.total > data.numbers.length ? (
          <p className="text-xs text-muted">
            {t('services.spentShowing', { shown: data.numbers.length, total: data.total })}
          </p>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming !== null}
        tone={confirming !== 'all' && confirming?.reason === 'sms' ? 'danger' : 'primary'}
        title={
          confirming === 'all'
            ? t('services.returnAllTitle', { name: service.name })
            : t('services.returnTitle', { number: confirming ? formatPhone(confirming.phoneNumber) : '' })
        }
        message={
          confirming === 'all'
            ? t('services.returnAllText', { name: service.name })
            : confirming?.reason === 'sms'
              ? t('services.returnSmsText', { name: service.name })
              : t('services.returnText', { name: service.name })
        }
        confirmLabel={confirming === 'all' ? t('services.returnAll') : t('services.returnToPool')}
        busy={giveBack.isPending || giveAllBack.isPending}
        error={returnError}
        onConfirm={confirmReturn}
        onCancel={closeConfirm}
      />
    </Modal>
  );
}
