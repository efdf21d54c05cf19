import { type Conversation, UpdateConversationBody } from '@simdock/contract';
import { useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button, FormField, Input, Modal, notify, Textarea } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { useUpdateConversation } from './api.ts';

/**
 * The edit-contact dialog (docs/product.md#screens-and-routes): Name and Note, Cancel and Save. The
 * contract's limits are checked first; a failure shows 'Cập nhật thất bại: ' plus the message
 * (docs/product.md#errors-and-messages).
 */
export function EditContactDialog({
  conversation,
  open,
  onClose,
}: {
  conversation: Conversation;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const update = useUpdateConversation();
  const [name, setName] = useState(conversation.contactName);
  const [note, setNote] = useState(conversation.note);
  const [errors, setErrors] = useState<{ contactName?: string; note?: string }>({});

  useEffect(() => {
    if (!open) return;
    setName(conversation.contactName);
    setNote(conversation.note);
    setErrors({});
  }, [open, conversation.contactName, conversation.note]);

  const save = () => {
    const parsed = UpdateConversationBody.safeParse({
      conversationId: conversation.conversationId,
      contactName: name,
      note,
    });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'contactName' || field === 'note') next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: () => {
        notify.success(t('chat.saved'));
        onClose();
      },
      onError: (err) => {
        const message = (err instanceof ApiError && err.serverMessage) || errorMessage(err);
        notify.error(t('chat.updateFailed') + message);
      },
    });
  };

  return (
    <Modal
      open={open}
      title={t('chat.editTitle')}
      onClose={onClose}
      busy={update.isPending}
      onSubmit={save}
      footer={
        <>
          <Button onClick={onClose} disabled={update.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="primary" busy={update.isPending} busyLabel={t('chat.saving')}>
            {t('chat.save')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <p className="font-mono text-[13px] text-muted">{conversation.receiver}</p>
        <FormField label={t('chat.name')} error={errors.contactName}>
          <Input value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </FormField>
        <FormField label={t('chat.note')} error={errors.note}>
          <Textarea value={note} onChange={(e) => setNote(e.target.value)} rows={3} />
        </FormField>
      </div>
    </Modal>
  );
}
