import { Badge, Button, Card, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isStaff, useAuth } from '../../api/auth.ts';
import { useCan } from '../../features/admin/useCan.ts';
import { ArticleForm } from '../../features/articles/ArticleForm.tsx';
import { articleApi, articleKeys, articleQueries } from '../../features/articles/api.ts';
import { BriefElementCard } from '../../features/articles/BriefElementCard.tsx';
import { DieLineMenu } from '../../features/dielines/DieLineDownloads.tsx';
import { EntityComments } from '../../features/orders/EntityComments.tsx';
import { EntityFiles } from '../../features/orders/EntityFiles.tsx';
import { ReorderResult, useReorder } from '../../features/portal/Reorder.tsx';
import { money, number } from '../../ui/format.ts';
import { QueryState } from '../../ui/states.tsx';

/** One article: price and stock, its brief element (drawings, price), files with the preview image, comments. */
export default function ArticlePage() {
  const { id } = useParams() as { id: string };
  const { t } = useTranslation();
  const { me } = useAuth();
  const staff = isStaff(me?.role);
  const queryClient = useQueryClient();
  const [editing, edit] = useDisclosure();
  const may = useCan();
  // "Order again": a new draft quote of this article at today's price, the differences shown.
  const reorder = useReorder();
  const article = useQuery(articleQueries.detail(id));
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: articleKeys.all });
  };
  return (
    <QueryState query={article}>
      {(a) => (
        <Stack>
          <Group justify="space-between" align="flex-start">
            <Stack gap={4}>
              <Title order={2} data-testid="article-title">
                {a.code} · {a.name}
              </Title>
              <Group gap="xs">
                <Badge color={a.enabled ? 'teal.9' : 'gray.7'}>
                  {a.enabled ? t('articles.enabled') : t('articles.disabled')}
                </Badge>
                <Text size="sm">{a.company?.name}</Text>
              </Group>
            </Stack>
            <Group gap="xs">
              {a.briefElementId ? (
                <DieLineMenu base={`/api/articles/${a.id}`} testId="article-die-line" />
              ) : null}
              {may('quotes:reorder') && a.enabled && (
                <Button
                  variant={staff ? 'default' : 'filled'}
                  onClick={() => reorder.mutate({ type: 'article', id: a.id })}
                  loading={reorder.isPending}
                  title={t('portal.orderAgainHint')}
                  data-testid="reorder-article"
                >
                  {t('portal.orderAgain')}
                </Button>
              )}
              {staff && <Button onClick={edit.open}>{t('common.edit')}</Button>}
            </Group>
          </Group>
          <Card withBorder>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Fact label={t('articles.price')} testId="article-price">
                {money(a.price, a.currency?.code ?? 'EUR', 4)}
              </Fact>
              <Fact label={t('articles.stock')}>
                {a.stocked ? `${number(a.quantity)}${a.unit ? ` ${a.unit}` : ''}` : t('articles.onDemand')}
              </Fact>
              <Fact label={t('orders.externalId')}>{a.externalId ?? '—'}</Fact>
              <Fact label={t('articles.currency')}>{a.currency?.code ?? 'EUR'}</Fact>
            </SimpleGrid>
            {a.description && (
              <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {a.description}
              </Text>
            )}
          </Card>
          <BriefElementCard elementId={a.briefElementId} />
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <EntityFiles
              owner="articles"
              id={a.id}
              canWrite={staff || me?.role === 'contact'}
              preview={{
                fileId: a.previewFileId,
                canChoose: staff,
                onChoose: async (fileId) => {
                  await articleApi.setPreview(id, fileId);
                  await refresh();
                },
              }}
            />
            <EntityComments owner="articles" id={a.id} canWrite={staff || me?.role === 'contact'} />
          </SimpleGrid>
          <Modal opened={editing} onClose={edit.close} title={t('common.edit')} size="lg">
            <ArticleForm
              article={a}
              onDone={async () => {
                edit.close();
                await refresh();
              }}
            />
          </Modal>
          <ReorderResult result={reorder.data} error={reorder.error} onClose={() => reorder.reset()} />
        </Stack>
      )}
    </QueryState>
  );
}

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500} data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}
