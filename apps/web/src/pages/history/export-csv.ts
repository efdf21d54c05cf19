import { HISTORY_MAX_PAGE_SIZE, type HistoryRecord, type QueryMsgBody } from '@simdock/contract';
import Papa from 'papaparse';
import { fetchHistory } from './api.ts';

/** Every record of the filter, page by page (the largest page size), for the CSV export. */
export async function allRecords(params: QueryMsgBody['params']): Promise<HistoryRecord[]> {
  const out: HistoryRecord[] = [];
  for (let current = 1; ; current++) {
    const page = await fetchHistory({ current, size: HISTORY_MAX_PAGE_SIZE, params });
    out.push(...page.data.records);
    if (page.data.records.length < HISTORY_MAX_PAGE_SIZE || out.length >= page.data.total) return out;
  }
}

/** CSV of the records (a spreadsheet-safe text: cells starting with = + - @ are quoted as text). */
export function recordsCsv(records: HistoryRecord[], withGateway: boolean): string {
  const safe = (v: string | null) => {
    const s = v ?? '';
    return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  };
  const rows = records.map((r) => ({
    time: new Date(r.timestamp * 1000).toISOString(),
    receiver: r.receiver,
    message: safe(r.sms),
    sender: safe(r.userAlias),
    status: r.status === 1 ? 'success' : r.status === 0 ? 'failed' : 'pending',
    reason: safe(r.statusReason),
    ...(withGateway ? { gateway: safe(r.smsGateway), port: safe(r.smsPort) } : {}),
  }));
  const fields = [
    'time',
    'receiver',
    'message',
    'sender',
    'status',
    'reason',
    ...(withGateway ? ['gateway', 'port'] : []),
  ];
  return Papa.unparse({
    fields,
    data: rows.map((r) => fields.map((f) => (r as Record<string, string>)[f] ?? '')),
  });
}

export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([`\ufeff${text}`], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
