import { Clock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime } from '../../lib/format.ts';

/** The dashboard clock: local date and time, ticking every second (docs/product.md#limits-and-timings). */
export function LiveClock() {
  const { t } = useI18n();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="flex items-center gap-2 rounded-md border border-line bg-surface px-3 py-1.5 shadow-xs">
      <Clock className="size-4 text-muted" aria-hidden />
      <span className="sr-only">{t('dashboard.clock')}</span>
      <time
        dateTime={now.toISOString()}
        className="font-mono text-[13px] text-fg tabular"
        data-testid="dashboard-clock"
      >
        {formatDateTime(now, { seconds: true })}
      </time>
    </div>
  );
}
