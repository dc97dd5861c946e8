import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  FileButton,
  Group,
  Image,
  List,
  Loader,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { auth } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { useApiMutation } from '../../api/mutation.ts';
import type { components } from '../../api/schema.d.ts';
import { date } from '../../ui/format.ts';
import { problemFields } from '../../ui/problem.ts';
import { ErrorState } from '../../ui/states.tsx';
import { useCan } from '../admin/useCan.ts';
import { showOnBox } from '../preview3d/QuoteBoxPreview.tsx';
import { guestQuoteApi, quoteApi, quoteKeys, quoteQueries } from './api/index.ts';

type Lines = components['schemas']['ArtworkProofLines'];
type Line = Lines['lines'][number];
type Proof = components['schemas']['ArtworkProof'];
type Decision = 'approved' | 'changes_requested';

const STATUS_COLOURS: Record<Line['status'], string> = {
  none: 'gray',
  awaiting_decision: 'yellow.4',
  approved: 'teal.9',
  changes_requested: 'red.9',
};

/** Uploads artwork as multipart (openapi-fetch sends JSON bodies). */
async function uploadArtwork(quoteId: string, itemId: string, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await fetch(`/api/quotes/${quoteId}/items/${itemId}/artwork`, {
    method: 'POST',
    headers: { authorization: `Bearer ${auth.get().token}` },
    body: form,
  });
  if (!response.ok)
    throw new ApiError({ status: response.status, ...(await response.json().catch(() => ({}))) });
}

/**
 * The proofs of a quote (docs/proofs.md): per line, upload artwork (a new version each time), the
 * preflight findings in the reader's words, the artwork over the die-line, the proof PDF, and the
 * buyer's approval or change request; earlier versions below. One column: usable on a phone.
 */
