import { Search } from 'lucide-react';
import type { InputHTMLAttributes, Ref } from 'react';
import { cx } from '../lib/cx.ts';
import { Input } from './Input.tsx';

/**
 * A list's search box: a search field with the magnifier inside it. `className` places and sizes the
 * box (e.g. `sm:max-w-sm`); a visible label is not drawn, so give it an `aria-label`.
 */
export function SearchInput({
  className,
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  'aria-label': string;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <div className={cx('relative', className)}>
      <Search
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted"
        aria-hidden
      />
      <Input type="search" className="pl-8" {...rest} />
    </div>
  );
}
