import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { cx } from '../lib/cx.ts';

export interface TabItem<V extends string> {
  value: V;
  label: ReactNode;
  content: ReactNode;
}

export interface TabsProps<V extends string> {
  /** The tab list's accessible name (e.g. 'Recipients'). */
  label: string;
  items: TabItem<V>[];
  value: V;
  onValueChange: (value: V) => void;
  className?: string;
}

/**
 * Tabs (Radix): arrow keys move between tabs, Tab goes into the panel; the active tab is underlined.
 *   <Tabs label="Recipients" value={tab} onValueChange={setTab} items={[{ value, label, content }]} />
 */
export function Tabs<V extends string>({ label, items, value, onValueChange, className }: TabsProps<V>) {
  return (
    <RadixTabs.Root value={value} onValueChange={(v) => onValueChange(v as V)} className={className}>
      <RadixTabs.List aria-label={label} className="mb-3 flex gap-1 border-b border-line">
        {items.map((item) => (
          <RadixTabs.Trigger
            key={item.value}
            value={item.value}
            className={cx(
              '-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-muted',
              'hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/40 rounded-t-md',
              'data-[state=active]:border-accent data-[state=active]:text-fg',
            )}
          >
            {item.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        <RadixTabs.Content key={item.value} value={item.value} className="focus-visible:outline-none">
          {item.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
