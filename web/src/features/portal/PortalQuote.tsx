import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Image,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../api/schema.d.ts';
import { LANGUAGES, languageOf } from '../../i18n/languages.ts';
import { date, money, number } from '../../ui/format.ts';
import { QuoteDieLines } from '../dielines/QuoteDieLines.tsx';
import { EntityComments } from '../orders/EntityComments.tsx';
import { QuoteBoxPreview } from '../preview3d/QuoteBoxPreview.tsx';
import { AcceptDialog, SignedPdfLink } from '../quotes/AcceptDialog.tsx';
import { guidanceOf, offers } from '../quotes/actions.ts';
import { quoteKeys, quoteQueries } from '../quotes/api/index.ts';
import { DeclineDialog } from '../quotes/DeclineDialog.tsx';
import { lineName } from '../quotes/lines.ts';
import { PriceBreaksTable } from '../quotes/PriceBreaks.tsx';
import { ProofPanel } from '../quotes/ProofPanel.tsx';
import { QuoteTermsCard, QuoteVatTotals } from '../quotes/QuoteTerms.tsx';
import { useBrand, useImageUrl } from './brand.ts';

type Quote = components['schemas']['Quote'];

export const STATE_COLOURS: Record<string, string> = {
  draft: 'gray.7',
  published: 'blue.9',
  signed: 'teal.9',
  rejected: 'red.9',
  expired: 'orange.9',
};

/** A line as the buyer reads it (a quote line, a guest page line). */
export type BuyerLine = {
  key: string;
  reference?: string | null;
  name: string;
  quantity: number;
  unitPrice: number | null | undefined;
  totalPrice: number | null | undefined;
  depth?: number;
};

/**
 * The quote's lines for a buyer: a table on wide screens; on a phone each line is a block whose
 * total stays on screen (name above, quantity x unit price and the total on one row).
 */
