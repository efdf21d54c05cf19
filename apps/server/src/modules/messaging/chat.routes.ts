import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import {
  conversationDetail,
  queryConversations,
  reply,
  unreadCount,
  updateConversation,
} from './chat.service.ts';
import { MMS_MAX_BYTES, mediaFor, storeUpload } from './media.service.ts';
import { acceptUploads, readUploadedFile, UPLOAD_BODY_LIMIT } from './upload.ts';

/** Chat (docs/product.md#calls) and MMS media. The upload's multipart parser lives in this plugin only. */
export async function chatRoutes(app: App, ctx: AppContext) {
  const { livechat } = endpoints;

  // No body at all is the spec's call: every conversation.
  route(app, ctx, livechat.queryConversation, async (req) => ({
    code: 1 as const,
    data: { records: await queryConversations(ctx, currentUser(req), req.body?.filter) },
  }));

  route(app, ctx, livechat.unreadCount, async (req) => ({
    code: 1 as const,
    data: await unreadCount(ctx, currentUser(req)),
  }));

  route(app, ctx, livechat.queryConversationDetail, async (req) => ({
    code: 1 as const,
    data: await conversationDetail(ctx, currentUser(req), req.body.conversationId),
  }));

  route(app, ctx, livechat.updateConversation, async (req) => ({
    code: 1 as const,
    msg: 'Saved.',
    data: await updateConversation(ctx, currentUser(req), req.body),
  }));

  route(app, ctx, livechat.reply, async (req) => ({
    code: 1 as const,
    msg: 'Sent.',
    data: await reply(ctx, currentUser(req), req.body),
  }));

  route(app, ctx, livechat.media, async (req, reply) => {
    const m = await mediaFor(ctx, currentUser(req), req.params.fileName);
    return reply
      .header('content-type', m.content_type)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `inline; filename="${m.name}"`)
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, max-age=86400')
      .send(m.data);
  });

  await app.register(async (sub: App) => {
    await acceptUploads(sub);
    route(
      sub,
      ctx,
      livechat.mmsUpload,
      async (req) => {
        const data = await readUploadedFile(req);
        const fileName = await storeUpload(ctx, currentUser(req), data);
        return { code: 1 as const, msg: 'Uploaded.', fileName };
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
