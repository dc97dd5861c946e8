import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  CopyButton,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { auth, useAuth } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { useApiAction } from '../../api/mutation.ts';
import { useCan } from '../../features/admin/useCan.ts';
import { contactLabel, contactLink } from '../../features/contacts/label.ts';
import { QuoteDieLines } from '../../features/dielines/QuoteDieLines.tsx';
import { orderName } from '../../features/orders/format.ts';
import { PortalQuote } from '../../features/portal/PortalQuote.tsx';
import { QuoteBoxPreview } from '../../features/preview3d/QuoteBoxPreview.tsx';
import { AcceptDialog, SignedPdfLink } from '../../features/quotes/AcceptDialog.tsx';
import { guidanceOf, offers, type QuoteAction } from '../../features/quotes/actions.ts';
import { type Quote, quoteApi, quoteKeys, quoteQueries } from '../../features/quotes/api/index.ts';
import { LineParts } from '../../features/quotes/LineParts.tsx';
import { LinePicker, type Lines, linesBody, linesComplete } from '../../features/quotes/LinePicker.tsx';
import { lineName } from '../../features/quotes/lines.ts';
import { PriceBreaksTable } from '../../features/quotes/PriceBreaks.tsx';
import { ProofPanel } from '../../features/quotes/ProofPanel.tsx';
import { QuoteLinesEditor } from '../../features/quotes/QuoteLinesEditor.tsx';
import { QuoteTermsCard, QuoteVatTotals } from '../../features/quotes/QuoteTerms.tsx';
import { Total } from '../../features/quotes/Total.tsx';
import { LANGUAGES, languageOf } from '../../i18n/languages.ts';
import { paths } from '../../paths.ts';
import { date, money, number } from '../../ui/format.ts';
import { problemFields } from '../../ui/problem.ts';
import { ScrollingTable } from '../../ui/ScrollingTable.tsx';
import { ErrorState, QueryState } from '../../ui/states.tsx';
import { STATE_COLOURS } from './QuotesPage.tsx';

type Item = Quote['items'][number];