export function BuyerLines({ lines, currency }: { lines: BuyerLine[]; currency: string }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 40em)');
  if (phone)
    return (
      <Stack gap={0} data-testid="quote-lines">
        {lines.map((line) => (
          <div
            key={line.key}
            style={{
              borderBottom: '1px solid var(--mantine-color-gray-3)',
              padding: '8px 0',
              paddingLeft: line.depth ? 16 : 0,
            }}
          >
            <Text size="sm" fw={line.depth ? 400 : 600} style={{ overflowWrap: 'anywhere' }}>
              {line.name}
            </Text>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text size="xs" c="dimmed">
                {line.reference ? `${line.reference} · ` : ''}
                {number(line.quantity)} × {money(line.unitPrice, currency, 4)}
              </Text>
              <Text size="sm" fw={600} data-testid="line-total" style={{ whiteSpace: 'nowrap' }}>
                {money(line.totalPrice, currency)}
              </Text>
            </Group>
          </div>
        ))}
      </Stack>
    );
  return (
    <Table data-testid="quote-lines" verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('quotes.reference')}</Table.Th>
          <Table.Th>{t('common.name')}</Table.Th>
          <Table.Th ta="right">{t('portal.quantity')}</Table.Th>
          <Table.Th ta="right">{t('portal.unitPrice')}</Table.Th>
          <Table.Th ta="right">{t('portal.lineTotal')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {lines.map((line) => (
          <Table.Tr key={line.key}>
            <Table.Td pl={line.depth ? 32 : undefined}>{line.reference ?? '—'}</Table.Td>
            <Table.Td>{line.name}</Table.Td>
            <Table.Td ta="right">{number(line.quantity)}</Table.Td>
            <Table.Td ta="right">{money(line.unitPrice, currency, 4)}</Table.Td>
            <Table.Td ta="right" data-testid="line-total">
              {money(line.totalPrice, currency)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The seller's logo and name above a quote (organisation settings, as the PDF prints them). */
export function SellerHeader({ name, logoUrl }: { name: string; logoUrl: string | null | undefined }) {
  const { t } = useTranslation();
  const logo = useImageUrl(logoUrl);
  return (
    <Group gap="sm" wrap="nowrap" data-testid="seller">
      {logo && <Image src={logo} alt={name} h={40} w="auto" maw={160} fit="contain" />}
      <Text size="sm" c="dimmed">
        {t('portal.from', { seller: name })}
      </Text>
    </Group>
  );
}

/** The quote's stored PDF in a language: read in a new tab or downloaded (the session cookie serves it). */
export function PdfLinks({
  quote,
  language,
  onLanguage,
}: {
  quote: Pick<Quote, 'id' | 'code' | 'pdfs'>;
  language: string;
  onLanguage: (language: string) => void;
}) {
  const { t } = useTranslation();
  const url = `/api/quotes/${quote.id}/localisation/${language}`;
  return (
    <Group gap="xs" data-testid="pdf-links">
      <SegmentedControl
        aria-label={t('portal.pdfLanguage')}
        size="xs"
        value={language}
        onChange={onLanguage}
        data={LANGUAGES.map((l) => ({ value: l.value, label: l.value.toUpperCase() }))}
      />
      <Button component="a" variant="default" size="xs" href={url} target="_blank" rel="noopener">
        {t('portal.openPdf')}
      </Button>
      <Button
        component="a"
        variant="default"
        size="xs"
        href={url}
        download={`${quote.code ?? 'quote'}-${language}.pdf`}
        data-testid="pdf-download"
      >
        {t('portal.downloadPdf')}
      </Button>
    </Group>
  );
}

/**
 * The buyer's quote page: the seller's brand, the lines and totals, the terms, the PDF in the
 * buyer's language, accept (the AcceptDialog: typed name, PO number, comment, confirmation) or
 * decline with a reason, the signed PDF once accepted, and questions to the seller.
 */
export function PortalQuote({ quote: q }: { quote: Quote }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const brand = useBrand();
  const [language, setLanguage] = useState<string>(languageOf(i18n.language));
  const [accepting, acceptDialog] = useDisclosure();
  const [declining, declineDialog] = useDisclosure();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: quoteKeys.all });
  };
  const acceptance = useQuery({
    ...quoteQueries.acceptance(q.id),
    enabled: q.state === 'signed' || q.state === 'rejected',
    retry: false,
  });
  const lines: BuyerLine[] = q.items.flatMap((item) => [
    {
      key: item.id,
      reference: item.reference,
      name: lineName(item, i18n.language),
      quantity: item.quantity,
      unitPrice: item.price,
      totalPrice: item.totalPrice,
    },
    ...(item.children ?? []).map((child) => ({
      key: child.id,
      reference: child.reference,
      name: lineName(child, i18n.language),
      quantity: child.quantity,
      unitPrice: child.price,
      totalPrice: child.totalPrice,
      depth: 1,
    })),
  ]);
  const answer = acceptance.data;
  return (
    <Stack data-testid="portal-quote">
      <Card withBorder>
        <Stack gap="xs">
          <SellerHeader name={brand.data?.name ?? ''} logoUrl={brand.data?.logoUrl} />
          <Title order={2} data-testid="quote-title" style={{ overflowWrap: 'anywhere' }}>
            {q.code ?? q.name}
          </Title>
          <Group gap="xs">
            <Badge color={STATE_COLOURS[q.state]} data-testid="quote-state">
              {t(`quotes.states.${q.state}`)}
            </Badge>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {q.name} · v{q.version}
              {q.validUntil ? ` · ${t('portal.validUntil', { date: date(q.validUntil) })}` : ''}
            </Text>
          </Group>
          <Group gap="xs">
            {offers(q, 'accept') && (
              <Button color="teal.9" onClick={acceptDialog.open} data-testid="quote-accept">
                {t('quotes.accept')}
              </Button>
            )}
            {offers(q, 'decline') && (
              <Button
                color="red.9"
                variant="outline"
                onClick={declineDialog.open}
                data-testid="quote-decline"
              >
                {t('portal.decline')}
              </Button>
            )}
            {q.state === 'signed' && <SignedPdfLink quoteId={q.id} />}
          </Group>
        </Stack>
      </Card>

      <Alert color="gray" data-testid="quote-next">
        {q.state === 'draft' ? t('portal.draftRequested') : t(`quotes.guide.${guidanceOf(q)}`)}
        {answer?.decision === 'accepted' && answer.typedName ? (
          <Text size="sm" mt={4} data-testid="accepted-by">
            {t('portal.acceptedBy', { name: answer.typedName, date: date(answer.answeredAt) })}
            {answer.poNumber ? ` · ${t('portal.poNumber', { po: answer.poNumber })}` : ''}
          </Text>
        ) : null}
        {q.rejectionReason ? ` — ${q.rejectionReason}` : ''}
      </Alert>

      <Card withBorder>
        <Title order={3} size="h4" mb="xs">
          {t('portal.lines')}
        </Title>
        <BuyerLines lines={lines} currency={q.currency} />
        <Group justify="flex-end" mt="sm">
          <Text size="sm" c="dimmed">
            {t('portal.total')}
          </Text>
          <Text fw={700} data-testid="quote-total">
            {money(q.totalPrice, q.currency)}
          </Text>
        </Group>
        <QuoteVatTotals quote={q} />
      </Card>

      <PriceBreaksTable quote={q} />

      <QuoteTermsCard quote={q} editable={false} />

      {q.state !== 'draft' && (
        <Card withBorder>
          <Title order={3} size="h4" mb="xs">
            {t('quotes.pdf')}
          </Title>
          <PdfLinks quote={q} language={language} onLanguage={setLanguage} />
        </Card>
      )}

      {q.state !== 'draft' && <ProofPanel quoteId={q.id} />}
      <QuoteDieLines quoteId={q.id} items={q.items} />
      <QuoteBoxPreview items={q.items} quoteId={q.state !== 'draft' ? q.id : undefined} />

      <EntityComments
        owner="quotes"
        id={q.id}
        canWrite
        labels={{
          title: t('portal.questions'),
          field: t('portal.yourQuestion'),
          submit: t('portal.ask'),
          placeholder: t('portal.askPlaceholder'),
        }}
      />

      <AcceptDialog
        quote={q}
        opened={accepting}
        onClose={acceptDialog.close}
        onAccepted={async () => {
          notifications.show({ color: 'teal', message: t('portal.accepted') });
          await refresh();
        }}
      />
      <DeclineDialog
        quote={q}
        opened={declining}
        onClose={declineDialog.close}
        onDeclined={async () => {
          notifications.show({ color: 'teal', message: t('portal.declined') });
          await refresh();
        }}
      />
    </Stack>
  );
}