export function ProofPanel({ quoteId, guestToken }: { quoteId: string; guestToken?: string }) {
  const { t } = useTranslation();
  const may = useCan();
  const proofs = useQuery({
    // A guest link made for proofs reads them at its public address (403 for a quote-only link:
    // then the panel is not shown).
    ...quoteQueries.proofs(quoteId, guestToken),
    // Preflight runs in the background: poll while a version is being checked.
    refetchInterval: (query) =>
      query.state.data?.lines.some((l) => l.versions[0]?.preflightState === 'pending') ? 1500 : false,
  });
  if (proofs.isError) return guestToken ? null : <ErrorState error={proofs.error} />;
  if (!proofs.data) return null;
  const data = proofs.data;
  const withArtwork = data.lines.some((l) => l.versions.length);
  if (!data.uploadOpen && !withArtwork) return null;
  return (
    <Card withBorder data-testid="proof-panel">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('proofs.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {data.uploadOpen ? t(guestToken ? 'proofs.introGuest' : 'proofs.intro') : t('proofs.closed')}
        </Text>
        {withArtwork && (
          <Alert
            color={data.proofsPending ? 'yellow' : 'teal'}
            variant="light"
            data-testid="proof-gate"
            p="xs"
          >
            {data.proofsPending
              ? t('proofs.gatePending', { count: data.proofsPending })
              : t('proofs.gateClear')}
          </Alert>
        )}
        {data.lines.map((line) => (
          <ProofLine
            key={line.quoteItemId}
            quoteId={quoteId}
            line={line}
            canUpload={!guestToken && data.uploadOpen && may('files:write')}
            canDecide={data.uploadOpen && (Boolean(guestToken) || may('quotes:respond'))}
            guestToken={guestToken}
          />
        ))}
      </Stack>
    </Card>
  );
}

function ProofLine({
  quoteId,
  line,
  canUpload,
  canDecide,
  guestToken,
}: {
  quoteId: string;
  line: Line;
  canUpload: boolean;
  canDecide: boolean;
  guestToken?: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const quoteKey: readonly unknown[] = guestToken ? quoteKeys.guest(guestToken) : quoteKeys.detail(quoteId);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: quoteKey });
  };
  const upload = useApiMutation({
    mutationFn: (file: File) => uploadArtwork(quoteId, line.quoteItemId, file),
    success: t('proofs.uploaded'),
    invalidates: [quoteKey],
  });
  const [latest, ...earlier] = line.versions;
  const ready = latest && latest.preflightState !== 'pending' && latest.urls.proofPdf;
  const testId = `proof-line-${line.quoteItemId}`;
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600}>
            {line.reference ? `${line.reference} · ` : ''}
            {line.name}
          </Text>
          <Badge color={STATUS_COLOURS[line.status]} autoContrast data-testid="proof-status">
            {t(`proofs.status.${line.status}`)}
          </Badge>
        </Group>
        {!line.hasTemplate && (
          <Text size="xs" c="dimmed">
            {t('proofs.noTemplate')}
          </Text>
        )}
        {latest ? <Version proof={latest} name={line.name} /> : <Text size="sm">{t('proofs.none')}</Text>}
        {!guestToken && latest?.urls.preview && line.hasTemplate && (
          <Anchor
            component="button"
            type="button"
            size="sm"
            ta="left"
            onClick={() => showOnBox(line.quoteItemId)}
            data-testid="proof-show-on-box"
          >
            {t('proofs.showOnBox')}
          </Anchor>
        )}
        {upload.error ? <ErrorState error={upload.error} /> : null}
        <Group gap="xs" wrap="wrap">
          {canUpload && (
            <FileButton
              onChange={(file) => file && upload.mutate(file)}
              accept="application/pdf,image/png,image/jpeg,image/tiff"
            >
              {(props) => (
                <Button
                  {...props}
                  variant={latest ? 'default' : 'filled'}
                  loading={upload.isPending}
                  data-testid="proof-upload"
                >
                  {latest ? t('proofs.uploadNew') : t('proofs.upload')}
                </Button>
              )}
            </FileButton>
          )}
          {canDecide && ready && !latest.decision && (
            <>
              <Button color="teal.9" onClick={() => setDeciding('approved')} data-testid="proof-approve">
                {t('proofs.approve')}
              </Button>
              <Button
                color="red.9"
                variant="outline"
                onClick={() => setDeciding('changes_requested')}
                data-testid="proof-request-changes"
              >
                {t('proofs.requestChanges')}
              </Button>
            </>
          )}
        </Group>
        {canUpload && (
          <Text size="xs" c="dimmed">
            {t('proofs.formats')}
          </Text>
        )}
        {earlier.length > 0 && (
          <details>
            <summary>
              <Text span size="sm">
                {t('proofs.earlier', { count: earlier.length })}
              </Text>
            </summary>
            <List size="sm" mt={4}>
              {earlier.map((proof) => (
                <List.Item key={proof.id}>
                  {t('proofs.version', { version: proof.version })} · {proof.artworkFilename} ·{' '}
                  {date(proof.createdAt)}
                  {proof.decision ? ` · ${t(`proofs.status.${proof.decision.decision}`)}` : ''}
                  {proof.urls.proofPdf ? (
                    <>
                      {' · '}
                      <Anchor href={proof.urls.proofPdf} target="_blank" rel="noopener">
                        {t('proofs.proofPdf')}
                      </Anchor>
                    </>
                  ) : null}
                </List.Item>
              ))}
            </List>
          </details>
        )}
      </Stack>
      {latest && deciding && (
        <DecisionDialog
          quoteId={quoteId}
          proof={latest}
          name={line.name}
          decision={deciding}
          guestToken={guestToken}
          onClose={() => setDeciding(null)}
          onDone={refresh}
        />
      )}
    </Card>
  );
}

function Version({ proof, name }: { proof: Proof; name: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} data-testid="proof-version">
      <Text size="sm">
        {t('proofs.version', { version: proof.version })} · {proof.artworkFilename} · {date(proof.createdAt)}
      </Text>
      {proof.preflightState === 'pending' ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">{t('proofs.checking')}</Text>
        </Group>
      ) : proof.preflightState === 'failed' ? (
        <Text size="sm" c="red.9">
          {t('proofs.failed')}
        </Text>
      ) : (
        <>
          {proof.findings.length ? (
            <Stack gap={4} data-testid="proof-findings">
              {proof.findings.map((finding) => (
                <Group key={finding.code} gap="xs" wrap="nowrap" align="flex-start">
                  <Badge
                    size="sm"
                    color={finding.severity === 'error' ? 'red.9' : 'yellow.4'}
                    autoContrast
                    style={{ flexShrink: 0 }}
                  >
                    {t(`proofs.severity.${finding.severity}`)}
                  </Badge>
                  <Text size="sm" data-testid={`finding-${finding.code}`}>
                    {t(`proofs.findings.${finding.code}`, finding.params)}
                  </Text>
                </Group>
              ))}
            </Stack>
          ) : (
            <Text size="sm" c="teal.9" data-testid="proof-findings-none">
              {t('proofs.noFindings')}
            </Text>
          )}
          {proof.urls.preview && (
            <Image
              src={proof.urls.preview}
              alt={t('proofs.previewAlt', { name, version: proof.version })}
              maw={360}
              radius="sm"
              style={{ border: '1px solid var(--mantine-color-gray-4)' }}
              data-testid="proof-preview"
            />
          )}
          <Group gap="md">
            {proof.urls.proofPdf && (
              <Anchor
                href={proof.urls.proofPdf}
                target="_blank"
                rel="noopener"
                data-testid="proof-pdf"
                size="sm"
              >
                {t('proofs.proofPdf')}
              </Anchor>
            )}
            <Anchor href={proof.urls.artwork} size="sm">
              {t('proofs.artworkFile')}
            </Anchor>
          </Group>
        </>
      )}
      {proof.decision && (
        <Text
          size="sm"
          c={proof.decision.decision === 'approved' ? 'teal.9' : 'red.9'}
          data-testid="proof-decision"
        >
          {t(proof.decision.decision === 'approved' ? 'proofs.approvedBy' : 'proofs.changesBy', {
            name: proof.decision.typedName ?? '',
            date: proof.decision.decidedAt ? date(proof.decision.decidedAt) : '',
          })}
          {proof.decision.comment ? ` — ${proof.decision.comment}` : ''}
        </Text>
      )}
    </Stack>
  );
}

