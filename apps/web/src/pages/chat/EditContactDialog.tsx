import { zodResolver } from '@hookform/resolvers/zod';
import {
  CONTACT_NAME_MAX,
  CONTACT_NOTE_MAX,
  type Conversation,
  UpdateConversationBody,
} from '@simdock/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../api/client.ts';
import { FormDialog, FormField, Input, notify, Textarea } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatPhone } from '../../lib/format.ts';
import { fieldErrorText } from '../../lib/forms.ts';
import { useUpdateConversation } from './api.ts';

type Values = z.input<typeof UpdateConversationBody>;

const valuesOf = (c: Conversation): Values => ({
  conversationId: c.conversationId,
  contactName: c.contactName,
  note: c.note,
});

/**
 * The edit-contact dialog (docs/product.md#screens-and-routes): Name and Note, Cancel and Save. The
 * contract's body schema is checked first (and trims both); a failure shows 'Cập nhật thất bại: ' plus
 * the message (docs/product.md#errors-and-messages).
 */
export function EditContactDialog({
  conversation,
  open,
  onClose,
  onSaved,
}: {
  conversation: Conversation;
  open: boolean;
  onClose: () => void;
  /** The conversation as saved (the page may show a copy the lists no longer hold). */
  onSaved?: (c: Conversation) => void;
}) {
  const { t } = useI18n();
  const update = useUpdateConversation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<Values, unknown, z.output<typeof UpdateConversationBody>>({
    defaultValues: valuesOf(conversation),
    resolver: zodResolver(UpdateConversationBody),
  });

  // Each opening starts from the conversation as it is now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when opened, or when its contact changes
  useEffect(() => {
    if (open) reset(valuesOf(conversation));
  }, [open, conversation.conversationId, conversation.contactName, conversation.note, reset]);

  const save = handleSubmit((body) =>
    update.mutate(body, {
      onSuccess: (res) => {
        onSaved?.(res.data);
        notify.success(t('chat.saved'));
        onClose();
      },
      // The server's words (in the user's language as far as the catalogue goes), else the transport's.
      onError: (err) => notify.error(t('chat.updateFailed') + errorMessage(err)),
    }),
  );

  return (
    <FormDialog
      open={open}
      title={t('chat.editTitle')}
      onClose={onClose}
      onSubmit={save}
      submitLabel={t('chat.save')}
      pending={update.isPending}
      pendingLabel={t('chat.saving')}
    >
      <div className="flex flex-col gap-4">
        <p className="font-mono text-[13px] text-muted">{formatPhone(conversation.receiver)}</p>
        <FormField label={t('chat.name')} error={fieldErrorText(t, errors.contactName)}>
          <Input autoComplete="off" maxLength={CONTACT_NAME_MAX} {...register('contactName')} />
        </FormField>
        <FormField label={t('chat.note')} error={fieldErrorText(t, errors.note)}>
          <Textarea rows={3} maxLength={CONTACT_NOTE_MAX} {...register('note')} />
        </FormField>
      </div>
    </FormDialog>
  );
}
