// GET /health: in Local the phone's own checks (failed messages of the last hour, connection,
// battery), also the payload of system:ping; in Cloud/Private the server's, never the phone's.
import type { Mode } from './model.ts';
import { type MessageRecord, stateOfMessage } from './outbox.ts';

export interface Health {
  status: string;
  version: string;
  releaseId: number;
  checks: Record<string, ReturnType<typeof check>>;
}

/** The phone's own health, from the messages it sent. */
export function phoneHealth(messages: MessageRecord[], app: { version: string; releaseId: number }): Health {
  const hourAgo = Date.now() - 3_600_000;
  const recent = messages.filter((m) => m.createdAt >= hourAgo);
  const failed = recent.filter((m) => stateOfMessage(m) === 'Failed');
  const failedStatus = failed.length === 0 ? 'pass' : failed.length === recent.length ? 'fail' : 'warn';
  return {
    status: failedStatus,
    version: app.version,
    releaseId: app.releaseId,
    checks: {
      'messages:failed': check('Failed messages for last hour', 'messages', failed.length, failedStatus),
      'connection:status': check('Internet connection status', 'boolean', 1, 'pass'),
      'connection:transport': check('Network transport type', 'flags', 2, 'pass'),
      'connection:cellular': check('Cellular network type', 'index', 4, 'pass'),
      'battery:level': check('Battery level in percent', 'percent', 90, 'pass'),
      'battery:charging': check('Is the phone charging?', 'flags', 1, 'pass'),
    },
  };
}

/** The answer of GET /health: its HTTP status and body. */
export function healthReply(
  mode: Mode,
  messages: MessageRecord[],
  app: { version: string; releaseId: number },
): { status: number; json: Health } {
  if (mode === 'local') {
    const h = phoneHealth(messages, app);
    return { status: h.status === 'fail' ? 500 : 200, json: h };
  }
  return {
    status: 200,
    json: {
      status: 'pass',
      version: app.version,
      releaseId: app.releaseId,
      checks: { 'db:ping': check('Failed sequential pings count', 'unit', 0, 'pass') },
    },
  };
}

function check(description: string, observedUnit: string, observedValue: number, status: string) {
  return { description, observedUnit, observedValue, status };
}
