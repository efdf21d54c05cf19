import { randomBytes } from 'node:crypto';
import { ADMIN_ROLE, MMS_FILE_NAME_MAX, MMS_FILE_NAME_PATTERN, MMS_MAX_BYTES } from '@simdock/contract';
import { fileTypeFromBuffer } from 'file-type';
import type { AppContext, AuthUser } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { DomainError, notFound } from '../../errors.ts';
import { deleteUnusedMedia, findMedia, insertMedia, type MediaRow } from './media.queries.ts';

// MMS media: uploads checked by their content (magic bytes, then a completeness check so a cut-off
// file is refused too), stored in the database under a random name, served to their owner only.

/** An upload no message used within this time is removed. */
export const UNUSED_MEDIA_TTL_MS = 24 * 3600_000;

/** Removes uploads that were never sent (the job `messaging-media-cleanup`); how many. */
export async function removeUnusedMedia(ctx: AppContext): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - UNUSED_MEDIA_TTL_MS);
  let total = 0;
  let n: number;
  do {
    n = await deleteUnusedMedia(ctx.db, before);
    total += n;
  } while (n >= 500);
  return total;
}

/** Largest upload (the contract's, so the chat checks the same limit before uploading). */
export { MMS_MAX_BYTES };

/** What may be sent: detected type → stored extension. */
const ALLOWED: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
};
const CONTENT_TYPE_OF_EXT: Record<string, string> = Object.fromEntries(
  Object.entries(ALLOWED).map(([mime, ext]) => [ext, mime]),
);

export const fileRequired = () => new DomainError('file_required', 'No file provided');
export const fileTooLarge = () =>
  new DomainError('file_too_large', `The file is too large: at most ${MMS_MAX_BYTES / 1024 / 1024} MB.`);
const notAllowed = () =>
  new DomainError(
    'file_type_not_allowed',
    'Only JPEG, PNG, GIF and WebP images and MP4 videos can be sent (checked by the file content).',
  );
const damaged = () =>
  new DomainError('file_type_not_allowed', 'The file is damaged or incomplete; please choose it again.');

/** Whether the file is whole: the format's end marker or its declared length is there. */
export function isComplete(ext: string, b: Uint8Array): boolean {
  const n = b.byteLength;
  switch (ext) {
    case 'jpg': {
      // The EOI marker, allowing trailing padding some encoders add.
      let end = n;
      while (end > 2 && (b[end - 1] === 0x00 || b[end - 1] === 0x0a || b[end - 1] === 0x0d)) end--;
      return end >= 4 && b[end - 2] === 0xff && b[end - 1] === 0xd9;
    }
    case 'png': {
      // The IEND chunk: length 0, "IEND", its CRC.
      const iend = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
      return n >= 8 + 12 && iend.every((v, i) => b[n - 12 + i] === v);
    }
    case 'gif':
      return n > 13 && b[n - 1] === 0x3b;
    case 'webp': {
      // RIFF size + 8 is the file length (an odd chunk may be followed by one pad byte).
      if (n < 12) return false;
      const size = (b[4]! | (b[5]! << 8) | (b[6]! << 16) | (b[7]! << 24)) >>> 0;
      return size + 8 === n || size + 9 === n;
    }
    case 'mp4': {
      // Top-level boxes tile the file exactly, and the movie header (moov) is among them.
      const view = new DataView(b.buffer, b.byteOffset, n);
      let at = 0;
      let moov = false;
      while (at + 8 <= n) {
        let size = view.getUint32(at);
        const type = String.fromCharCode(b[at + 4]!, b[at + 5]!, b[at + 6]!, b[at + 7]!);
        if (size === 1) {
          if (at + 16 > n) return false;
          const big = view.getBigUint64(at + 8);
          if (big > BigInt(n)) return false;
          size = Number(big);
        } else if (size === 0) size = n - at; // to the end of the file
        if (size < 8 || at + size > n) return false;
        if (type === 'moov') moov = true;
        at += size;
      }
      return at === n && moov;
    }
    default:
      return false;
  }
}

/** Checks an upload by content; the stored extension and content type. */
export async function checkUpload(data: Uint8Array): Promise<{ ext: string; contentType: string }> {
  if (data.byteLength === 0) throw fileRequired();
  if (data.byteLength > MMS_MAX_BYTES) throw fileTooLarge();
  const detected = await fileTypeFromBuffer(data);
  const ext = detected ? ALLOWED[detected.mime] : undefined;
  if (!detected || !ext) throw notAllowed();
  if (!isComplete(ext, data)) throw damaged();
  return { ext, contentType: detected.mime };
}

/** Stores an upload of the user under a new random name ("<22 random chars>.<ext>"). */
export async function storeUpload(ctx: AppContext, user: AuthUser, data: Uint8Array): Promise<string> {
  const { ext, contentType } = await checkUpload(data);
  const name = `${randomBytes(16).toString('base64url')}.${ext}`;
  await insertMedia(ctx.db, { name, userId: user.id, contentType, data, at: ctx.clock.now() });
  return name;
}

/** Stores media that arrived (an incoming MMS) for a user; the name, or null when not allowed. */
export async function storeIncomingMedia(
  q: Queryable,
  userId: string,
  data: Uint8Array,
  at: Date,
): Promise<string | null> {
  try {
    const { ext, contentType } = await checkUpload(data);
    const name = `${randomBytes(16).toString('base64url')}.${ext}`;
    await insertMedia(q, { name, userId, contentType, data, at });
    return name;
  } catch (err) {
    if (err instanceof DomainError) return null;
    throw err;
  }
}

export const isMediaName = (name: string) =>
  name.length <= MMS_FILE_NAME_MAX && MMS_FILE_NAME_PATTERN.test(name);

/** A stored file for its owner (or Admin9); anything else, including a malformed name, is not found. */
export async function mediaFor(ctx: AppContext, user: AuthUser, name: string): Promise<MediaRow> {
  const missing = () => notFound('File not found.', 'media_not_found');
  if (!isMediaName(name)) throw missing();
  const row = await findMedia(ctx.db, name);
  if (!row || (row.user_id !== user.id && !user.roles.includes(ADMIN_ROLE))) throw missing();
  // The content type is the one detected at upload, never taken from the request.
  return { ...row, content_type: CONTENT_TYPE_OF_EXT[name.split('.').pop() ?? ''] ?? row.content_type };
}
