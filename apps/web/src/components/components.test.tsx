import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../i18n/index.tsx';
import { DataTable, sortRows } from './DataTable.tsx';
import { FormField } from './FormField.tsx';
import { Input } from './Input.tsx';
import { ConfirmDialog } from './Modal.tsx';
import { Notice } from './Notice.tsx';
import { Pager } from './Pager.tsx';
import { StatTile } from './StatTile.tsx';
import { StatusBadge } from './StatusBadge.tsx';

const wrap = (ui: ReactNode) => render(<I18nProvider initial="en">{ui}</I18nProvider>);

describe('shared components', () => {
  it('DataTable shows skeleton, empty text, rows and an error', () => {
    const columns = [{ key: 'name', header: 'Name', cell: (r: { id: string }) => r.id }];
    const { rerender, container } = wrap(
      <DataTable columns={columns} rows={undefined} loading rowKey={(r) => r.id} />,
    );
    expect(container.querySelectorAll('.animate-pulse').length).toBeGreaterThan(0);
    rerender(
      <I18nProvider initial="en">
        <DataTable columns={columns} rows={[]} rowKey={(r) => r.id} emptyText="No services found" />
      </I18nProvider>,
    );
    expect(screen.getByText('No services found')).toBeTruthy();
    rerender(
      <I18nProvider initial="en">
        <DataTable columns={columns} rows={[{ id: 'a' }, { id: 'b' }]} rowKey={(r) => r.id} />
      </I18nProvider>,
    );
    expect(screen.getAllByRole('row')).toHaveLength(3);
    rerender(
      <I18nProvider initial="en">
        <DataTable columns={columns} rows={[{ id: 'a' }]} rowKey={(r) => r.id} error="Load failed" />
      </I18nProvider>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Load failed');
  });

  it('sortRows sorts numbers numerically and text without case', () => {
    const rows = [
      { n: 10, s: 'b' },
      { n: 9, s: 'A' },
      { n: 100, s: 'c' },
    ];
    expect(sortRows(rows, { key: 'n', dir: 'asc' }, (r, k) => r[k as 'n']).map((r) => r.n)).toEqual([
      9, 10, 100,
    ]);
    expect(sortRows(rows, { key: 's', dir: 'desc' }, (r, k) => r[k as 's']).map((r) => r.s)).toEqual([
      'c',
      'b',
      'A',
    ]);
  });

  it("Pager: Prev/Next with 'Page x / y', numbered with ellipses", () => {
    const onPage = vi.fn();
    const { rerender } = wrap(<Pager page={1} totalPages={3} onPageChange={onPage} />);
    expect(screen.getByText('Page 1 / 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Prev' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenCalledWith(2);
    rerender(
      <I18nProvider initial="en">
        <Pager page={10} totalPages={30} onPageChange={onPage} variant="numbered" />
      </I18nProvider>,
    );
    expect(screen.getAllByText('…')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Go to page 10' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('button', { name: 'Go to page 30' }));
    expect(onPage).toHaveBeenLastCalledWith(30);
  });

  it('Pager: an estimated total marks the last page "≈ n" and still goes there', () => {
    const onPage = vi.fn();
    const { rerender } = wrap(
      <Pager page={1} totalPages={20000} totalEstimated onPageChange={onPage} variant="numbered" />,
    );
    const last = screen.getByRole('button', { name: 'Go to the last page (≈ 20,000)' });
    expect(last.textContent).toBe('≈ 20,000');
    // The pages around the current one keep their exact numbers.
    expect(screen.getByRole('button', { name: 'Go to page 6' }).textContent).toBe('6');
    fireEvent.click(last);
    expect(onPage).toHaveBeenLastCalledWith(20000);
    // On the last page itself the number is its own: no mark on the current page.
    rerender(
      <I18nProvider initial="en">
        <Pager page={20000} totalPages={20000} totalEstimated onPageChange={onPage} variant="numbered" />
      </I18nProvider>,
    );
    expect(screen.getByRole('button', { name: 'Go to page 20000' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    // The simple pager says the count is an estimate.
    rerender(
      <I18nProvider initial="en">
        <Pager page={2} totalPages={4001} totalEstimated onPageChange={onPage} />
      </I18nProvider>,
    );
    expect(screen.getByText('Page 2 / ≈ 4,001')).toBeTruthy();
  });

  it('ConfirmDialog: Esc and Cancel close it, not while busy; the busy label shows', () => {
    const onCancel = vi.fn();
    const onConfirm = vi.fn();
    const { rerender } = wrap(
      <ConfirmDialog
        open
        title="Delete"
        message="Sure?"
        confirmLabel="Delete"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Delete' })).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    rerender(
      <I18nProvider initial="en">
        <ConfirmDialog
          open
          busy
          busyLabel="Proccessing..."
          title="Delete"
          confirmLabel="Delete"
          onConfirm={onConfirm}
          onCancel={onCancel}
        />
      </I18nProvider>,
    );
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(1);
    const busy = screen.getByText('Proccessing...').closest('button') as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('FormField wires label, error and aria-invalid', () => {
    wrap(
      <FormField label="Name" error="Name is required">
        <Input />
      </FormField>,
    );
    const input = screen.getByLabelText('Name');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Name is required',
    );
  });

  it('Notice and StatusBadge carry text; errors are alerts', () => {
    wrap(
      <>
        <Notice tone="error">Save failed</Notice>
        <Notice tone="success">Saved</Notice>
        <StatusBadge tone="green">SUCCESS</StatusBadge>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Save failed');
    expect(screen.getByRole('status').textContent).toContain('Saved');
    expect(screen.getByText('SUCCESS')).toBeTruthy();
  });
});

describe('StatTile', () => {
  it('keeps a figure on one line (never "1.234,50" / "00 US$"), sized to fit the tile', () => {
    render(<StatTile label="Total balance held" value={'1.234.567,8900\u00a0US$'} />);
    const figure = screen.getByText(
      (_, el) => el?.textContent === '1.234.567,8900\u00a0US$' && el.tagName === 'DIV',
    );
    expect(figure.className).toContain('whitespace-nowrap');
    expect(figure.className).not.toContain('wrap-anywhere');
    expect(figure.closest('.\\@container')).toBeTruthy();
  });
});