/** One quote: lines and totals, its state and what can happen next, PDF, guest links, revisions. */
export default function QuotePage() {
  const { id } = useParams() as { id: string };
  const { t } = useTranslation();
  const may = useCan();
  const { me } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const quote = useQuery(quoteQueries.detail(id));
  const [declining, decline] = useDisclosure();
  const [accepting, acceptDialog] = useDisclosure();
  const [reason, setReason] = useState('');
  const [lines, setLines] = useState<Lines>({ briefIds: [], articles: [] });
  /** A state change or edit: the quote and the lists are read again; a refusal shows the API's reason. */
  const act = useApiAction({ invalidates: [quoteKeys.all] });
  const refusal = act.error;
  const running = act.busy !== undefined;
  const run = (label: string, call: () => Promise<unknown>) => void act.run(label, call, label);

  return (
    <QueryState query={quote} back={{ to: paths.quotes, label: t('quotes.title') }}>
      {(q) => {
        // A buyer reads the quote in the portal's page: the seller's brand, no staff tools.
        if (me?.role === 'contact') return <PortalQuote quote={q} />;
        // The lifecycle's actions come from the API (allowedActions, per caller); the PDF and guest
        // links are not transitions: the permission to write quotes and the state decide them.
        const can = (action: QuoteAction) => offers(q, action);
        const writer = may('quotes:write');
        return (
          <Stack>
            <Group justify="space-between" align="flex-start">
              <Stack gap={4}>
                <Title order={2} data-testid="quote-title">
                  {q.code ?? q.name}
                </Title>
                <Group gap="xs">
                  <Badge color={STATE_COLOURS[q.state]} data-testid="quote-state">
                    {t(`quotes.states.${q.state}`)}
                  </Badge>
                  <Text size="sm">
                    {q.name} · v{q.version} ·{' '}
                    <Anchor component={Link} to={paths.company(q.companyId)}>
                      {q.company?.name}
                    </Anchor>
                    {q.contact ? (
                      <>
                        {` · ${t('contacts.contact')} `}
                        <Anchor
                          component={Link}
                          to={contactLink(q.contact, t)}
                          data-testid="quote-contact-link"
                        >
                          {contactLabel(q.contact, t)}
                        </Anchor>
                      </>
                    ) : null}
                    {q.validUntil ? ` · ${t('quotes.validUntil')} ${date(q.validUntil)}` : ''}
                  </Text>
                </Group>
              </Stack>
              <Group>
                {can('publish') && (
                  <Button
                    onClick={() =>
                      run(t('quotes.publish'), () => quoteApi.update(id, { state: 'published' }))
                    }
                    loading={running}
                  >
                    {t('quotes.publish')}
                  </Button>
                )}
                {can('accept') && (
                  <Button color="teal.9" onClick={acceptDialog.open} data-testid="quote-accept">
                    {t('quotes.accept')}
                  </Button>
                )}
                {q.state === 'signed' && <SignedPdfLink quoteId={q.id} />}
                {can('decline') && (
                  <Button color="red.9" variant="outline" onClick={decline.open}>
                    {t('quotes.decline')}
                  </Button>
                )}
                {can('convert') && (
                  <Button
                    onClick={() => run(t('quotes.convert'), () => quoteApi.convert(id))}
                    loading={running}
                  >
                    {t('quotes.convert')}
                  </Button>
                )}
                {can('revise') && (
                  <Button
                    variant="default"
                    onClick={() =>
                      void act.run('revise', async () => {
                        const revision = await quoteApi.revise(id);
                        navigate(paths.quote(revision.id));
                      })
                    }
                  >
                    {t('quotes.revise')}
                  </Button>
                )}
              </Group>
            </Group>

            <Alert color="gray" title={t('quotes.next')} data-testid="quote-next">
              {t(`quotes.guide.${guidanceOf(q)}`)}
              {q.rejectionReason ? ` — ${q.rejectionReason}` : ''}
              {q.order ? (
                <Text size="sm" mt={4} data-testid="quote-order">
                  {t('quotes.ordered')}{' '}
                  <Anchor component={Link} to={paths.order(q.order.id)}>
                    {orderName(q.order)}
                  </Anchor>
                </Text>
              ) : null}
            </Alert>
            {refusal ? <ErrorState error={refusal} /> : null}

            {can('edit') ? (
              <QuoteLinesEditor quote={q} />
            ) : (
              <Card withBorder>
                <Title order={3} size="h4" mb="xs">
                  {t('quotes.lines')}
                </Title>
                <ScrollingTable minWidth={640} label={t('quotes.lines')}>
                  <Table data-testid="quote-lines">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('quotes.reference')}</Table.Th>
                        <Table.Th>{t('common.name')}</Table.Th>
                        <Table.Th ta="right">{t('quotes.quantity')}</Table.Th>
                        <Table.Th ta="right">{t('quotes.unitPrice')}</Table.Th>
                        <Table.Th ta="right">{t('quotes.total')}</Table.Th>
                        <Table.Th>{t('quotes.comment')}</Table.Th>
                        {can('edit') && <Table.Th>{t('common.actions')}</Table.Th>}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {q.items.flatMap((item) => [
                        <LineRow
                          key={item.id}
                          item={item}
                          currency={q.currency}
                          depth={0}
                          onRemove={
                            can('edit')
                              ? () => run(t('common.remove'), () => quoteApi.removeItem(id, item.id))
                              : undefined
                          }
                        />,
                        <LineParts
                          key={`${item.id}-parts`}
                          item={item.children?.length ? { id: item.id } : item}
                          currency={q.currency}
                          before={1}
                          between={1}
                          after={can('edit') ? 2 : 1}
                        />,
                        ...(item.children ?? []).flatMap((child) => [
                          <LineRow key={child.id} item={child as Item} currency={q.currency} depth={1} />,
                          <LineParts
                            key={`${child.id}-parts`}
                            item={child}
                            currency={q.currency}
                            before={1}
                            between={1}
                            after={can('edit') ? 2 : 1}
                          />,
                        ]),
                      ])}
                    </Table.Tbody>
                  </Table>
                </ScrollingTable>
                <SimpleGrid cols={3} mt="sm" maw={520} ml="auto">
                  <Total label={t('lines.toolingIncluded')} value={money(q.toolingCost, q.currency)} />
                  <Total label={t('lines.deliveryIncluded')} value={money(q.deliveryCost, q.currency)} />
                  <Total
                    label={t('quotes.total')}
                    value={money(q.totalPrice, q.currency)}
                    strong
                    testId="quote-total"
                  />
                </SimpleGrid>
                <QuoteVatTotals quote={q} />
              </Card>
            )}
            {!can('edit') && <PriceBreaksTable quote={q} />}

            {q.state !== 'draft' && <ProofPanel quoteId={q.id} />}

            <QuoteDieLines quoteId={q.id} items={q.items} />
            <QuoteBoxPreview items={q.items} quoteId={q.state !== 'draft' ? q.id : undefined} />

            <QuoteTermsCard quote={q} editable={can('edit')} />

            {can('edit') && (
              <Card withBorder>
                <Title order={3} size="h4" mb="xs">
                  {t('quotes.addLines')}
                </Title>
                <LinePicker
                  companyId={q.companyId}
                  value={lines}
                  onChange={setLines}
                  errors={problemFields(refusal, t)}
                />
                <Group justify="flex-end" mt="sm">
                  <Button
                    disabled={(!lines.briefIds.length && !lines.articles.length) || !linesComplete(lines)}
                    onClick={() =>
                      run(t('common.saved'), async () => {
                        await quoteApi.addItems(id, linesBody(lines));
                        setLines({ briefIds: [], articles: [] });
                      })
                    }
                  >
                    {t('quotes.addLines')}
                  </Button>
                </Group>
              </Card>
            )}

            {q.state !== 'draft' && <PdfPanel quote={q} canRender={writer && q.state === 'published'} />}
            {writer && q.state !== 'draft' && <GuestLinks quoteId={q.id} />}
            {q.parentQuoteId && (
              <Text size="sm">
                {t('quotes.revisions')}:{' '}
                <Anchor component={Link} to={paths.quote(q.parentQuoteId)}>
                  v{q.version - 1}
                </Anchor>
              </Text>
            )}

            <AcceptDialog
              quote={q}
              opened={accepting}
              onClose={acceptDialog.close}
              onAccepted={async () => {
                notifications.show({ color: 'teal', message: t('quotes.accept') });
                await queryClient.invalidateQueries({ queryKey: quoteKeys.detail(id) });
              }}
            />
            <Modal opened={declining} onClose={decline.close} title={t('quotes.decline')}>
              <Stack>
                <Textarea
                  label={t('quotes.declineReason')}
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                  autosize
                  minRows={3}
                />
                <Button
                  color="red.9"
                  onClick={() => {
                    decline.close();
                    run(t('quotes.decline'), () => quoteApi.decline(id, reason ? { reason } : {}));
                  }}
                >
                  {t('quotes.decline')}
                </Button>
              </Stack>
            </Modal>
          </Stack>
        );
      }}
    </QueryState>
  );
}

