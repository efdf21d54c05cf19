import { ImageOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useI18n } from '../../i18n/index.tsx';
import { fetchMedia } from './api.ts';
import { displayUrl, mediaKind } from './chat-logic.ts';

/**
 * A message's stored media (GET /api/media/<fileName>, bearer token): fetched as a Blob and shown
 * through `displayUrl` (a data: URL for images, an object URL for video, revoked when the message
 * leaves the screen). Images inline, `.mp4` in a
 * <video controls>. `onLoad` lets the thread keep its bottom in view when the media grows it.
 */
export function MessageMedia({ fileName, onLoad }: { fileName: string; onLoad?: () => void }) {
  const { t } = useI18n();
  const [state, setState] = useState<{ url?: string; failed?: boolean }>({});
  const kind = mediaKind(fileName);
  useEffect(() => {
    const abort = new AbortController();
    let revoke = () => {};
    setState({});
    fetchMedia(fileName, abort.signal)
      .then((blob) => displayUrl(blob, kind))
      .then(
        (shown) => {
          if (abort.signal.aborted) return shown.revoke();
          revoke = shown.revoke;
          setState({ url: shown.url });
        },
        () => {
          if (!abort.signal.aborted) setState({ failed: true });
        },
      );
    return () => {
      abort.abort();
      revoke();
    };
  }, [fileName, kind]);

  if (state.failed)
    return (
      <span className="flex items-center gap-1.5 text-xs opacity-80" role="note">
        <ImageOff className="size-4" aria-hidden />
        {t('chat.mediaFailed')}
      </span>
    );
  if (!state.url)
    return (
      <span className="block h-32 w-48 max-w-full animate-pulse rounded-md bg-black/10" role="status">
        <span className="sr-only">{t('chat.mediaLoading')}</span>
      </span>
    );
  return kind === 'video' ? (
    // biome-ignore lint/a11y/useMediaCaption: user-sent MMS video has no caption track
    <video
      src={state.url}
      controls
      preload="metadata"
      aria-label={t('chat.video')}
      onLoadedMetadata={onLoad}
      className="max-h-72 max-w-full rounded-md"
    />
  ) : (
    <img
      src={state.url}
      alt={t('chat.image')}
      onLoad={onLoad}
      className="max-h-72 max-w-full rounded-md object-contain"
    />
  );
}
