import { fireEvent, render, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { beforeAll, describe, expect, it } from 'vitest';
import { I18nProvider, loadLanguage } from '../i18n/index.tsx';
import { formatMoneyInput } from '../lib/format.ts';
import { MoneyInput } from './MoneyInput.tsx';

describe('formatMoneyInput (the text of every money field)', () => {
  it('writes exact amounts with at least two decimals, no $ or separators', () => {
    expect(formatMoneyInput(1)).toBe('1.00');
    expect(formatMoneyInput(12.5)).toBe('12.50');
    expect(formatMoneyInput('9.9775')).toBe('9.9775');
    expect(formatMoneyInput(' $007.1 ')).toBe('7.10');
    expect(formatMoneyInput('.5')).toBe('0.50');
    expect(formatMoneyInput(0.1 + 0.2, 2)).toBe('0.30000000000000004');
    expect(formatMoneyInput(null)).toBe('');
  });

  it("leaves what it cannot read as typed, for the form's rule to name", () => {
    expect(formatMoneyInput('12,5')).toBe('12,5');
    expect(formatMoneyInput('1.234', 2)).toBe('1.234');
    expect(formatMoneyInput('-3')).toBe('-3');
    expect(formatMoneyInput('ten')).toBe('ten');
    expect(formatMoneyInput('')).toBe('');
  });
});

function Form({ onValue }: { onValue: (v: string) => void }) {
  const { register, watch } = useForm({ defaultValues: { amount: '10.00' } });
  onValue(watch('amount'));
  return <MoneyInput aria-label="Amount" decimals={4} {...register('amount')} />;
}

describe('MoneyInput', () => {
  it('tidies the amount on leaving the field and tells the form', () => {
    let value = '';
    render(<Form onValue={(v) => (value = v)} />);
    const input = screen.getByLabelText('Amount') as HTMLInputElement;
    expect([input.type, input.inputMode, input.value]).toEqual(['text', 'decimal', '10.00']);
    fireEvent.change(input, { target: { value: '25.5' } });
    fireEvent.blur(input);
    expect(input.value).toBe('25.50');
    expect(value).toBe('25.50');
    fireEvent.change(input, { target: { value: '1.23456' } });
    fireEvent.blur(input);
    expect(value).toBe('1.23456');
  });
});

describe('MoneyInput in Vietnamese', () => {
  beforeAll(() => loadLanguage('vi'));

  it('shows and reads the decimal comma, reads a point too, and gives the form a point', () => {
    let value = '';
    render(
      <I18nProvider initial="vi">
        <Form onValue={(v) => (value = v)} />
      </I18nProvider>,
    );
    const input = screen.getByLabelText('Amount') as HTMLInputElement;
    expect(input.value).toBe('10,00');
    fireEvent.change(input, { target: { value: '12,5' } });
    expect(value).toBe('12.5');
    fireEvent.blur(input);
    expect(input.value).toBe('12,50');
    expect(value).toBe('12.50');
    fireEvent.change(input, { target: { value: '7.25' } });
    fireEvent.blur(input);
    expect([input.value, value]).toEqual(['7,25', '7.25']);
    fireEvent.change(input, { target: { value: '1.234,5' } });
    fireEvent.blur(input);
    expect([input.value, value]).toEqual(['1234,50', '1234.50']);
  });
});
