import { Plus } from 'lucide-react';
import type { ButtonProps } from './Button.tsx';
import { Button } from './Button.tsx';

/**
 * The "Add …" button of every manager screen's header: primary, a plus icon, the label. A leading
 * "+ " in the label (the spec writes '+ Add Service') is drawn as the icon.
 */
export function AddButton({
  children,
  ...rest
}: Omit<ButtonProps, 'icon' | 'variant'> & { children: string }) {
  return (
    <Button variant="primary" icon={<Plus className="size-4" aria-hidden />} {...rest}>
      {children.replace(/^\+\s*/, '')}
    </Button>
  );
}
