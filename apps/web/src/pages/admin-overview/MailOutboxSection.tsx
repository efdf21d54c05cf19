import { Card } from '../../components/Card.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMailOutbox } from './api.ts';

/**
 * The demo's outbox on the admin overview: the mails a server without SMTP_URL kept instead of
 * sending (a reset link among them), so a newcomer can follow password recovery end to end. Shown
 * only when the server keeps mails (demo, development); a server that sends or cannot send shows
 * nothing here.
 */
export function MailOutboxSection() {
  const { t } = useI18n();
  const outbox = useMailOutbox();
  if (outbox.data?.mode !== 'outbox') return null;
  const mails = outbox.data.mails;
  return (
    <Card title={t('outbox.title')} description={t('outbox.description')} className="mt-5" id="outbox">
      {mails.length === 0 ? (
        <p className="text-sm text-muted">{t('outbox.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {mails.map((m) => (
            <li key={m.id} className="rounded-md border border-line p-3">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                <h3 className="text-sm font-semibold text-fg">{m.subject}</h3>
                <span className="text-xs text-muted">{formatDateTime(m.at)}</span>
              </div>
              <p className="mt-0.5 text-xs text-muted">{t('outbox.to', { to: m.to })}</p>
              <pre className="mt-2 whitespace-pre-wrap break-all font-sans text-[13px] text-fg">{m.text}</pre>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
