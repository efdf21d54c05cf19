import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES, type UploadKind, uploadKind } from '@simdock/contract';
import { FileDrop, Notice } from '../../components/index.ts';

/** A file read into the form: how many entries it gave, and what was dropped or wrong. */
export interface LoadedFile {
  name: string;
  count: number;
  /** The header of the CSV column the entries were taken from. */
  column?: string;
  /** Entries dropped (e.g. invalid numbers), as the message to show. */
  dropped?: string;
  /** Nothing usable, as the message to show. */
  problem?: string;
}

/** The text of a chosen .txt/.csv file and its kind; null when it cannot be read. */
export async function readUpload(f: File): Promise<{ kind: UploadKind; text: string } | null> {
  const kind = uploadKind(f.name);
  if (!kind) return null;
  try {
    return { kind, text: await f.text() };
  } catch {
    return null;
  }
}

/**
 * The "Upload File" tab of both text areas: the drop zone (txt/csv, one file, 10 MB), then what the
 * file gave (`loaded`), what was dropped, and the problems.
 */
export function UploadPanel(props: {
  label: string;
  file: LoadedFile | undefined;
  loaded: (file: LoadedFile) => string;
  onFile: (f: File) => void;
  onClear: () => void;
  error?: string;
  disabled?: boolean;
}) {
  const { file, error } = props;
  return (
    <div className="flex flex-col gap-2">
      <FileDrop
        accept={UPLOAD_EXTENSIONS}
        maxBytes={UPLOAD_MAX_BYTES}
        label={props.label}
        fileName={file?.name}
        onClear={props.onClear}
        onFile={props.onFile}
        disabled={props.disabled}
      />
      {file && file.count > 0 ? <Notice tone="success">{props.loaded(file)}</Notice> : null}
      {file?.dropped ? <Notice tone="info">{file.dropped}</Notice> : null}
      {file?.problem ? <Notice tone="error">{file.problem}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
    </div>
  );
}
