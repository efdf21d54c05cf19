/** Joins class names, skipping falsy ones: cx('a', busy && 'opacity-50'). */
export function cx(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(' ');
}
