import { Alert, Anchor, Button, Card, Grid, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useApiMutation } from '../../api/mutation.ts';
import { useCatalogue, useProjects } from '../../api/queries.ts';
import { paths } from '../../paths.ts';
import { CompanyPicker } from '../../ui/CompanyPicker.tsx';
import { draftTime, useDraft } from '../../ui/drafts.ts';
import { problemFields } from '../../ui/problem.ts';
import { Select } from '../../ui/Select.tsx';
import { ErrorState, Loading } from '../../ui/states.tsx';
import { leaveWithoutAsking, useUnsavedChanges } from '../../ui/UnsavedChanges.tsx';
import { briefApi, briefKeys, estimateQueries } from '../briefs/api/index.ts';
import { ESTIMATE_DEBOUNCE_MS } from './debounce.ts';
import { ElementFields } from './ElementFields.tsx';
import { EstimateDetails, EstimateSummary } from './EstimatePanel.tsx';
import {
  applyChanges,
  type BriefForm,
  briefBody,
  type Change,
  elementErrors,
  emptyElement,
  formIssues,
  isPriceable,
  updateBody,
} from './form.ts';

/** A form issue's numbers as the user's locale writes them (50.000.000, 50 000 000). */
const localised = (values: Record<string, unknown> | undefined, language: string) =>
  Object.fromEntries(
    Object.entries(values ?? {}).map(([k, v]) => [
      k,
      typeof v === 'number' ? new Intl.NumberFormat(language).format(v) : v,
    ]),
  );

type Props = {
  briefId?: string;
  /** The brief's version the form was loaded from (a draft belongs to one version). */
  version?: number;
  initial: BriefForm;
  companyName?: string;
  /** The saved project, shown until the company's projects are loaded. */
  project?: { id: string; name: string } | null;
  title: string;
  /** A buyer's view of a saved brief: no save, no suggestions to apply (the seller re-prices). */
  readOnly?: boolean;
  /**
   * Shown under the form, in its column: the price and its value analysis arrive later in the other
   * column and lengthen it, which would push anything below the two out of view (with an open menu:
   * Mantine hides a dropdown whose button has left the screen).
   */
  belowForm?: ReactNode;
};

/**
 * The brief configurator: the form on the left; on the right the live price of the unsaved form
 * (POST /api/briefs/estimate, debounced) with its drawings, process and savings.
 */
