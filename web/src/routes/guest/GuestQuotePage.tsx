import { Alert, Badge, Button, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { BuyerLines, SellerHeader, STATE_COLOURS } from '../../features/portal/PortalQuote.tsx';
import { AcceptDialog } from '../../features/quotes/AcceptDialog.tsx';
import { quoteKeys, quoteQueries } from '../../features/quotes/api/index.ts';
import { DeclineDialog } from '../../features/quotes/DeclineDialog.tsx';
import { ProofPanel } from '../../features/quotes/ProofPanel.tsx';
import { LANGUAGES } from '../../i18n/index.ts';
import { isLanguage } from '../../i18n/languages.ts';
import { date, money } from '../../ui/format.ts';
import { Select } from '../../ui/Select.tsx';
import { ErrorState, Loading } from '../../ui/states.tsx';

/**
 * The page of a guest link (no account): the quote in the link's language (the reader may choose
 * another), the lines and total, the PDF, accept (the AcceptDialog with the signer's e-mail) or
 * decline with a reason, and the signed PDF once accepted. The token in the URL is the credential.
 */
export default function GuestQuotePage() {
  const { token } = useParams() as { token: string };
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [accepting, acceptDialog] = useDisclosure();
  const [declining, declineDialog] = useDisclosure();
  const key = quoteKeys.guest(token);
  const view = useQuery(quoteQueries.guest(token));
  // The link's language first; the reader's own choice afterwards.
  const languageSet = useRef(false);
  useEffect(() => {
    const language = view.data?.localisationId;
    if (!languageSet.current && language && isLanguage(language)) {
      languageSet.current = true;
      if (i18n.language !== language) void i18n.changeLanguage(language);
    }
  }, [view.data?.localisationId, i18n]);

  const header = (
    <Group justify="flex-end" p="sm">
      <Select
        aria-label={t('nav.language')}
        data={LANGUAGES.map((l) => ({ ...l }))}
        value={i18n.language}
        onChange={(value) => value && void i18n.changeLanguage(value)}
        w={130}
        allowDeselect={false}
      />
    </Group>
  );
  if (view.isPending)
    return (
      <>
        {header}
        <Loading />
      </>
    );
  if (view.error) {
    const status = view.error instanceof ApiError ? view.error.problem.status : 0;
    return (
      <Container size="sm">
        {header}
        {status === 404 || status === 410 ? (
          <Alert color="red.9" data-testid="guest-invalid">
            {t('guest.invalid')}
          </Alert>
        ) : (
          <ErrorState error={view.error} onRetry={() => void view.refetch()} />
        )}
      </Container>
    );
  }
  const { quote, acceptance, seller, lines, pdfUrl, pdfSha256, localisationId } = view.data;
  const open = quote.state === 'published' && !acceptance;
  const filename = `${quote.code ?? 'quote'}-${localisationId}.pdf`;
  return (
    <Container size="md" px="sm" pb="xl">
      {header}
      <Stack component="main" id="main" data-testid="guest-quote">
        <Card withBorder>
          <Stack gap="xs">
            <SellerHeader name={seller.name} logoUrl={seller.logoUrl} />
            <Title order={1} size="h2" data-testid="quote-title" style={{ overflowWrap: 'anywhere' }}>
              {t('guest.title', { code: quote.code ?? quote.name })}
            </Title>
            <Group gap="xs">
              <Badge color={STATE_COLOURS[quote.state]} data-testid="quote-state">
                {t(`quotes.states.${quote.state}`)}
              </Badge>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {quote.name} · {t('guest.for', { company: quote.companyName })}
                {quote.validUntil ? ` · ${t('portal.validUntil', { date: date(quote.validUntil) })}` : ''}
              </Text>
            </Group>
            <Group gap="xs">
              {open && (
                <>
                  <Button color="teal.9" onClick={acceptDialog.open} data-testid="quote-accept">
                    {t('quotes.accept')}
                  </Button>
                  <Button
                    color="red.9"
                    variant="outline"
                    onClick={declineDialog.open}
                    data-testid="quote-decline"
                  >
                    {t('portal.decline')}
                  </Button>
                </>
              )}
              {acceptance?.signedPdfUrl && (
                <Button
                  component="a"
                  variant="default"
                  href={acceptance.signedPdfUrl}
                  download
                  data-testid="signed-pdf"
                >
                  {t('guest.signedPdf')}
                </Button>
              )}
            </Group>
          </Stack>
        </Card>
        {acceptance ? (
          <Alert color={acceptance.decision === 'accepted' ? 'teal' : 'gray'} data-testid="guest-answered">
            {acceptance.decision === 'accepted'
              ? t('guest.answeredAccepted', {
                  name: acceptance.typedName ?? '',
                  date: date(acceptance.answeredAt),
                })
              : t('guest.answeredDeclined', { date: date(acceptance.answeredAt) })}
          </Alert>
        ) : !open ? (
          <Alert color="gray">{t('guest.notOpen', { state: t(`quotes.states.${quote.state}`) })}</Alert>
        ) : null}
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">
            {t('portal.lines')}
          </Title>
          <BuyerLines
            lines={lines.map((line, i) => ({ key: String(i), ...line }))}
            currency={quote.currency}
          />
          <Group justify="flex-end" mt="sm">
            <Text size="sm" c="dimmed">
              {t('portal.total')}
            </Text>
            <Text fw={700} data-testid="quote-total">
              {money(quote.totalPrice, quote.currency)}
            </Text>
          </Group>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">
            {t('quotes.pdf')}
          </Title>
          <Group gap="xs">
            <Button component="a" variant="default" size="xs" href={pdfUrl} target="_blank" rel="noopener">
              {t('portal.openPdf')}
            </Button>
            <Button
              component="a"
              variant="default"
              size="xs"
              href={pdfUrl}
              download={filename}
              data-testid="pdf-download"
            >
              {t('portal.downloadPdf')}
            </Button>
          </Group>
        </Card>
        {/* A link made for proofs: the artwork proofs to approve or send back (hidden otherwise). */}
        {quote.state !== 'draft' ? <ProofPanel quoteId={quote.id} guestToken={token} /> : null}
      </Stack>
      <AcceptDialog
        quote={{
          id: quote.id,
          code: quote.code,
          currency: quote.currency,
          priceBreakColumns: quote.priceBreakColumns,
          pdfs: pdfSha256
            ? [
                {
                  id: quote.id,
                  localisationId,
                  sha256: pdfSha256,
                  url: pdfUrl,
                  filename,
                  mimeType: 'application/pdf',
                  size: 0,
                  createdAt: '',
                },
              ]
            : [],
        }}
        guestToken={token}
        opened={accepting}
        onClose={acceptDialog.close}
        onAccepted={() => queryClient.invalidateQueries({ queryKey: key })}
      />
      <DeclineDialog
        quote={quote}
        guestToken={token}
        opened={declining}
        onClose={declineDialog.close}
        onDeclined={() => queryClient.invalidateQueries({ queryKey: key })}
      />
    </Container>
  );
}
