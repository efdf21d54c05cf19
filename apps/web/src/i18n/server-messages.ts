import {
  type ErrorCode,
  type MessagingMessageKey,
  messagingMessages,
  type RuleMessageKey,
  ruleMessages,
} from '@simdock/contract';
import type { MessageKey } from './en.ts';
import type { Language, Params } from './index.tsx';

/** A contract message found in a text: its catalogue key and the values of its `{params}`. */
export interface ContractText {
  key: `rule.${RuleMessageKey}` | `messaging.${MessagingMessageKey}`;
  params?: Params;
}

const ruleByText = new Map<string, `rule.${RuleMessageKey}`>(
  Object.entries(ruleMessages).map(([key, text]) => [text, `rule.${key as RuleMessageKey}`]),
);

interface Template {
  key: `messaging.${MessagingMessageKey}`;
  names: string[];
  pattern: RegExp;
}
let templates: Template[] | undefined;

/** The messaging templates as anchored patterns: literal text as it is, each `{name}` as any text. */
function messagingTemplates(): Template[] {
  templates ??= Object.entries(messagingMessages).map(([key, template]) => {
    const names: string[] = [];
    const source = template
      .split(/\{(\w+)\}/)
      .map((part, i) => {
        if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(part);
        return '([\\s\\S]*?)';
      })
      .join('');
    return { key: `messaging.${key as MessagingMessageKey}`, names, pattern: new RegExp(`^${source}$`) };
  });
  return templates;
}

/**
 * The contract message a text is: exactly a rule text (`ruleMessages`), or a messaging template
 * (`messagingMessages`) with its `{params}` filled in. Undefined for any other text.
 */
export function contractTextOf(text: string): ContractText | undefined {
  const rule = ruleByText.get(text);
  if (rule) return { key: rule };
  for (const { key, names, pattern } of messagingTemplates()) {
    const match = pattern.exec(text);
    if (match) return { key, params: Object.fromEntries(names.map((name, i) => [name, match[i + 1]!])) };
  }
  return undefined;
}

/**
 * Whether a code has the shape of an error code. The catalogue lookup decides whether it is one (an
 * unknown code has no entry); the contract's ERROR_CODES list stays out of the sign-in bundle.
 */
export function isErrorCode(code: string): code is ErrorCode {
  return /^[a-z][a-z_]*$/.test(code);
}

/** Looks a key up in the shown language; answers the key itself when no catalogue has it. */
export type Translate = (key: MessageKey, params?: Params) => string;

/** A contract text in the shown language, or undefined when it is none (or its text is not loaded). */
export function localContractText(text: string, tr: Translate): string | undefined {
  const known = contractTextOf(text);
  if (!known) return undefined;
  const shown = tr(known.key, known.params);
  return shown === known.key ? undefined : shown;
}

/**
 * The message to show for a refusal the server explained (`msg`, with its error `code`):
 *   1. a contract rule or messaging text → that key's text in the shown language, with its params;
 *   2. else, in a language other than English, the code's entry of the catalogue (`errorCode.<code>`):
 *      the server writes English;
 *   3. else the server's text as it is.
 */
export function serverErrorText(
  error: { msg: string; code?: string | undefined },
  lang: Language,
  tr: Translate,
): string {
  const contract = localContractText(error.msg, tr);
  if (contract !== undefined) return contract;
  if (lang !== 'en' && error.code && isErrorCode(error.code)) {
    const key = `errorCode.${error.code}` as const;
    const shown = tr(key);
    if (shown !== key) return shown;
  }
  return error.msg;
}
