import { Button, Card, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../ui/states.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { entityApi, entityKeys, entityQueries, type Owner } from './api/index.ts';

/** The comments of an order or an article, newest first, and a box to add one (files:write). */
export function EntityComments({
  owner,
  id,
  canWrite,
  labels,
}: {
  owner: Owner;
  id: string;
  canWrite: boolean;
  /** The words of the card (the buyer portal's "Questions to the seller"); default: comments. */
  labels?: { title: string; field: string; submit: string; placeholder?: string };
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const form = useApiForm();
  const [body, setBody] = useState('');
  const key = entityKeys.comments(owner, id);
  const comments = useQuery(entityQueries.comments(owner, id));
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <Card withBorder data-testid="comments">
      <Title order={3} size="h4" mb="xs">
        {labels?.title ?? t('orders.comments.title')}
      </Title>
      {canWrite && (
        <form
          noValidate
          onSubmit={async (event) => {
            event.preventDefault();
            const saved = await form.submit(() => entityApi.comment(owner, id, body), t('common.saved'));
            if (saved) {
              setBody('');
              await queryClient.invalidateQueries({ queryKey: key });
            }
          }}
        >
          <Stack gap="xs" mb="sm">
            <Textarea
              label={labels?.field ?? t('orders.comments.new')}
              placeholder={labels?.placeholder}
              value={body}
              onChange={(e) => setBody(e.currentTarget.value)}
              autosize
              minRows={2}
              error={form.error('/body') ?? form.formError}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={form.busy} disabled={!body.trim()}>
                {labels?.submit ?? t('orders.comments.add')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      <QueryState query={comments} isEmpty={(d) => d.length === 0}>
        {(list) => (
          <Stack gap="xs" data-testid="comment-list">
            {list.map((c) => (
              <Paper key={c.id} withBorder p="xs">
                <Text size="xs" c="dimmed">
                  {[c.author?.firstName, c.author?.lastName].filter(Boolean).join(' ') || '—'} ·{' '}
                  {when(c.createdAt)}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {c.body}
                </Text>
              </Paper>
            ))}
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}
