import { RE2JS } from 're2js';
import { PATTERN_MAX_LENGTH } from './api/services.ts';

/**
 * Service patterns are admin-written regular expressions run on every incoming SMS. They run on
 * RE2 (re2js, pure JavaScript, the same engine on the server and in the admin form), which matches
 * in time linear in the text whatever the pattern, so no pattern can hang the server. A pattern is
 * accepted exactly when RE2 compiles it (no back-references or look-arounds: RE2 has none).
 */
export function patternProblem(pattern: string): string | undefined {
  if (!pattern) return 'Pattern is required';
  if (pattern.length > PATTERN_MAX_LENGTH) return `Pattern must be at most ${PATTERN_MAX_LENGTH} characters`;
  try {
    RE2JS.compile(pattern);
  } catch (err) {
    return `Pattern is not a valid regular expression: ${(err as Error).message.replace(/^error parsing regexp: /, '')}`;
  }
  return undefined;
}

/** At most this many compiled patterns are kept (services are few; a flood of distinct ones starts over). */
const COMPILED_MAX = 500;
const compiledPatterns = new Map<string, RE2JS | null>();

/**
 * A pattern compiled once and reused: compiling costs more than matching an SMS, and a server
 * matches every incoming SMS against the same few service patterns. Null: it does not compile.
 */
function compiled(pattern: string): RE2JS | null {
  let re = compiledPatterns.get(pattern);
  if (re !== undefined) return re;
  try {
    re = RE2JS.compile(pattern);
  } catch {
    re = null;
  }
  if (compiledPatterns.size >= COMPILED_MAX) compiledPatterns.clear();
  compiledPatterns.set(pattern, re);
  return re;
}

/** SMS longer than this are cut before matching (an SMS is far shorter; bounds work per message). */
export const PATTERN_SCAN_MAX = 2000;

/**
 * The code in an SMS: the pattern's first capture group that matched when it has groups, otherwise
 * the whole match. Undefined when the SMS holds no code or the pattern does not compile.
 */
export function extractCode(text: string, pattern: string): string | undefined {
  const re = compiled(pattern);
  if (re === null) return undefined;
  const m = re.matcher(text.slice(0, PATTERN_SCAN_MAX));
  if (!m.find()) return undefined;
  let code: string | null = m.group(0);
  for (let g = 1; g <= re.groupCount(); g++) {
    const v = m.group(g);
    if (v !== null && v !== undefined) {
      code = v;
      break;
    }
    code = null;
  }
  return code === null || code === '' ? undefined : code;
}
