import { ADMIN_ROLE } from '@simdock/contract';
import { KeyRound, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { roleLabel } from '../../lib/labels.ts';
import { useSession } from '../../session/session.tsx';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';
import { SecondFactorCard } from './SecondFactorCard.tsx';

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-0.5 border-b border-line py-2.5 last:border-0 sm:grid-cols-[8.5rem_1fr] sm:items-center sm:gap-3">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words font-medium text-fg">{children}</dd>
    </div>
  );
}

/** /userinfo: username, email, creation date, and the change-password form. */
export function UserInfoPage() {
  const { t } = useI18n();
  const { user } = useSession();
  if (!user) return null; // The guard renders this page only with a user.
  return (
    <>
      <PageHeader title={t('userInfo.title')} subtitle={t('userInfo.subtitle')} />
      <div className="grid gap-5 lg:grid-cols-2">
        <Card title={t('userInfo.account')}>
          <dl data-testid="user-details">
            <Row label={t('userInfo.username')}>{user.username}</Row>
            <Row label={t('userInfo.email')}>{user.email}</Row>
            <Row label={t('userInfo.createdAt')}>
              <time dateTime={user.createdTime}>{formatDateTime(user.createdTime)}</time>
            </Row>
            <Row label={t('userInfo.roles')}>
              <span className="flex flex-wrap gap-1.5">
                {user.roles.map((r) => (
                  <StatusBadge key={r} tone={r === ADMIN_ROLE ? 'yellow' : 'grey'}>
                    {roleLabel(t, r)}
                  </StatusBadge>
                ))}
              </span>
            </Row>
            <Row label={t('userInfo.balance')}>
              <span className="tabular">{formatMoney(user.balance, { decimals: 4 })}</span>
            </Row>
          </dl>
          <div className="mt-4 flex flex-wrap gap-2">
            <Link to="/topup" className={buttonClass('secondary', 'sm')}>
              <Wallet className="size-4" aria-hidden />
              {t('userInfo.topUp')}
            </Link>
            <Link to="/apikey" className={buttonClass('secondary', 'sm')}>
              <KeyRound className="size-4" aria-hidden />
              {t('userInfo.manageApiKey')}
            </Link>
          </div>
        </Card>
        <Card title={t('userInfo.changePassword')} description={t('userInfo.changePasswordText')}>
          <ChangePasswordForm />
        </Card>
        <SecondFactorCard />
      </div>
    </>
  );
}
