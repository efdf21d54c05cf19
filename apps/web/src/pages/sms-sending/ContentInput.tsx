import {
  isMessageLineTooLong,
  linesFromFileText,
  messagingMessage,
  nonBlankLines,
  smsSegments,
  UPLOAD_EXTENSIONS,
  UPLOAD_MAX_BYTES,
  uploadKind,
  validateMessages,
} from '@simdock/contract';
import { useMemo, useState } from 'react';
import { FileDrop, FormField, Notice, Tabs, Textarea } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatNumber } from '../../lib/format.ts';
import { messagingText } from './messaging-text.ts';

type Tab = 'fixed' | 'upload';
/** Lines whose SMS count is listed under the text area (the rest are counted the same way). */
const SHOWN_LINES = 5;

export interface ContentInputProps {
  value: string;
  onChange: (text: string) => void;
  error?: string;
  disabled?: boolean;
}

/**
 * Message lines: typed (Fixed Content) or read from a file (Upload File). A line over 150 characters
 * is refused as it is typed; each line shows its SMS parts (GSM-7 160/153, UCS-2 70/67) live.
 */
export function ContentInput({ value, onChange, error, disabled }: ContentInputProps) {
  const { t } = useI18n();
  const [tab, setTab] = useState<Tab>('fixed');
  const [refused, setRefused] = useState<string>();
  const [file, setFile] = useState<{ name: string; count: number; problem?: string }>();
  const lines = useMemo(() => nonBlankLines(value), [value]);

  const onType = (next: string) => {
    if (next.split(/\r\n|\r|\n/).some(isMessageLineTooLong)) {
      setRefused(messagingText(t, messagingMessage('messageLineTooLong')));
      return;
    }
    setRefused(undefined);
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
    const checked = validateMessages(linesFromFileText(text, kind).join('\n'));
    if (!checked.ok) {
      setFile({ name: f.name, count: 0, problem: messagingText(t, checked.error) });
      return;
    }
    setFile({ name: f.name, count: checked.value.length });
    setRefused(undefined);
    onChange(checked.value.join('\n'));
  };

  const info = (
    <span className="flex flex-col gap-0.5">
      {lines.slice(0, SHOWN_LINES).map((line, i) => {
        const s = smsSegments(line);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional; two equal lines are two lines.
          <span key={i}>
            {t('sending.lineInfo', { n: i + 1, chars: s.length, segments: s.segments, encoding: s.encoding })}
          </span>
        );
      })}
      {lines.length > SHOWN_LINES ? <span>… +{formatNumber(lines.length - SHOWN_LINES)}</span> : null}
    </span>
  );

  return (
    <Tabs<Tab>
      label={t('sending.content')}
      value={tab}
      onValueChange={setTab}
      items={[
        {
          value: 'fixed',
          label: t('sending.tabFixed'),
          content: (
            <FormField
              label={t('sending.contentLabel')}
              error={error ?? refused}
              hint={lines.length ? info : undefined}
            >
              <Textarea rows={6} value={value} disabled={disabled} onChange={(e) => onType(e.target.value)} />
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
                label={t('sending.contentFile')}
                fileName={file?.name}
                onClear={() => setFile(undefined)}
                onFile={(f) => void onFile(f)}
                disabled={disabled}
              />
              {file && file.count > 0 ? (
                <Notice tone="success">
                  {t('sending.messagesLoaded', { count: formatNumber(file.count), name: file.name })}
                </Notice>
              ) : null}
              {file?.problem ? <Notice tone="error">{file.problem}</Notice> : null}
              {error ? <Notice tone="error">{error}</Notice> : null}
            </div>
          ),
        },
      ]}
    />
  );
}
