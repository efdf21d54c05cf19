import { DEVICE_RESULT_CODE, SCREEN_CODES } from '@simdock/contract';

/**
 * Whether a contract code looks like a machine's word rather than a person's: snake_case
 * (cancelled_by_user, WAIT_CODE), a letter run ending in digits (Admin9), camelCase (isDefault) or a
 * dotted name (user.create). Plain words the contract also uses as codes ("User", "Active", "both",
 * "PENDING", the top-up page's spec status) are texts a screen may show, so they are not checked.
 */
const codeShaped = (code: string) => /_|[A-Za-z]\d|[a-z][A-Z]|\w\.\w/.test(code);

const CODES = new Set(SCREEN_CODES.filter(codeShaped));

/** The raw codes in a page's texts: contract codes shown as they are, and phones' result codes. */
export function rawCodesIn(texts: readonly string[]): string[] {
  const text = texts.join('\n');
  const words = text.match(/[A-Za-z][\w.]*\w/g) ?? [];
  const found = words.filter((w) => CODES.has(w));
  found.push(...(text.match(DEVICE_RESULT_CODE) ?? []));
  return [...new Set(found)];
}
