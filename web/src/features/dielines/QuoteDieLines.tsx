import { Card, Group, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { lineName } from '../quotes/lines.ts';
import { DieLineMenu } from './DieLineDownloads.tsx';

type Line = {
  id: string;
  name: string;
  /** The name per language (the API's `localised`): shown in the user's. */
  localised?: Parameters<typeof lineName>[0]['localised'];
  reference?: string | null;
  briefElementId?: string | null;
  children?: Line[] | null;
};

/**
 * The die-line files of a quote's element lines (staff and the buyer alike: the files carry no
 * cost), as each was quoted (its brief version and position). Headings and article lines are left
 * out (an article's files are on the article's page, when it has an element).
 */
export function QuoteDieLines({ quoteId, items }: { quoteId: string; items: Line[] }) {
  const { t, i18n } = useTranslation();
  const rows = items.flatMap((item, i) => [
    ...(item.children ?? []).flatMap((child, j) =>
      child.briefElementId
        ? [
            {
              no: `${i + 1}.${j + 1}`,
              line: child,
              base: `/api/quotes/${quoteId}/quote-items/${child.id}`,
            },
          ]
        : [],
    ),
  ]);
  if (!rows.length) return null;
  return (
    <Card withBorder data-testid="quote-die-lines">
      <Title order={3} size="h4" mb="xs">
        {t('dielines.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t('dielines.quoteNote')}
      </Text>
      <Table>
        <Table.Tbody>
          {rows.map(({ no, line, base }) => (
            <Table.Tr key={line.id}>
              <Table.Td w={60}>{no}</Table.Td>
              <Table.Td>{lineName(line, i18n.language)}</Table.Td>
              <Table.Td>
                <Group justify="flex-end">
                  <DieLineMenu
                    base={base}
                    testId={`quote-die-line-${no}`}
                    label={`${t('dielines.download')}: ${no} ${lineName(line, i18n.language)}`}
                  />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
