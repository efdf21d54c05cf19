import { ComingSoon } from '../../components/ComingSoon.tsx';
import { useI18n } from '../../i18n/index.tsx';

/** Placeholder: replace this file with the real screen (spec §2). Its route and guard already exist. */
export function SmsSendingPage() {
  const { t } = useI18n();
  return <ComingSoon title={t('nav.smsSending')} />;
}
