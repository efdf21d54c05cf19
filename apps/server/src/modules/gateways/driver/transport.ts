import { GatewayError } from './driver.ts';

// What every driver's HTTP calls share: a failed fetch in words a person can act on.

/**
 * A fetch failure as a GatewayError: `timeout` when no answer came in time, `network` otherwise.
 * The text never carries the URL, and `secret` (the password) is scrubbed out of anything from below.
 */
export function transportError(err: unknown, timeoutMs: number, secret: string): GatewayError {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    return new GatewayError('timeout', `no answer within ${Math.round(timeoutMs / 100) / 10} s`);
  }
  const code = e?.cause?.code;
  const why =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'host name not found'
        : code === 'EHOSTUNREACH' || code === 'ENETUNREACH'
          ? 'host unreachable'
          : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
            ? 'connection reset'
            : (code ?? e?.cause?.message ?? e?.message ?? 'network error');
  return new GatewayError('network', secret ? why.split(secret).join('[redacted]') : why);
}