export function Configurator({
  briefId,
  version,
  initial,
  companyName,
  project,
  title,
  readOnly,
  belowForm,
}: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [form, setForm] = useState<BriefForm>(initial);
  const [companyLabel, setCompanyLabel] = useState(companyName);
  const categories = useCatalogue('/api/product-categories');
  const products = useCatalogue('/api/products');
  const boards = useCatalogue('/api/material-references');
  const projects = useProjects(form.companyId, { enabled: !!form.companyId });
  const projectOptions =
    project && project.id === form.projectId && !projects.options.some((o) => o.value === project.id)
      ? [{ value: project.id, label: project.name }, ...projects.options]
      : projects.options;

  // A local draft while the form differs from what it loaded (restored after a sign-in), and the
  // unsaved-changes guard.
  const draft = useDraft(
    briefId ? `configurator:${briefId}@${version ?? 0}` : 'configurator:new',
    form,
    initial,
    setForm,
  );
  useUnsavedChanges(draft.dirty, draft.clear);
  const [attempted, setAttempted] = useState(false);
  // What the form itself sees wrong: no price is asked for (and none shown as current) until fixed.
  const issues = useMemo(() => formIssues(form), [form]);
  const invalid = Object.keys(issues).length > 0;
  const body = useMemo(() => (!invalid && isPriceable(form) ? briefBody(form) : null), [form, invalid]);
  const [debounced] = useDebouncedValue(body, ESTIMATE_DEBOUNCE_MS);
  const estimate = useQuery({
    ...estimateQueries.quick(debounced),
    enabled: debounced !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  });
  // The value analysis (curves, price breaks, savings) prices the brief a few dozen times more: asked
  // for once the price of this form is shown, not on every keystroke (issue 31).
  const analysis = useQuery({
    ...estimateQueries.analysis(debounced),
    enabled: debounced !== null && estimate.isSuccess && !estimate.isPlaceholderData && body === debounced,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  });

  const save = useApiMutation({
    mutationFn: async () => {
      const brief = await (briefId
        ? briefApi.update(briefId, updateBody(form, initial))
        : briefApi.create(briefBody(form)));
      // Saved: the draft is no longer needed, nor asked about when leaving.
      draft.clear();
      leaveWithoutAsking();
      return brief;
    },
    success: (brief) => `${t('common.saved')}: ${brief.code}`,
    invalidates: [briefKeys.all],
    onSuccess: (brief) => {
      if (!briefId) navigate(paths.brief(brief.id));
    },
  });

  // The analysed answer of this form once it is there (the same price, with the analysis), else the
  // quick one; while a new price is on its way, the last analysed answer stays (as the price does).
  const details = useDeferredValue(
    estimate.isPlaceholderData
      ? (analysis.data ?? estimate.data)
      : analysis.data && !analysis.isPlaceholderData
        ? analysis.data
        : estimate.data,
  );
  const apply = useCallback((changes: Change[]) => setForm((current) => applyChanges(current, changes)), []);
  const problem = (save.error ?? estimate.error) as unknown;
  // The form's own issues show once a price was shown (it turned stale) or Save was tried: a new,
  // empty form is not covered in red.
  const showIssues = attempted || estimate.data !== undefined;
  const fields = {
    ...problemFields(problem, t),
    ...(showIssues
      ? Object.fromEntries(
          Object.entries(issues).map(([pointer, issue]) => [
            pointer,
            t(`common.fieldProblems.${issue.key}`, localised(issue.values, i18n.language)),
          ]),
        )
      : {}),
  };
  // The shown price is not of this form: the form is invalid, incomplete, or the API refused it.
  const stale = estimate.data !== undefined && (body === null || estimate.isError);
  const saveBlocked = showIssues && invalid;

  if (categories.isPending || products.isPending || boards.isPending) return <Loading />;
  if (categories.error || products.error || boards.error)
    return <ErrorState error={categories.error ?? products.error ?? boards.error} />;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{title}</Title>
        {!readOnly && (
          <Group gap="sm">
            {saveBlocked ? (
              <Text size="sm" c="red.9" id="save-blocked" data-testid="save-blocked">
                {t('stale.saveBlocked')}
              </Text>
            ) : null}
            <Button
              onClick={() => {
                setAttempted(true);
                if (!invalid) save.mutate();
              }}
              loading={save.isPending}
              disabled={saveBlocked}
              aria-describedby={saveBlocked ? 'save-blocked' : undefined}
              data-testid="save-brief"
            >
              {briefId ? t('configurator.saveChanges') : t('configurator.save')}
            </Button>
          </Group>
        )}
      </Group>
      {draft.restoredAt ? (
        <Alert color="blue" data-testid="draft-restored">
          {t('drafts.restored', { time: draftTime(draft.restoredAt) })}{' '}
          <Anchor component="button" type="button" onClick={draft.discard} data-testid="draft-discard">
            {t('drafts.discard')}
          </Anchor>
        </Alert>
      ) : null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <Card withBorder>
              <Stack gap="sm">
                <CompanyPicker
                  label={t('common.company')}
                  value={form.companyId}
                  selectedName={companyLabel}
                  required
                  onChange={(companyId, name) => {
                    setCompanyLabel(name);
                    setForm({ ...form, companyId, projectId: null });
                  }}
                  error={fields['/companyId']}
                />
                <Select
                  label={t('configurator.project')}
                  description={
                    form.companyId ? t('configurator.projectHelp') : t('configurator.projectChooseCompany')
                  }
                  placeholder={t('configurator.projectNone')}
                  data={projectOptions}
                  value={form.projectId}
                  disabled={!form.companyId}
                  searchable
                  clearable
                  nothingFoundMessage={projects.loading ? t('common.loading') : t('configurator.noProjects')}
                  onChange={(projectId) => setForm({ ...form, projectId })}
                  error={fields['/projectId']}
                  data-testid="brief-project"
                />
                <TextInput
                  label={t('configurator.name')}
                  value={form.name}
                  onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
                  error={fields['/name']}
                />
                <Select
                  label={t('configurator.packing')}
                  description={t('configurator.packingHelp')}
                  data={[
                    { value: 'DEFAULT', label: t('configurator.packingDefault') },
                    { value: 'SHIPPING_CASE', label: t('configurator.packingCases') },
                    { value: 'BUNDLE', label: t('configurator.packingBundles') },
                  ]}
                  value={form.packingType ?? 'DEFAULT'}
                  allowDeselect={false}
                  onChange={(value) =>
                    setForm({
                      ...form,
                      packingType: value === 'SHIPPING_CASE' || value === 'BUNDLE' ? value : null,
                    })
                  }
                  error={fields['/packingType']}
                  data-testid="packing-type"
                />
              </Stack>
            </Card>
            {form.elements.map((element, index) => (
              <ElementFields
                // biome-ignore lint/suspicious/noArrayIndexKey: an element is its position in the brief
                key={index}
                index={index}
                element={element}
                categories={categories.data}
                products={products.data}
                boards={boards.data}
                errors={elementErrors(fields, index)}
                onChange={(next) =>
                  setForm({ ...form, elements: form.elements.map((e, i) => (i === index ? next : e)) })
                }
                onRemove={
                  form.elements.length > 1
                    ? () => setForm({ ...form, elements: form.elements.filter((_, i) => i !== index) })
                    : undefined
                }
              />
            ))}
            <Button
              variant="default"
              onClick={() => setForm({ ...form, elements: [...form.elements, emptyElement()] })}
            >
              {t('configurator.addElement')}
            </Button>
            {belowForm}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            {problem ? <ErrorState error={problem} /> : null}
            {!body && !estimate.data && <Alert color="gray">{t('configurator.fillIn')}</Alert>}
            {body && !estimate.data && estimate.isFetching && <Loading label={t('configurator.pricing')} />}
            {estimate.data && (
              <EstimateSummary
                estimate={estimate.data}
                pricing={!stale && (estimate.isFetching || body !== debounced)}
                stale={stale}
              />
            )}
            {details && (
              <EstimateDetails estimate={details} onApply={readOnly ? undefined : apply} stale={stale} />
            )}
            {estimate.data && !stale && (estimate.isFetching || body !== debounced) ? (
              <Text size="xs" c="dimmed" data-testid="pricing-indicator">
                {t('configurator.pricing')}
              </Text>
            ) : null}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
