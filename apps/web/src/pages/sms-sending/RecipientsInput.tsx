import {
  effectiveBatchLimit,
  invalidNumbersInFileMessage,
  messagingMessage,
  parseRecipients,
  recipientsFromFile,
  typingLimitMessage,
  UPLOAD_EXTENSIONS,
  UPLOAD_MAX_BYTES,
  uploadKind,
  wouldExceedLimit,
} from '@simdock/contract';
import { useMemo, useState } from 'react';
import { FileDrop, FormField, Notice, Tabs, Textarea } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatNumber } from '../../lib/format.ts';
import { messagingText } from './messaging-text.ts';

type Tab = 'input' | 'upload';

export interface RecipientsInputProps {
  value: string;
  onChange: (text: string) => void;
  /** MaxBatchSendSms: typing past it is blocked (spec §5). */
  limit: number;
  /** The send's error for this field (from the rules), shown under the text area. */
  error?: string;
  disabled?: boolean;
}

/**
 * Recipients: typed one per line (Input Number) or read from a .txt/.csv file (Upload File), both
 * into the same list. Typing or pasting past the limit is refused with 'Limit is X numbers.'; a file's
 * invalid numbers are dropped and listed.
 */
export function RecipientsInput({ value, onChange, limit, error, disabled }: RecipientsInputProps) {
  const { t } = useI18n();
  const [tab, setTab] = useState<Tab>('input');
  const [blocked, setBlocked] = useState<string>();
  const [file, setFile] = useState<{ name: string; count: number; dropped?: string; problem?: string }>();
  const parsed = useMemo(() => parseRecipients(value), [value]);

  const onType = (next: string) => {
    if (wouldExceedLimit(next, limit, value)) {
      setBlocked(messagingText(t, typingLimitMessage(effectiveBatchLimit(limit))));
      return;
    }
    setBlocked(undefined);
    onChange(next);
  };

  const onFile = async (f: File) => {
    const kind = uploadKind(f.name);
    if (!kind) return;
    let text: string;
    try {
      text = await f.text();
    } catch {
      setFile({ name: f.name, count: 0, problem: t('sending.readFailed') });
      return;
    }
    const read = recipientsFromFile(text, kind);
    const dropped = read.invalid.length
      ? messagingText(t, invalidNumbersInFileMessage(read.invalid))
      : undefined;
    if (read.valid.length === 0) {
      const m = messagingMessage(text.trim() ? 'fileNoNumbers' : 'fileEmpty');
      setFile({ name: f.name, count: 0, dropped, problem: messagingText(t, m) });
      return;
    }
    setFile({ name: f.name, count: read.valid.length, dropped });
    setBlocked(undefined);
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
              error={error ?? blocked}
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
                onChange={(e) => onType(e.target.value)}
              />
            </FormField>
          ),
        },
        {
          value: 'upload',
          label: t('sending.tabUpload'),
          content: (
            <div className="flex flex-col gap-2">
              <FileDrop
                accept={UPLOAD_EXTENSIONS}
                maxBytes={UPLOAD_MAX_BYTES}
                label={t('sending.numbersFile')}
                fileName={file?.name}
                onClear={() => setFile(undefined)}
                onFile={(f) => void onFile(f)}
                disabled={disabled}
              />
              {file && file.count > 0 ? (
                <Notice tone="success">
                  {t('sending.numbersLoaded', { count: formatNumber(file.count), name: file.name })}
                </Notice>
              ) : null}
              {file?.dropped ? <Notice tone="info">{file.dropped}</Notice> : null}
              {file?.problem ? <Notice tone="error">{file.problem}</Notice> : null}
              {error ? <Notice tone="error">{error}</Notice> : null}
            </div>
          ),
        },
      ]}
    />
  );
}
