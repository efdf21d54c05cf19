import * as Menu from '@radix-ui/react-dropdown-menu';
import { LoaderCircle, MoreHorizontal } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';
import { Button, buttonClass } from './Button.tsx';

export interface RowAction {
  /** Unique in the row. */
  key: string;
  label: string;
  /** A lucide icon, size-4. */
  icon?: ReactNode;
  /** What the action does (not needed with `href`). */
  onSelect?: () => void;
  /** Red text (Delete…): the one destructive style. */
  destructive?: boolean;
  disabled?: boolean;
  /** Work in progress: spinner and `busyLabel`. */
  busy?: boolean;
  busyLabel?: string;
  /** A link instead of a button (Details): opens in a new tab with a middle click too. */
  href?: string;
  /** Props for the inline button (aria-expanded for a toggle…). */
  pressed?: boolean;
}

export interface RowActionsProps {
  /** The row's name: the group is labelled "Actions for {name}". */
  name: string;
  actions: RowAction[];
  /** How many actions show as buttons; the rest go into the "More actions" menu. Default 2. */
  inline?: number;
  className?: string;
}

const DESTRUCTIVE = 'text-bad! hover:bg-bad-soft!';

/**
 * One style for the actions of a table row or card: the first `inline` actions as small
 * icon buttons with their labels, the others in a "More actions" menu (Radix DropdownMenu: keyboard,
 * focus and Esc handled). Destructive actions are red text, inline or in the menu.
 */
export function RowActions({ name, actions, inline = 2, className }: RowActionsProps) {
  const { t } = useI18n();
  const shown = actions.slice(0, inline);
  const more = actions.slice(inline);
  return (
    <fieldset
      aria-label={t('state.actionsFor', { name })}
      className={cx('flex min-w-0 flex-wrap items-center justify-end gap-1.5', className)}
    >
      {shown.map((a) => {
        const cls = cx(a.destructive && DESTRUCTIVE);
        if (a.href)
          return (
            <Link key={a.key} to={a.href} className={buttonClass('secondary', 'sm', cls)}>
              {a.icon}
              {a.label}
            </Link>
          );
        return (
          <Button
            key={a.key}
            size="sm"
            variant={a.destructive ? 'ghost' : a.pressed ? 'primary' : 'secondary'}
            className={cls}
            icon={a.icon}
            busy={a.busy}
            busyLabel={a.busyLabel}
            disabled={a.disabled}
            aria-pressed={a.pressed}
            onClick={a.onSelect}
          >
            {a.label}
          </Button>
        );
      })}
      {more.length ? (
        <Menu.Root modal={false}>
          <Menu.Trigger asChild>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`${t('state.moreActions')}: ${name}`}
              icon={<MoreHorizontal className="size-4" aria-hidden />}
            />
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content
              align="end"
              sideOffset={4}
              className="z-50 min-w-44 rounded-lg border border-line bg-surface p-1 shadow-lg"
            >
              {more.map((a, i) => (
                <div key={a.key}>
                  {a.destructive && i > 0 ? <Menu.Separator className="my-1 h-px bg-line" /> : null}
                  <Menu.Item
                    asChild={Boolean(a.href)}
                    disabled={a.disabled || a.busy}
                    onSelect={a.onSelect}
                    className={cx(
                      'flex cursor-pointer items-center gap-2 rounded-md px-2.5 py-1.5 text-sm outline-none select-none',
                      'data-[highlighted]:bg-subtle data-[disabled]:cursor-not-allowed data-[disabled]:opacity-55',
                      a.destructive ? 'text-bad data-[highlighted]:bg-bad-soft' : 'text-fg',
                    )}
                  >
                    {a.href ? (
                      <Link to={a.href}>
                        {a.icon}
                        {a.label}
                      </Link>
                    ) : (
                      <>
                        {a.busy ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : a.icon}
                        {a.busy && a.busyLabel ? a.busyLabel : a.label}
                      </>
                    )}
                  </Menu.Item>
                </div>
              ))}
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
      ) : null}
    </fieldset>
  );
}
