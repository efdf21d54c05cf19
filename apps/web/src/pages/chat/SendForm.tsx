import { CHAT_SMS_MAX_CHARS, type ChatMessage, type Conversation, MMS_MAX_BYTES } from '@simdock/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Paperclip, SendHorizontal, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { CONVERSATIONS_KEY, threadKey } from '../../api/chat.ts';
import { errorMessage } from '../../api/client.ts';
import { Button, notify, Textarea } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatBytes } from '../../lib/format.ts';
import { fieldErrorText, keyResolver } from '../../lib/forms.ts';
import { appendToThread, reply, uploadMms } from './api.ts';
import { ATTACH_ACCEPT, attachmentProblem, displayUrl } from './chat-logic.ts';

interface Values {
  text: string;
  /** The picked image or video, sent first (mmsUpload). */
  file: File | null;
}

/** The contract's `chatEmpty`: a reply needs text or a file. */
const sendResolver = keyResolver<Values>((v) => ({
  text: v.text.trim() === '' && !v.file ? 'messaging.chatEmpty' : undefined,
}));

/**
 * The send form (docs/product.md#forms): a text area, an attach button (images and MP4; a preview with a
 * remove button), Send. Blocked when both text and file are empty (the contract's `chatEmpty`). Enter sends,
 * Shift+Enter adds a line (not while an input method is composing). A file is uploaded first
 * (mmsUpload), then the reply goes out with its stored name (mmsType 1). A failure shows the server's
 * words (`errorMessage`: in the user's language as far as the catalogue goes).
 */
