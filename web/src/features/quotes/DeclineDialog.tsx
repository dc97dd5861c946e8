import { Button, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/mutation.ts';
import { ErrorState } from '../../ui/states.tsx';
import { guestQuoteApi, quoteApi } from './api/index.ts';

/**
 * Declining a quote, with an optional reason: the buyer's (POST /quotes/{id}/decline) or, with
 * `guestToken`, a guest link's (its public route, with the e-mail the guest types as evidence).
 * One dialog for the portal and the guest page.
 */
export function DeclineDialog({
  quote,
  opened,
  onClose,
  onDeclined,
  guestToken,
}: {
  quote: { id: string; code?: string | null };
  opened: boolean;
  onClose: () => void;
  onDeclined: () => Promise<unknown>;
  /** A guest link's token: the answer goes to the link's public route, with the guest's e-mail. */
  guestToken?: string;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [email, setEmail] = useState('');
  const decline = useApiMutation({
    mutationFn: (): Promise<unknown> => {
      const because = reason.trim() ? { reason: reason.trim() } : {};
      return guestToken
        ? guestQuoteApi.decline(guestToken, { ...because, ...(email.trim() ? { email: email.trim() } : {}) })
        : quoteApi.decline(quote.id, because);
    },
    onSuccess: async () => {
      onClose();
      await onDeclined();
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('portal.declineTitle', { code: quote.code ?? '' })}>
      <Stack>
        {guestToken ? (
          <TextInput
            label={t('guest.email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            maxLength={254}
          />
        ) : null}
        <Textarea
          label={t('portal.declineReason')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          autosize
          minRows={3}
          maxLength={2000}
          data-testid="decline-reason"
        />
        {decline.error ? <ErrorState error={decline.error} /> : null}
        <Button
          color="red.9"
          loading={decline.isPending}
          onClick={() => decline.mutate()}
          data-testid="decline-submit"
        >
          {t('portal.declineSubmit')}
        </Button>
      </Stack>
    </Modal>
  );
}
