// The rules of a POST /messages body (docs/devices-smsgate.md): one of the three message forms,
// recipients, SIM number, validity and priority.
import { isE164 } from './model.ts';

export interface ValidMessage {
  id: string | undefined;
  deviceId: string | undefined;
  text: string | null;
  data: { data: string; port: number } | null;
  phoneNumbers: string[];
  simNumber: number | null;
  withDeliveryReport: boolean;
  isEncrypted: boolean;
  priority: number;
}

/** Checks a POST /messages body; a string is the 400 message. Unknown fields are ignored. */
export function validateMessage(
  b: Record<string, unknown>,
  opts: { skipPhoneValidation: boolean },
): ValidMessage | string {
  const forms = ['textMessage', 'dataMessage', 'message'].filter((k) => b[k] !== undefined && b[k] !== null);
  if (forms.length !== 1) return 'exactly one of textMessage, dataMessage or message is required';
  let text: string | null = null;
  let data: ValidMessage['data'] = null;
  if (b.message !== undefined && b.message !== null) {
    if (typeof b.message !== 'string') return 'message must be a string';
    text = b.message;
  } else if (b.textMessage !== undefined && b.textMessage !== null) {
    const t = b.textMessage as { text?: unknown };
    if (typeof t !== 'object' || typeof t.text !== 'string') return 'textMessage.text is required';
    text = t.text;
  } else {
    const d = b.dataMessage as { data?: unknown; port?: unknown };
    if (typeof d !== 'object' || typeof d.data !== 'string' || !Number.isInteger(d.port)) {
      return 'dataMessage needs data and port';
    }
    const port = d.port as number;
    if (port < 1 || port > 65535) return 'dataMessage.port must be 1-65535';
    data = { data: d.data, port };
  }
  if (text !== null && (text.length < 1 || text.length > 65535)) {
    return 'text must be 1-65535 characters';
  }
  const isEncrypted = b.isEncrypted === true;
  const nums = b.phoneNumbers;
  if (!Array.isArray(nums) || nums.length < 1 || nums.length > 100) {
    return 'phoneNumbers must have 1-100 entries';
  }
  for (const n of nums) {
    if (typeof n !== 'string' || n.length === 0 || n.length > 128) return 'invalid phone number';
    if (!opts.skipPhoneValidation && !isEncrypted && !isE164(n)) {
      return `invalid phone number: ${n}`;
    }
  }
  if (b.id !== undefined && b.id !== null && (typeof b.id !== 'string' || b.id === '' || b.id.length > 36)) {
    return 'id must be a string of at most 36 characters';
  }
  if (b.deviceId !== undefined && b.deviceId !== null && typeof b.deviceId !== 'string') {
    return 'deviceId must be a string';
  }
  const sim = b.simNumber;
  if (
    sim !== undefined &&
    sim !== null &&
    (!Number.isInteger(sim) || (sim as number) < 1 || (sim as number) > 3)
  ) {
    return 'simNumber must be 1-3';
  }
  const hasTtl = b.ttl !== undefined && b.ttl !== null;
  const hasValidUntil = b.validUntil !== undefined && b.validUntil !== null;
  if (hasTtl && hasValidUntil) return 'ttl and validUntil are mutually exclusive';
  if (hasTtl && (typeof b.ttl !== 'number' || b.ttl < 5)) return 'ttl must be at least 5 seconds';
  const priority = b.priority ?? 0;
  if (!Number.isInteger(priority) || (priority as number) < -128 || (priority as number) > 127) {
    return 'priority must be -128..127';
  }
  return {
    id: typeof b.id === 'string' ? b.id : undefined,
    deviceId: typeof b.deviceId === 'string' ? b.deviceId : undefined,
    text,
    data,
    phoneNumbers: nums as string[],
    simNumber: typeof sim === 'number' ? sim : null,
    withDeliveryReport: b.withDeliveryReport !== false,
    isEncrypted,
    priority: priority as number,
  };
}
