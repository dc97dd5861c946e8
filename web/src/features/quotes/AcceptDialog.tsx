import { Alert, Anchor, Button, Checkbox, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/mutation.ts';
import type { components } from '../../api/schema.d.ts';
import { problemFields } from '../../ui/problem.ts';
import { ErrorState } from '../../ui/states.tsx';
import { guestQuoteApi, quoteApi, quoteQueries } from './api/index.ts';
import { ColumnChoice } from './PriceBreaks.tsx';

type Quote = components['schemas']['Quote'];

/**
 * Accepting a quote is signing it: the buyer reads the PDF, types their name, may give a PO number
 * and a comment, and confirms explicitly. The PDF's language and SHA-256 go with the answer, so
 * the evidence names the very document shown here (a replaced PDF is refused, 409).
 */
export function AcceptDialog({
  quote,
  opened,
  onClose,
  onAccepted,
  guestToken,
}: {
  quote: Pick<Quote, 'id' | 'code' | 'pdfs' | 'priceBreakColumns' | 'currency'>;
  opened: boolean;
  onClose: () => void;
  onAccepted: () => Promise<unknown>;
  /** A guest link's token: the answer goes to the link's public route, with the signer's e-mail. */
  guestToken?: string;
}) {
  const { t, i18n } = useTranslation();
  const [typedName, setTypedName] = useState('');
  const [poNumber, setPoNumber] = useState('');
  const [comment, setComment] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [email, setEmail] = useState('');
  // The price-break column chosen; with a single column offered it is the one.
  const columns = quote.priceBreakColumns;
  const [column, setColumn] = useState<string | null>(columns.length === 1 ? columns[0]!.id : null);
  const chosen = columns.find((c) => c.id === column);
  // The PDF in the reader's language when there is one, else the first stored one.
  const pdf = quote.pdfs.find((p) => p.localisationId === i18n.language) ?? quote.pdfs[0];
  const accept = useApiMutation({
    mutationFn: (): Promise<unknown> => {
      const body = {
        typedName: typedName.trim(),
        confirm: true,
        ...(poNumber.trim() ? { poNumber: poNumber.trim() } : {}),
        ...(comment.trim() ? { comment: comment.trim() } : {}),
        ...(chosen
          ? {
              option: {
                id: chosen.id,
                ...(chosen.quantity != null ? { quantity: chosen.quantity } : {}),
              },
            }
          : {}),
        ...(pdf ? { localisationId: pdf.localisationId, pdfSha256: pdf.sha256 } : {}),
      };
      return guestToken
        ? guestQuoteApi.accept(guestToken, { ...body, email: email.trim() })
        : quoteApi.accept(quote.id, body);
    },
    onSuccess: async () => {
      onClose();
      await onAccepted();
    },
  });
  const fields = problemFields(accept.error, t);
  return (
    <Modal opened={opened} onClose={onClose} title={t('acceptance.title', { code: quote.code ?? '' })}>
      <Stack data-testid="accept-dialog">
        {pdf ? (
          <Text size="sm">
            {t('acceptance.readFirst')}{' '}
            <Anchor href={pdf.url} target="_blank" rel="noopener" data-testid="accept-pdf">
              {pdf.filename}
            </Anchor>
          </Text>
        ) : (
          <Text size="sm">{t('acceptance.noPdf')}</Text>
        )}
        <TextInput
          label={t('acceptance.typedName')}
          description={t('acceptance.typedNameHint')}
          value={typedName}
          onChange={(e) => setTypedName(e.currentTarget.value)}
          error={fields['/typedName']}
          required
          maxLength={200}
          data-testid="accept-name"
        />
        <ColumnChoice quote={quote} value={column} onChange={setColumn} error={fields['/option']} />
        {guestToken && (
          <TextInput
            label={t('guest.email')}
            description={t('guest.emailHint')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fields['/email']}
            required
            maxLength={254}
            data-testid="accept-email"
          />
        )}
        <TextInput
          label={t('acceptance.poNumber')}
          value={poNumber}
          onChange={(e) => setPoNumber(e.currentTarget.value)}
          maxLength={100}
          data-testid="accept-po"
        />
        <Textarea
          label={t('acceptance.comment')}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={2000}
          data-testid="accept-comment"
        />
        <Checkbox
          label={t('acceptance.confirm', { code: quote.code ?? '' })}
          checked={confirmed}
          onChange={(e) => setConfirmed(e.currentTarget.checked)}
          error={fields['/confirm']}
          data-testid="accept-confirm"
        />
        {accept.error && !Object.keys(fields).length ? <ErrorState error={accept.error} /> : null}
        <Alert color="gray" variant="light">
          <Text size="xs">{t('acceptance.evidence')}</Text>
        </Alert>
        <Button
          color="teal.9"
          disabled={
            !typedName.trim() ||
            !confirmed ||
            (Boolean(guestToken) && !email.trim()) ||
            (columns.length > 0 && !chosen)
          }
          loading={accept.isPending}
          onClick={() => accept.mutate()}
          data-testid="accept-submit"
        >
          {t('acceptance.submit')}
        </Button>
      </Stack>
    </Modal>
  );
}

/**
 * The signed PDF of a quote accepted with evidence (both sides may download it); nothing for a
 * quote staff marked signed without an acceptance.
 */
export function SignedPdfLink({ quoteId }: { quoteId: string }) {
  const { t } = useTranslation();
  const acceptance = useQuery({
    ...quoteQueries.acceptance(quoteId),
    retry: false,
  });
  if (acceptance.data?.decision !== 'accepted') return null;
  return (
    <Button
      component="a"
      variant="default"
      href={`/api/quotes/${quoteId}/acceptance/signed-pdf`}
      download
      data-testid="signed-pdf"
    >
      {t('acceptance.signedPdf')}
    </Button>
  );
}
