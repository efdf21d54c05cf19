import {
  effectiveBatchLimit,
  invalidNumbersInFileMessage,
  messagingMessage,
  type ParsedRecipients,
  recipientsFromFile,
  recipientsOverLimit,
  typingLimitMessage,
} from '@simdock/contract';
import { useState } from 'react';
import { FormField, Tabs, Textarea } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatNumber } from '../../lib/format.ts';
import { messagingText } from './messaging-text.ts';
import { type LoadedFile, readUpload, UploadPanel } from './UploadPanel.tsx';

type Tab = 'input' | 'upload';

export interface RecipientsInputProps {
  value: string;
  onChange: (text: string) => void;
  /** `value` read by the rules (parseRecipients): the counts and the limit are about it. */
  parsed: ParsedRecipients;
  /** MaxBatchSendSms: numbers past it are marked (docs/product.md#forms). */
  limit: number;
  /** The send's error for this field (from the rules), shown under the text area. */
  error?: string;
  disabled?: boolean;
}

/**
 * Recipients: typed one per line (Input Number) or read from a .txt/.csv file (Upload File, the phone
 * column of a CSV), both into the same list. Numbers past the limit are kept and marked with
 * 'Limit is X numbers.' and how many are over (the page does not send them); a file's invalid numbers
 * are dropped and listed.
 */
export function RecipientsInput({ value, onChange, parsed, limit, error, disabled }: RecipientsInputProps) {
  const { t, tn } = useI18n();
  const [tab, setTab] = useState<Tab>('input');
  const [file, setFile] = useState<LoadedFile>();
  const over = recipientsOverLimit(parsed.valid.length, limit);
  const overText = over
    ? `${messagingText(t, typingLimitMessage(effectiveBatchLimit(limit)))} ${t('sending.overLimit', { count: formatNumber(over) })}`
    : undefined;

  const onFile = async (f: File) => {
    const upload = await readUpload(f);
    if (!upload) {
      setFile({ name: f.name, count: 0, problem: t('sending.readFailed') });
      return;
    }
    const { text } = upload;
    const read = recipientsFromFile(text, upload.kind);
    const dropped = read.invalid.length
      ? messagingText(t, invalidNumbersInFileMessage(read.invalid))
      : undefined;
    if (read.valid.length === 0) {
      const m = messagingMessage(text.trim() ? 'fileNoNumbers' : 'fileEmpty');
      setFile({ name: f.name, count: 0, dropped, problem: messagingText(t, m) });
      return;
    }
    setFile({ name: f.name, count: read.valid.length, dropped, column: read.header });
    onChange(read.valid.join('\n'));
  };

  return (
    <Tabs<Tab>
      label={t('sending.recipients')}
      value={tab}
      onValueChange={setTab}
      items={[
        {
          value: 'input',
          label: t('sending.tabInput'),
          content: (
            <FormField
              label={t('sending.numbersLabel')}
              error={error ?? overText}
              hint={t('sending.numbersCount', {
                valid: formatNumber(parsed.valid.length),
                invalid: formatNumber(parsed.invalid.length),
                duplicates: formatNumber(parsed.duplicatesRemoved),
              })}
            >
              <Textarea
                rows={8}
                value={value}
                disabled={disabled}
                spellCheck={false}
                placeholder={'12025550123\n13105550188'}
                className="font-mono"
                onChange={(e) => onChange(e.target.value)}
              />
            </FormField>
          ),
        },
        {
          value: 'upload',
          label: t('sending.tabUpload'),
          content: (
            <UploadPanel
              label={t('sending.numbersFile')}
              file={file}
              loaded={(f) =>
                [
                  tn('sending.numbersLoaded', f.count, { name: f.name }),
                  f.column ? t('sending.numbersColumn', { column: f.column }) : '',
                ]
                  .filter(Boolean)
                  .join(' ')
              }
              onFile={(f) => void onFile(f)}
              onClear={() => setFile(undefined)}
              error={error ?? overText}
              disabled={disabled}
            />
          ),
        },
      ]}
    />
  );
}