function LineRow({
  item,
  currency,
  depth,
  onRemove,
}: {
  item: Item;
  currency: string;
  depth: number;
  onRemove?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const name = lineName(item, i18n.language);
  return (
    <Table.Tr>
      <Table.Td pl={depth ? 32 : undefined}>{item.reference ?? '—'}</Table.Td>
      <Table.Td>{name}</Table.Td>
      <Table.Td ta="right">{number(item.quantity)}</Table.Td>
      <Table.Td ta="right">{money(item.price, currency, 4)}</Table.Td>
      <Table.Td ta="right">{money(item.totalPrice, currency)}</Table.Td>
      <Table.Td>{item.comment ?? ''}</Table.Td>
      {onRemove !== undefined || depth === 0 ? (
        <Table.Td>
          {onRemove && (
            <Button
              size="xs"
              variant="subtle"
              color="red.9"
              c="red.9"
              onClick={onRemove}
              aria-label={`${t('common.remove')} ${name}`}
            >
              {t('common.remove')}
            </Button>
          )}
        </Table.Td>
      ) : null}
    </Table.Tr>
  );
}

/** The PDF in the page (en/fr/de): staff render it (POST generate-pdf); anyone may open a stored one. */
function PdfPanel({ quote, canRender }: { quote: Quote; canRender: boolean }) {
  const { t, i18n } = useTranslation();
  const [language, setLanguage] = useState<string>(languageOf(i18n.language));
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<unknown>();
  const stored = quote.pdfs.find((p) => p.localisationId === language);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  const load = async () => {
    setError(undefined);
    const headers = { authorization: `Bearer ${auth.get().token}` };
    const response = canRender
      ? await fetch(`/api/quotes/${quote.id}/generate-pdf`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ localisationId: language }),
        })
      : await fetch(`/api/quotes/${quote.id}/localisation/${language}`, { headers });
    if (!response.ok) {
      setError(new ApiError({ status: response.status, ...(await response.json().catch(() => ({}))) }));
      return;
    }
    setUrl(URL.createObjectURL(await response.blob()));
  };
  return (
    <Card withBorder data-testid="pdf-panel">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          {t('quotes.pdf')} · {quote.code}
        </Title>
        <Group>
          <SegmentedControl
            aria-label="PDF language"
            value={language}
            onChange={(v) => {
              setLanguage(v);
              setUrl(undefined);
            }}
            data={LANGUAGES.map((l) => ({ ...l }))}
          />
          {(canRender || stored) && (
            <Button variant="default" onClick={() => void load()} data-testid="pdf-preview">
              {t('quotes.preview')}
            </Button>
          )}
          {(stored || url) && (
            <Button
              component="a"
              variant="default"
              href={url ?? `/api/quotes/${quote.id}/localisation/${language}`}
              download={`${quote.code ?? 'quote'}-${language}.pdf`}
            >
              {t('quotes.download')}
            </Button>
          )}
        </Group>
      </Group>
      {error ? <ErrorState error={error} /> : null}
      {url && (
        <iframe
          title={`${t('quotes.pdf')} ${quote.code ?? ''} (${language})`}
          src={url}
          style={{ width: '100%', height: 640, border: '1px solid #ddd' }}
          data-testid="pdf-frame"
        />
      )}
    </Card>
  );
}

