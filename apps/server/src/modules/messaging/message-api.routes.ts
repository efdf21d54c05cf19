import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { checkUpload, MMS_MAX_BYTES, storeUpload } from './media.service.ts';
import {
  apiCancelMessage,
  apiGetMessage,
  apiListConversations,
  apiListMessages,
  apiSend,
  apiSims,
} from './message-api.service.ts';
import { acceptUploads, readUploadedFile, UPLOAD_BODY_LIMIT } from './upload.ts';

/** The messaging API for programs: /api/v1/messages, media, conversations, sims (API key, scoped). */
export async function messageApiRoutes(app: App, ctx: AppContext) {
  const { messageApi } = endpoints;

  route(app, ctx, messageApi.send, async (req) =>
    apiSend(ctx, currentUser(req), req.body, req.headers['idempotency-key'] as string | undefined),
  );

  route(app, ctx, messageApi.message, async (req) => ({
    message: await apiGetMessage(ctx, currentUser(req).id, req.params.id),
  }));

  route(app, ctx, messageApi.messages, async (req) => apiListMessages(ctx, currentUser(req).id, req.query));

  route(app, ctx, messageApi.cancel, async (req) => ({
    message: await apiCancelMessage(ctx, currentUser(req).id, req.params.id),
  }));

  route(app, ctx, messageApi.conversations, async (req) =>
    apiListConversations(ctx, currentUser(req).id, req.query),
  );

  route(app, ctx, messageApi.sims, async () => ({ sims: await apiSims(ctx) }));

  await app.register(async (sub: App) => {
    await acceptUploads(sub);
    route(
      sub,
      ctx,
      messageApi.media,
      async (req) => {
        const data = await readUploadedFile(req);
        const { contentType } = await checkUpload(data);
        const mediaId = await storeUpload(ctx, currentUser(req), data);
        return { mediaId, contentType, size: data.length };
      },
      {
        bodyLimit: UPLOAD_BODY_LIMIT,
        schema: {
          consumes: ['multipart/form-data'],
          description: `One file part: JPEG, PNG, GIF, WebP or MP4, at most ${MMS_MAX_BYTES / 1024 / 1024} MB (checked by content).`,
        },
      },
    );
  });
}
