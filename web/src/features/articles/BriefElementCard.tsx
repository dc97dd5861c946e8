import { Anchor, Card, Group, Image, SimpleGrid, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../paths.ts';
import { money, number } from '../../ui/format.ts';
import { Empty, QueryState } from '../../ui/states.tsx';
import { briefQueries } from '../briefs/api/index.ts';

/**
 * The production specification an article inherits: its brief element (dimensions, quantity, the
 * latest price) and, when the element belongs to a brief, its die-line and imposition drawings
 * (SVG from the API shown as images, never injected into the page).
 */
export function BriefElementCard({ elementId }: { elementId: string | null }) {
  const { t } = useTranslation();
  const element = useQuery({
    ...briefQueries.element(elementId ?? ''),
    enabled: !!elementId,
  });
  return (
    <Card withBorder data-testid="brief-element">
      <Title order={3} size="h4" mb="xs">
        {t('articles.element.title')}
      </Title>
      {!elementId ? (
        <Empty>{t('articles.element.none')}</Empty>
      ) : (
        <QueryState query={element}>
          {(e) => {
            const price = e.briefElementPrice;
            const drawing = (kind: 'die-line' | 'imposition') =>
              `/api/briefs/${e.briefId}/elements/${e.position}/${kind}.svg`;
            return (
              <>
                <SimpleGrid cols={{ base: 2, sm: 4 }} mb="sm">
                  <Fact label={t('articles.element.dimensions')}>
                    {[e.lengthDimension, e.widthDimension, e.heightDimension]
                      .map((d) => number(d))
                      .join(' × ')}{' '}
                    mm
                  </Fact>
                  <Fact label={t('articles.element.quantity')}>{number(e.quantity)}</Fact>
                  <Fact label={t('articles.element.unitPrice')}>
                    {price ? money(price.unitPrice, price.currency, 4) : t('articles.element.notPriced')}
                  </Fact>
                  <Fact label={t('common.total')}>
                    {price ? money(price.totalPrice, price.currency) : '—'}
                  </Fact>
                </SimpleGrid>
                {e.briefId ? (
                  <>
                    <Text size="sm" mb="xs">
                      <Anchor component={Link} to={paths.brief(e.briefId)}>
                        {t('articles.element.openBrief')}
                      </Anchor>
                    </Text>
                    <Group align="flex-start" grow>
                      <Image
                        src={drawing('die-line')}
                        alt={t('articles.element.dieLine')}
                        mah={280}
                        fit="contain"
                      />
                      <Image
                        src={drawing('imposition')}
                        alt={t('articles.element.imposition')}
                        mah={280}
                        fit="contain"
                      />
                    </Group>
                  </>
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('articles.element.standalone')}
                  </Text>
                )}
              </>
            );
          }}
        </QueryState>
      )}
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500}>{children}</Text>
    </div>
  );
}