function GuestLinks({ quoteId }: { quoteId: string }) {
  const { t, i18n } = useTranslation();
  const [created, setCreated] = useState<{ id: string; url: string; pageUrl: string }>();
  const action = useApiAction({ invalidates: [quoteKeys.guestLinks(quoteId)] });
  const { error } = action;
  /** The next link is made for proofs: its guest may approve the artwork proofs too. */
  const [forProofs, setForProofs] = useState(false);
  const links = useQuery(quoteQueries.guestLinks(quoteId));
  return (
    <Card withBorder>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          {t('quotes.guestLinks')}
        </Title>
        <Button
          variant="default"
          data-testid="create-guest-link"
          onClick={async () => {
            const link = await action.run('create', () =>
              quoteApi.createGuestLink(quoteId, {
                localisationId: languageOf(i18n.language),
                ...(forProofs ? { proofs: true } : {}),
              }),
            );
            if (link) setCreated({ id: link.id, url: link.url, pageUrl: link.pageUrl });
          }}
        >
          {t('quotes.createLink')}
        </Button>
      </Group>
      <Checkbox
        mb="xs"
        label={t('quotes.linkForProofs')}
        checked={forProofs}
        onChange={(e) => setForProofs(e.currentTarget.checked)}
        data-testid="guest-link-proofs"
      />
      {error ? <ErrorState error={error} /> : null}
      {created && (
        <Stack gap={4} mb="sm">
          {(
            [
              ['guest-link-page', created.pageUrl, t('quotes.guestPage')],
              ['guest-link-url', created.url, t('quotes.guestPdf')],
            ] as const
          ).map(([testId, value, label]) => (
            <Group key={testId} gap="xs" wrap="nowrap">
              <Text size="sm" fw={600} style={{ flexShrink: 0 }}>
                {label}
              </Text>
              <Text size="sm" data-testid={testId} style={{ wordBreak: 'break-all' }}>
                {value}
              </Text>
              <CopyButton value={value}>
                {({ copied, copy }) => (
                  <Button size="xs" onClick={copy} style={{ flexShrink: 0 }}>
                    {copied ? t('quotes.copied') : t('quotes.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          ))}
        </Stack>
      )}
      <QueryState query={links} isEmpty={(d) => d.length === 0}>
        {(list) => (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('quotes.linkLanguage')}</Table.Th>
                <Table.Th>{t('quotes.linkCreated')}</Table.Th>
                <Table.Th>{t('quotes.linkExpires')}</Table.Th>
                <Table.Th>{t('common.status')}</Table.Th>
                <Table.Th>{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((link) => (
                <Table.Tr key={link.id}>
                  <Table.Td>{link.localisationId}</Table.Td>
                  <Table.Td>{date(link.createdAt)}</Table.Td>
                  <Table.Td>{date(link.expiresAt)}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <Badge color={link.active ? 'teal.9' : 'gray.7'}>
                        {link.active ? t('quotes.active') : t('quotes.inactive')}
                      </Badge>
                      {link.proofs ? (
                        <Badge variant="outline" color="indigo.9">
                          {t('quotes.linkProofs')}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {link.active && (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red.9"
                        c="red.9"
                        onClick={async () => {
                          await action.run(link.id, () => quoteApi.revokeGuestLink(quoteId, link.id));
                          // The link just created is dead now: do not keep offering it to copy.
                          if (created?.id === link.id) setCreated(undefined);
                        }}
                      >
                        {t('quotes.revoke')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}
