import { CHAT_SMS_MAX_CHARS, type ChatMessage, type Conversation } from '@simdock/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Paperclip, SendHorizontal, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { CONVERSATIONS_KEY, threadKey } from '../../api/chat.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button, notify, Textarea } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { appendToThread, reply, uploadMms } from './api.ts';
import { ATTACH_ACCEPT, displayUrl, isAttachable } from './chat-logic.ts';

/**
 * The server's own words when it sent some, else the error's text (docs/product.md#errors-and-messages: alert
 * + msg).
 */
const reason = (err: unknown) => (err instanceof ApiError && err.serverMessage) || errorMessage(err);

/**
 * The send form (docs/product.md#forms): a text area, an attach button (images and MP4; a preview with a
 * remove button), Send. Blocked when both text and file are empty (the contract's `chatEmpty`). Enter sends,
 * Shift+Enter adds a line (not while an input method is composing). A file is uploaded first
 * (mmsUpload), then the reply goes out with its stored name (mmsType 1).
 */
export function SendForm({ conversation, onSent }: { conversation: Conversation; onSent?: () => void }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const errorId = useId();
  const id = conversation.conversationId;

  const send = async () => {
    if (busy) return;
    if (text.trim() === '' && !file) {
      setError(t('messaging.chatEmpty'));
      area.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      let mmsFile = '';
      if (file) {
        try {
          mmsFile = (await uploadMms(file)).fileName;
        } catch (err) {
          notify.error(t('chat.uploadFailed', { msg: reason(err) }));
          return;
        }
      }
      try {
        const res = await reply({
          conversationId: id,
          sms: text,
          toNumber: conversation.receiver,
          simNo: 1,
          mmsType: mmsFile ? 1 : 0,
          mmsTitle: '',
          mmsFile,
        });
        if (res.data) appendToThread(qc, id, res.data as ChatMessage);
      } catch (err) {
        notify.error(t('chat.replyFailed', { msg: reason(err) }));
        return;
      }
      setText('');
      setFile(null);
      onSent?.();
      void qc.invalidateQueries({ queryKey: threadKey(id) });
      void qc.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      aria-label={t('chat.send')}
      className="flex flex-col gap-2 border-t border-line bg-surface p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {file ? (
        <Preview
          file={file}
          onRemove={() => {
            setFile(null);
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
            if (!isAttachable(chosen)) {
              setError(t('chat.attachType'));
              return;
            }
            setError(null);
            setFile(chosen);
          }}
        />
        <Button
          variant="ghost"
          className="shrink-0 px-2.5"
          aria-label={t('chat.attach')}
          title={t('chat.attach')}
          icon={<Paperclip className="size-4" aria-hidden />}
          onClick={() => picker.current?.click()}
          disabled={busy}
        />
        <div className="min-w-0 flex-1">
          <Textarea
            ref={area}
            value={text}
            rows={2}
            maxLength={CHAT_SMS_MAX_CHARS}
            placeholder={t('chat.placeholder')}
            aria-label={t('chat.message')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className="max-h-40 min-h-10! resize-y"
            onChange={(e) => {
              setText(e.target.value);
              if (error) setError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void send();
              }
            }}
          />
        </div>
        <Button
          type="submit"
          variant="primary"
          className="shrink-0"
          busy={busy}
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