/** Approve (typed name + explicit confirmation) or request changes (typed name + comment). */
function DecisionDialog({
  quoteId,
  proof,
  name,
  decision,
  onClose,
  onDone,
  guestToken,
}: {
  quoteId: string;
  proof: Proof;
  name: string;
  decision: Decision;
  onClose: () => void;
  onDone: () => Promise<unknown>;
  /** A guest link made for proofs: the decision goes to its public route, with the guest's e-mail. */
  guestToken?: string;
}) {
  const { t } = useTranslation();
  const [typedName, setTypedName] = useState('');
  const [email, setEmail] = useState('');
  const [comment, setComment] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const approving = decision === 'approved';
  const send = useApiMutation({
    mutationFn: (): Promise<unknown> => {
      const body = {
        decision,
        typedName: typedName.trim(),
        ...(approving ? { confirm: true } : { comment: comment.trim() }),
        ...(proof.proofSha256 ? { proofSha256: proof.proofSha256 } : {}),
      };
      return guestToken
        ? guestQuoteApi.decideProof(guestToken, proof.id, { ...body, email: email.trim() })
        : quoteApi.decideProof(quoteId, proof.id, body);
    },
    success: t(`proofs.status.${decision}`),
    onSuccess: async () => {
      onClose();
      await onDone();
    },
  });
  const fields = problemFields(send.error, t);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(approving ? 'proofs.approveTitle' : 'proofs.changesTitle', { name })}
      fullScreen={typeof window !== 'undefined' && window.innerWidth < 500}
    >
      <Stack data-testid="proof-dialog">
        {proof.urls.proofPdf && (
          <Text size="sm">
            {t('proofs.readFirst')}{' '}
            <Anchor href={proof.urls.proofPdf} target="_blank" rel="noopener">
              {t('proofs.proofPdf')} · {t('proofs.version', { version: proof.version })}
            </Anchor>
          </Text>
        )}
        <TextInput
          label={t('proofs.typedName')}
          value={typedName}
          onChange={(e) => setTypedName(e.currentTarget.value)}
          error={fields['/typedName']}
          required
          maxLength={200}
          data-testid="proof-name"
        />
        {guestToken ? (
          <TextInput
            label={t('guest.email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fields['/email']}
            required
            maxLength={254}
            data-testid="proof-email"
          />
        ) : null}
        {approving ? (
          <Checkbox
            label={t('proofs.confirm')}
            checked={confirmed}
            onChange={(e) => setConfirmed(e.currentTarget.checked)}
            error={fields['/confirm']}
            data-testid="proof-confirm"
          />
        ) : (
          <Textarea
            label={t('proofs.comment')}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            error={fields['/comment']}
            autosize
            minRows={3}
            maxLength={5000}
            required
            data-testid="proof-comment"
          />
        )}
        {send.error && !Object.keys(fields).length ? <ErrorState error={send.error} /> : null}
        <Alert color="gray" variant="light">
          <Text size="xs">{t('proofs.evidence')}</Text>
        </Alert>
        <Button
          color={approving ? 'teal.9' : 'red.9'}
          disabled={!typedName.trim() || (approving ? !confirmed : !comment.trim())}
          loading={send.isPending}
          onClick={() => send.mutate()}
          data-testid="proof-submit"
        >
          {t('proofs.submit')}
        </Button>
      </Stack>
    </Modal>
  );
}
