import { endpoints, type QueryMsgBody } from '@simdock/contract';
import { callText } from '../../api/client.ts';

/** POST /api/MassOutreach/exportmsg {params}: the filtered records as CSV, made by the server. */
export function fetchHistoryCsv(params: QueryMsgBody['params']): Promise<string> {
  return callText(endpoints.history.exportMsg, { params });
}

/** Saves a text as a file through the browser's download. */
export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
