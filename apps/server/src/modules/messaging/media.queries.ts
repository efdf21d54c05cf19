import type { Queryable } from '../../db/db.ts';

// MMS media in the database (table messaging_media): every server process reads the same files.

export interface MediaRow {
  name: string;
  user_id: string;
  content_type: string;
  size: number;
  data: Uint8Array;
}

/** pg answers a Buffer, PGlite a Uint8Array: one Buffer view either way (no copy). */
const asBuffer = (d: Uint8Array): Buffer => Buffer.from(d.buffer, d.byteOffset, d.byteLength);

export async function insertMedia(
  q: Queryable,
  m: { name: string; userId: string; contentType: string; data: Uint8Array; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO messaging_media (name, user_id, content_type, size, data, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [m.name, m.userId, m.contentType, m.data.byteLength, m.data, m.at],
  );
}

export async function findMedia(q: Queryable, name: string): Promise<MediaRow | undefined> {
  const rows = await q.query<MediaRow>(
    'SELECT name, user_id, content_type, size, data FROM messaging_media WHERE name = $1',
    [name],
  );
  const r = rows[0];
  return r ? { ...r, data: asBuffer(r.data) } : undefined;
}

/** Whether a user owns a stored file (a reply may only attach the user's own uploads). */
export async function ownsMedia(q: Queryable, userId: string, name: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM messaging_media WHERE name = $1 AND user_id = $2', [
    name,
    userId,
  ]);
  return rows.length > 0;
}

/** The files of MMS about to be handed to a device, by name. */
export async function mediaForSending(
  q: Queryable,
  names: string[],
): Promise<Map<string, { name: string; data: Buffer }>> {
  const rows = await q.query<{ name: string; data: Uint8Array }>(
    'SELECT name, data FROM messaging_media WHERE name = ANY($1::text[])',
    [names],
  );
  return new Map(rows.map((r) => [r.name, { name: r.name, data: asBuffer(r.data) }]));
}

/** Uploads older than `before` that no message uses (attached and never sent): removed, in batches. */
export async function deleteUnusedMedia(q: Queryable, before: Date, limit = 500): Promise<number> {
  const rows = await q.query(
    `DELETE FROM messaging_media WHERE name IN (
       SELECT m.name FROM messaging_media m
        WHERE m.created_at < $1
          AND NOT EXISTS (SELECT 1 FROM messages x WHERE x.mms_file = m.name)
          AND NOT EXISTS (SELECT 1 FROM conversation_replies r WHERE r.mms_file = m.name)
        ORDER BY m.created_at LIMIT $2
     ) RETURNING name`,
    [before, limit],
  );
  return rows.length;
}