export function SendForm({
  conversation,
  onSent,
  pictures = true,
}: {
  conversation: Conversation;
  onSent?: () => void;
  /** False when replies here cannot carry a picture (the SIM is in a phone): attach is off, with why. */
  pictures?: boolean;
}) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    defaultValues: { text: '', file: null },
    resolver: sendResolver,
    // The error goes as soon as the user changes anything (as it is set again on the next send).
    reValidateMode: 'onSubmit',
  });
  const picker = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const hintId = useId();
  const maxSize = formatBytes(MMS_MAX_BYTES);
  const id = conversation.conversationId;
  const file = watch('file');
  const error = fieldErrorText(t, errors.text) ?? fieldErrorText(t, errors.file);

  const send = handleSubmit(async (v) => {
    let mmsFile = '';
    // Chosen before the thread said this conversation takes no pictures: refused here, not after an upload.
    if (v.file && !pictures) {
      setError('file', { type: 'manual', message: t('chat.noPictures') });
      return;
    }
    if (v.file) {
      try {
        mmsFile = (await uploadMms(v.file)).fileName;
      } catch (err) {
        notify.error(t('chat.uploadFailed', { msg: errorMessage(err) }));
        return;
      }
    }
    try {
      const res = await reply({
        conversationId: id,
        sms: v.text,
        toNumber: conversation.receiver,
        simNo: 1,
        mmsType: mmsFile ? 1 : 0,
        mmsTitle: '',
        mmsFile,
      });
      if (res.data) appendToThread(qc, id, res.data as ChatMessage);
    } catch (err) {
      notify.error(t('chat.replyFailed', { msg: errorMessage(err) }));
      return;
    }
    reset();
    onSent?.();
    void qc.invalidateQueries({ queryKey: threadKey(id) });
    void qc.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
  });
  const text = register('text', { onChange: () => clearErrors() });

  return (
    <form
      noValidate
      aria-label={t('chat.send')}
      className="flex flex-col gap-2 border-t border-line bg-surface p-3"
      onSubmit={(e) => {
        if (isSubmitting) e.preventDefault();
        else void send(e);
      }}
    >
      {file ? (
        <Preview
          file={file}
          onRemove={() => {
            setValue('file', null);
            picker.current?.focus();
          }}
        />
      ) : null}
      <div className="flex items-end gap-2">
        <input
          ref={picker}
          type="file"
          accept={ATTACH_ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-hidden
          data-testid="chat-attach-input"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = '';
            if (!chosen) return;
            // Checked here, before any upload: a file the server would refuse never waits for Send.
            const problem = attachmentProblem(chosen);
            if (problem === 'type') {
              setError('file', { type: 'text', message: 'chat.attachType' });
              return;
            }
            if (problem === 'size') {
              setError('file', {
                type: 'manual',
                message: t('chat.attachTooLarge', {
                  name: chosen.name,
                  size: formatBytes(chosen.size),
                  max: maxSize,
                }),
              });
              return;
            }
            clearErrors();
            setValue('file', chosen);
          }}
        />
        <Button
          variant="ghost"
          className="shrink-0 px-2.5"
          aria-label={pictures ? t('chat.attachUpTo', { max: maxSize }) : t('chat.noPictures')}
          aria-describedby={pictures ? undefined : hintId}
          title={pictures ? t('chat.attachUpTo', { max: maxSize }) : t('chat.noPictures')}
          icon={<Paperclip className="size-4" aria-hidden />}
          onClick={() => picker.current?.click()}
          disabled={isSubmitting || !pictures}
        />
        <div className="min-w-0 flex-1">
          <Textarea
            rows={2}
            maxLength={CHAT_SMS_MAX_CHARS}
            placeholder={t('chat.placeholder')}
            aria-label={t('chat.message')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${errorId} ${hintId}` : hintId}
            className="max-h-40 min-h-10! resize-y"
            {...text}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                if (!isSubmitting) void send();
              }
            }}
          />
        </div>
        <Button
          type="submit"
          variant="primary"
          className="shrink-0"
          busy={isSubmitting}
          busyLabel={t('chat.sending')}
          icon={<SendHorizontal className="size-4" aria-hidden />}
        >
          {t('chat.send')}
        </Button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-xs font-medium text-bad">
          {error}
        </p>
      ) : null}
      {/* The keys hint needs a keyboard (not shown on phones); the attachment limit is always shown. */}
      <p id={hintId} className="text-xs text-muted">
        <span className="hidden sm:inline">{t('chat.keysHint')} · </span>
        {pictures ? t('chat.attachLimit', { max: maxSize }) : t('chat.noPictures')}
      </p>
    </form>
  );
}

/** The chosen file before it is sent: an image or a video, with a remove button. */
function Preview({ file, onRemove }: { file: File; onRemove: () => void }) {
  const { t } = useI18n();
  const [url, setUrl] = useState<string | null>(null);
  const video = file.type === 'video/mp4' || /\.mp4$/i.test(file.name);
  useEffect(() => {
    let revoke = () => {};
    let live = true;
    setUrl(null);
    void displayUrl(file, video ? 'video' : 'image').then(
      (shown) => {
        if (!live) return shown.revoke();
        revoke = shown.revoke;
        setUrl(shown.url);
      },
      () => {},
    );
    return () => {
      live = false;
      revoke();
    };
  }, [file, video]);
  return (
    <div className="flex items-start gap-2" data-testid="chat-attachment">
      <div className="relative">
        {url ? (
          video ? (
            // biome-ignore lint/a11y/useMediaCaption: a preview of the user's own video
            <video
              src={url}
              controls
              className="max-h-32 max-w-48 rounded-md border border-line"
              aria-label={t('chat.attachment', { name: file.name })}
            />
          ) : (
            <img
              src={url}
              alt={t('chat.attachment', { name: file.name })}
              className="max-h-32 max-w-48 rounded-md border border-line object-contain"
            />
          )
        ) : null}
      </div>
      <div className="flex min-w-0 flex-col gap-1">
        <span className="truncate text-xs text-muted">{file.name}</span>
        <Button
          size="sm"
          variant="secondary"
          onClick={onRemove}
          icon={<X className="size-3.5" aria-hidden />}
        >
          {t('chat.removeAttachment')}
        </Button>
      </div>
    </div>
  );
}
