import type { MessageKey, Params } from '../i18n/index.tsx';

type Translate = (key: MessageKey, params?: Params) => string;

/**
 * The readable name of a raw code (an audit action, a field, a role, a provider status) from the
 * catalogue entry `<prefix><code>`; a code the catalogue does not know yet shows as itself.
 */
export function codeLabel(t: Translate, prefix: string, code: string): string {
  const key = `${prefix}${code}` as MessageKey;
  const text = t(key);
  return text === key ? code : text;
}

/** A role's name for people ("Administrator" for Admin9); the role value itself stays as it is. */
export function roleLabel(t: Translate, role: string): string {
  return codeLabel(t, 'users.role.', role);
}
