import {
  isMessageLineTooLong,
  linesFromFileText,
  messagingMessage,
  nonBlankLines,
  smsSegments,
  validateMessages,
} from '@simdock/contract';
import { useMemo, useState } from 'react';
import { FormField, Tabs, Textarea } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatNumber } from '../../lib/format.ts';
import { messagingText } from './messaging-text.ts';
import { type LoadedFile, readUpload, UploadPanel } from './UploadPanel.tsx';

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
  const { t, tn } = useI18n();
  const [tab, setTab] = useState<Tab>('fixed');
  const [refused, setRefused] = useState<string>();
  const [file, setFile] = useState<LoadedFile>();
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
    const upload = await readUpload(f);
    if (!upload) {
      setFile({ name: f.name, count: 0, problem: t('sending.readFailed') });
      return;
    }
    const checked = validateMessages(linesFromFileText(upload.text, upload.kind).join('\n'));
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
            <UploadPanel
              label={t('sending.contentFile')}
              file={file}
              loaded={(f) => tn('sending.messagesLoaded', f.count, { name: f.name })}
              onFile={(f) => void onFile(f)}
              onClear={() => setFile(undefined)}
              error={error}
              disabled={disabled}
            />
          ),
        },
      ]}
    />
  );
}
