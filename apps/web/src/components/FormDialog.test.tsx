import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../i18n/index.tsx';
import { fieldErrorText, keyResolver } from '../lib/forms.ts';
import { FormDialog, type FormDialogProps } from './FormDialog.tsx';
import { FormField } from './FormField.tsx';
import { Input } from './Input.tsx';

/** A dialog with one required field, on react-hook-form as every form dialog is. */
function NameDialog({
  onSave,
  ...props
}: Partial<FormDialogProps> & { onSave: (name: string) => void; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ name: string }>({
    defaultValues: { name: '' },
    resolver: keyResolver((v: { name: string }) => ({
      name: v.name.trim() ? undefined : 'rule.nameRequired',
    })),
  });
  return (
    <I18nProvider initial="en">
      <FormDialog
        title="Add thing"
        intro="Things have names."
        submitLabel="Create"
        onSubmit={handleSubmit((v) => onSave(v.name))}
        {...props}
      >
        <FormField label="Name" error={fieldErrorText((k) => k, errors.name)}>
          <Input {...register('name')} />
        </FormField>
        <FormField label="Note">
          <Input name="note" />
        </FormField>
      </FormDialog>
    </I18nProvider>
  );
}

describe('FormDialog: the shell of every form dialog', () => {
  it('title, intro, fields, Cancel + submit; focus on the first field; Enter submits once the form holds', async () => {
    const onSave = vi.fn();
    const onClose = vi.fn();
    render(<NameDialog onSave={onSave} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Add thing' });
    expect(within(dialog).getByText('Things have names.')).toBeTruthy();
    const name = within(dialog).getByLabelText('Name');
    await waitFor(() => expect(document.activeElement).toBe(name));

    fireEvent.submit(name.closest('form')!);
    // The resolver's catalogue key is shown under the field (here through an identity t()).
    expect(await within(dialog).findByText('rule.nameRequired')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(onSave).not.toHaveBeenCalled();

    fireEvent.change(name, { target: { value: 'Lamp' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith('Lamp'));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('while pending: the busy label, Cancel disabled, Esc does not close, no second submit', async () => {
    const onSave = vi.fn();
    const onClose = vi.fn();
    const onSubmit = vi.fn();
    render(
      <NameDialog onSave={onSave} onClose={onClose} pending pendingLabel="Creating…" onSubmit={onSubmit} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Add thing' });
    const busy = within(dialog).getByRole('button', { name: 'Creating…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect((within(dialog).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.submit(dialog.querySelector('form')!);
    expect(onClose).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the error line above the footer, and keeps the submit button disabled when asked', async () => {
    render(
      <NameDialog
        onSave={() => {}}
        onClose={() => {}}
        submitDisabled
        error="Another thing already has this name."
        errorTitle="Save failed"
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Add thing' });
    const alert = within(dialog).getByRole('alert');
    expect(alert.textContent).toBe('Save failed Another thing already has this name.');
    expect((within(dialog).getByRole('button', { name: 'Create' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
