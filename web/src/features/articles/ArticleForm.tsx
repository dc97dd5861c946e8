import {
  Alert,
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../api/schema.d.ts';
import { CompanyPicker } from '../../ui/CompanyPicker.tsx';
import { useApiForm } from '../../ui/useApiForm.ts';
import { type ArticleCreate, articleApi } from './api.ts';

type Article = components['schemas']['Article'];
type Link = 'none' | 'existing' | 'new';
type Num = number | string;

/**
 * Create or edit an article. The brief element link takes one of the API's modes: none
 * (accessories, services), an existing element by id, or a new standalone element from its
 * dimensions (the briefs module creates and prices it). The API validates; its pointers land on
 * the fields.
 */
export function ArticleForm({ article, onDone }: { article?: Article; onDone: (article: Article) => void }) {
  const { t } = useTranslation();
  const form = useApiForm();
  const [companyId, setCompanyId] = useState<string | null>(article?.companyId ?? null);
  const [v, setV] = useState({
    name: article?.name ?? '',
    code: article?.code ?? '',
    description: article?.description ?? '',
    externalId: article?.externalId ?? '',
    price: (article?.price ?? '') as Num,
    quantity: (article?.quantity ?? 0) as Num,
    stocked: article?.stocked ?? false,
    enabled: article?.enabled ?? true,
  });
  const [link, setLink] = useState<Link>(article?.briefElementId ? 'existing' : 'none');
  const [elementId, setElementId] = useState(article?.briefElementId ?? '');
  const [dims, setDims] = useState({
    lengthDimension: '' as Num,
    widthDimension: '' as Num,
    heightDimension: '' as Num,
  });
  const num = (value: Num) => (value === '' ? null : Number(value));
  const body = () => {
    const out: ArticleCreate = {
      name: v.name,
      code: v.code,
      // None chosen: sent as null, which the API refuses under the company picker.
      companyId: companyId as string,
      description: v.description.trim() || null,
      externalId: v.externalId.trim() || null,
      price: num(v.price),
      quantity: num(v.quantity) ?? 0,
      stocked: v.stocked,
      enabled: v.enabled,
    };
    if (link === 'existing') out.briefElementId = elementId.trim() || null;
    else if (link === 'new')
      out.briefElement = Object.fromEntries(
        Object.entries(dims)
          .filter(([, value]) => value !== '')
          .map(([k, value]) => [k, Number(value)]),
      );
    else if (article?.briefElementId) out.briefElementId = null;
    return out;
  };
  const text = (key: 'name' | 'code' | 'externalId', label: string, required = false) => (
    <TextInput
      label={label}
      value={v[key]}
      onChange={(e) => setV({ ...v, [key]: e.currentTarget.value })}
      error={form.error(`/${key}`)}
      required={required}
    />
  );
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const saved = await form.submit(
          () => (article ? articleApi.update(article.id, body()) : articleApi.create(body())),
          t('common.saved'),
        );
        if (saved) onDone(saved as Article);
      }}
    >
      <Stack>
        {form.formError && (
          <Alert color="red" role="alert" data-testid="error-reason">
            {form.formError}
          </Alert>
        )}
        <SimpleGrid cols={2}>
          {text('code', t('articles.code'), true)}
          {text('name', t('common.name'), true)}
        </SimpleGrid>
        <CompanyPicker
          label={t('common.company')}
          value={companyId}
          selectedName={article?.company?.name}
          onChange={(id) => setCompanyId(id)}
          required
          error={form.error('/companyId')}
        />
        <Textarea
          label={t('articles.description')}
          value={v.description}
          onChange={(e) => setV({ ...v, description: e.currentTarget.value })}
          autosize
          minRows={2}
          error={form.error('/description')}
        />
        <SimpleGrid cols={3}>
          <NumberInput
            label={t('articles.price')}
            value={v.price}
            onChange={(price) => setV({ ...v, price })}
            min={0}
            decimalScale={4}
            error={form.error('/price')}
          />
          <NumberInput
            label={t('articles.stock')}
            value={v.quantity}
            onChange={(quantity) => setV({ ...v, quantity })}
            min={0}
            disabled={!v.stocked}
            error={form.error('/quantity')}
          />
          {text('externalId', t('orders.externalId'))}
        </SimpleGrid>
        <Group>
          <Switch
            label={t('articles.stocked')}
            checked={v.stocked}
            onChange={(e) => setV({ ...v, stocked: e.currentTarget.checked })}
          />
          <Switch
            label={t('articles.enabled')}
            checked={v.enabled}
            onChange={(e) => setV({ ...v, enabled: e.currentTarget.checked })}
          />
        </Group>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="article-link-label">
            {t('articles.link.title')}
          </Text>
          <SegmentedControl
            aria-labelledby="article-link-label"
            value={link}
            onChange={(value) => setLink(value as Link)}
            data={[
              { value: 'none', label: t('articles.link.none') },
              { value: 'existing', label: t('articles.link.existing') },
              { value: 'new', label: t('articles.link.new') },
            ]}
          />
        </Stack>
        {link === 'existing' && (
          <TextInput
            label={t('articles.link.elementId')}
            description={t('articles.link.elementIdHelp')}
            value={elementId}
            onChange={(e) => setElementId(e.currentTarget.value)}
            error={form.error('/briefElementId')}
          />
        )}
        {link === 'new' && (
          <SimpleGrid cols={3}>
            {(['lengthDimension', 'widthDimension', 'heightDimension'] as const).map((key) => (
              <NumberInput
                key={key}
                label={t(`articles.link.${key}`)}
                value={dims[key]}
                onChange={(value) => setDims({ ...dims, [key]: value })}
                min={0}
                error={form.error(`/briefElement/${key}`)}
              />
            ))}
          </SimpleGrid>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {article ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
