import { FileText, Upload, X } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';
import { formatBytes } from '../lib/format.ts';

export interface FileDropProps {
  /** Accepted extensions, lower case with the dot: ['.txt', '.csv']. */
  accept: readonly string[];
  /** Largest accepted size in bytes (e.g. 10 * 1024 * 1024). */
  maxBytes: number;
  /** A file that passed the type and size checks. */
  onFile: (file: File) => void;
  /** Called with the message to show when a file is refused. The component also shows it. */
  onReject?: (message: string) => void;
  /** The chosen file's name, to show it with a remove button. */
  fileName?: string;
  onClear?: () => void;
  label?: string;
  disabled?: boolean;
}

/** Click or drag-and-drop one file; shows the accepted types and size, refuses others with a message. */
export function FileDrop({
  accept,
  maxBytes,
  onFile,
  onReject,
  fileName,
  onClear,
  label,
  disabled,
}: FileDropProps) {
  const { t } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string>();
  const types = accept.map((a) => a.replace(/^\./, '').toUpperCase()).join(', ');
  const size = formatBytes(maxBytes);

  const take = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    let message: string | undefined;
    const file = files[0]!;
    if (files.length > 1) message = t('fileDrop.oneFile');
    else if (!accept.some((ext) => file.name.toLowerCase().endsWith(ext)))
      message = t('fileDrop.wrongType', { types });
    else if (file.size > maxBytes) message = t('fileDrop.tooLarge', { size });
    setError(message);
    if (message) onReject?.(message);
    else onFile(file);
    if (input.current) input.current.value = '';
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled) take(e.dataTransfer.files);
  };

  return (
    <div className="flex flex-col gap-1.5">
      <label
        htmlFor={id}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cx(
          'flex cursor-pointer flex-col items-center justify-center gap-1.5 rounded-lg border-2 border-dashed px-4 py-6 text-center',
          'focus-within:ring-2 focus-within:ring-accent/40',
          over ? 'border-accent bg-accent-soft' : 'border-line-strong bg-subtle/40 hover:bg-subtle',
          disabled && 'cursor-not-allowed opacity-60',
        )}
      >
        <Upload className="size-5 text-muted" aria-hidden />
        <span className="font-medium text-fg">{label ?? t('fileDrop.prompt')}</span>
        <span className="text-xs text-muted">{t('fileDrop.accepts', { types, size })}</span>
        <input
          ref={input}
          id={id}
          type="file"
          accept={accept.join(',')}
          disabled={disabled}
          className="sr-only"
          onChange={(e) => take(e.target.files)}
        />
      </label>
      {fileName ? (
        <div className="flex items-center gap-2 rounded-md border border-line bg-surface px-3 py-2 text-sm">
          <FileText className="size-4 text-muted" aria-hidden />
          <span className="min-w-0 flex-1 truncate">{fileName}</span>
          {onClear ? (
            <button
              type="button"
              onClick={onClear}
              aria-label={t('fileDrop.remove', { name: fileName })}
              className="rounded p-0.5 text-muted hover:text-fg"
            >
              <X className="size-4" aria-hidden />
            </button>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs font-medium text-bad">
          {error}
        </p>
      ) : null}
    </div>
  );
}
