// One MMS file read from a multipart request, for every route that takes an upload (the chat's
// mmsUpload, the API's POST /api/v1/media). The parser plugin is registered by each route's scope.
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { badInput, DomainError } from '../../errors.ts';
import type { App } from '../../http/types.ts';
import { fileRequired, fileTooLarge, MMS_MAX_BYTES } from './media.service.ts';

/** Room for the multipart framing around the largest file. */
export const UPLOAD_BODY_LIMIT = MMS_MAX_BYTES + 64 * 1024;

/** Registers the multipart parser in `scope`: one file part of at most MMS_MAX_BYTES (413 while it streams). */
export async function acceptUploads(scope: App): Promise<void> {
  await scope.register(multipart, {
    limits: { fileSize: MMS_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 100 },
  });
}

/** The request's one file, whole; 400 when there is none or the framing is broken, 413 when too large. */
export async function readUploadedFile(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw fileRequired();
  let part: Awaited<ReturnType<typeof req.file>>;
  let data: Buffer;
  try {
    part = await req.file();
    if (!part) throw fileRequired();
    data = await part.toBuffer();
  } catch (err) {
    // The parser's own errors (cut-off body, broken framing) carry no status: they are the
    // client's, not ours. The plugin's limits (413 and the like) keep their status.
    if (err instanceof Error && !(err instanceof DomainError) && !('statusCode' in err)) {
      throw badInput('The upload is cut off or not valid multipart/form-data; please send the file again.');
    }
    throw err;
  }
  if (part.file.truncated) throw fileTooLarge();
  return data;
}
