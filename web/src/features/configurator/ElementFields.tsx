import {
  ActionIcon,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CatalogueEntry } from '../../api/queries.ts';
import { separators } from '../../ui/format.ts';
import { Select } from '../../ui/Select.tsx';
import {
  boardsFor,
  type ElementForm,
  productsOf,
  withCategoryDefaults,
  withoutBoardDetails,
  withProduct,
} from './form.ts';

type Props = {
  index: number;
  element: ElementForm;
  onChange: (next: ElementForm) => void;
  onRemove?: () => void;
  categories: CatalogueEntry[];
  products: CatalogueEntry[];
  boards: CatalogueEntry[];
  /** API errors of this element keyed by body field (`lengthDimension`), `_` for the element itself. */
  errors: Record<string, string>;
};

const n = (value: string | number) => (value === '' ? '' : Number(value));

/** One element of the brief: style, dimensions, board, printing, finishes, quantities. */
export function ElementFields({
  index,
  element,
  onChange,
  onRemove,
  categories,
  products,
  boards,
  errors,
}: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<ElementForm>) => onChange({ ...element, ...patch });
  const product = products.find((p) => p.id === element.productId);
  const styleOptions = productsOf(products, element.categoryId).map((p) => ({
    value: p.id,
    label: `${p.name} (${p.code})`,
  }));
  const boardOptions = boardsFor(product, boards).map((b) => ({
    value: b.id,
    label: `${b.name} (${b.code})`,
  }));
  const flat = product?.style === 'FLAT';
  // An element saved without its category (the API takes a style alone) shows its style's.
  const categoryId = element.categoryId ?? (product?.categoryId as string | undefined) ?? null;
  const before = { ...element, categoryId };
  const id = (field: string) => `el${index}-${field}`;

  return (
    <Fieldset legend={t('configurator.element', { n: index + 1 })} data-testid={`element-${index}`}>
      <Stack gap="sm">
        {errors._ && (
          <Text c="red" size="sm" role="alert">
            {errors._}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            id={id('category')}
            label={t('configurator.category')}
            data={categories.map((c) => ({ value: c.id, label: c.name }))}
            value={element.categoryId}
            clearable
            searchable
            onChange={(categoryId) => {
              const keep = !categoryId || product?.categoryId === categoryId;
              const next = keep
                ? { ...element, categoryId }
                : { ...withProduct(element, undefined, boards), categoryId };
              onChange(withCategoryDefaults(before, next, categories));
            }}
            error={errors.productCategoryId}
          />
          <Select
            id={id('style')}
            label={t('configurator.style')}
            data={styleOptions}
            value={element.productId}
            searchable
            required
            onChange={(productId) =>
              onChange(
                withCategoryDefaults(
                  before,
                  withProduct(
                    element,
                    products.find((p) => p.id === productId),
                    boards,
                  ),
                  categories,
                ),
              )
            }
            error={errors.productId}
          />
        </SimpleGrid>
        <SimpleGrid cols={3}>
          <NumberInput
            id={id('length')}
            label={t('configurator.length')}
            value={element.length}
            min={0}
            onChange={(v) => set({ length: n(v) })}
            error={errors.lengthDimension}
            required
          />
          <NumberInput
            id={id('width')}
            label={t('configurator.width')}
            value={element.width}
            min={0}
            onChange={(v) => set({ width: n(v) })}
            error={errors.widthDimension}
            required
          />
          <NumberInput
            id={id('height')}
            label={t('configurator.height')}
            value={element.height}
            min={0}
            disabled={flat}
            onChange={(v) => set({ height: n(v) })}
            error={errors.heightDimension}
          />
        </SimpleGrid>
        <Select
          id={id('board')}
          label={t('configurator.board')}
          description={t('configurator.boardHint')}
          data={boardOptions}
          value={element.materialReferenceId}
          searchable
          required
          onChange={(materialReferenceId) =>
            set({ materialReferenceId, extra: withoutBoardDetails(element.extra) })
          }
          error={errors.materialReferenceId ?? errors.grammage ?? errors.materialTypeId}
        />

        <Text fw={600} size="sm">
          {t('configurator.printing')}
        </Text>
        <Checkbox
          label={t('configurator.printed')}
          checked={element.printed}
          onChange={(e) => set({ printed: e.currentTarget.checked })}
          error={errors.wantDecoration}
        />
        {element.printed && (
          <Stack gap="xs">
            <SegmentedControl
              aria-label={t('configurator.sides')}
              value={element.sidePrinted}
              onChange={(value) => set({ sidePrinted: value as ElementForm['sidePrinted'] })}
              data={[
                { value: 'RECTO', label: t('configurator.recto') },
                { value: 'VERSO', label: t('configurator.verso') },
                { value: 'RECTO_VERSO', label: t('configurator.rectoVerso') },
              ]}
            />
            <SimpleGrid cols={2}>
              <Select
                label={t('configurator.process')}
                data={[
                  { value: '', label: t('configurator.processAny') },
                  { value: 'offset', label: 'Offset' },
                  { value: 'digital', label: 'Digital' },
                  { value: 'flexo', label: 'Flexo' },
                ]}
                value={element.printingProcess}
                allowDeselect={false}
                onChange={(value) =>
                  set({ printingProcess: (value ?? '') as ElementForm['printingProcess'] })
                }
                error={errors.printingProcess}
              />
              <NumberInput
                label={t('configurator.rectoColours')}
                min={0}
                max={8}
                value={element.rectoColorCount}
                disabled={element.sidePrinted === 'VERSO'}
                onChange={(v) => set({ rectoColorCount: Number(v) || 0 })}
                error={errors.rectoColorCount}
              />
              <NumberInput
                label={t('configurator.versoColours')}
                min={0}
                max={8}
                value={element.versoColorCount}
                disabled={element.sidePrinted === 'RECTO'}
                onChange={(v) => set({ versoColorCount: Number(v) || 0 })}
                error={errors.versoColorCount}
              />
              <NumberInput
                label={t('configurator.coverage')}
                min={0}
                max={100}
                value={element.inkCoverage}
                onChange={(v) => set({ inkCoverage: n(v) })}
                error={errors.inkCoverage}
              />
            </SimpleGrid>
          </Stack>
        )}

        <Text fw={600} size="sm">
          {t('configurator.finishes')}
        </Text>
        <Group>
          <Checkbox
            label={t('configurator.varnish')}
            checked={element.varnish}
            onChange={(e) => set({ varnish: e.currentTarget.checked })}
            error={errors.wantVarnishRecto}
          />
          <Checkbox
            label={t('configurator.lamination')}
            checked={element.lamination}
            onChange={(e) => set({ lamination: e.currentTarget.checked })}
            error={errors.wantLaminationRecto}
          />
          <Checkbox
            label={t('configurator.foil')}
            checked={element.foil}
            onChange={(e) => set({ foil: e.currentTarget.checked })}
            error={errors.wantStampingRecto}
          />
          <Checkbox
            label={t('configurator.embossing')}
            checked={element.embossing}
            onChange={(e) => set({ embossing: e.currentTarget.checked })}
            error={errors.wantEmbossingDebossingRecto}
          />
          <Checkbox
            label={t('configurator.window')}
            checked={element.window}
            disabled={product?.windowAllowed === false}
            onChange={(e) => set({ window: e.currentTarget.checked })}
            error={errors.wantWindow}
          />
        </Group>
        {element.foil && (
          <SimpleGrid cols={2}>
            <NumberInput
              label={t('configurator.foilWidth')}
              value={element.foilWidth}
              onChange={(v) => set({ foilWidth: n(v) })}
              error={errors.hotStampings}
            />
            <NumberInput
              label={t('configurator.foilHeight')}
              value={element.foilHeight}
              onChange={(v) => set({ foilHeight: n(v) })}
            />
          </SimpleGrid>
        )}
        {element.embossing && (
          <SimpleGrid cols={2}>
            <NumberInput
              label={t('configurator.embossWidth')}
              value={element.embossWidth}
              onChange={(v) => set({ embossWidth: n(v) })}
              error={errors.embossings}
            />
            <NumberInput
              label={t('configurator.embossHeight')}
              value={element.embossHeight}
              onChange={(v) => set({ embossHeight: n(v) })}
            />
          </SimpleGrid>
        )}
        {element.window && (
          <SimpleGrid cols={2}>
            <NumberInput
              label={t('configurator.windowWidth')}
              value={element.windowWidth}
              onChange={(v) => set({ windowWidth: n(v) })}
              error={errors.windowWidth}
            />
            <NumberInput
              label={t('configurator.windowHeight')}
              value={element.windowHeight}
              onChange={(v) => set({ windowHeight: n(v) })}
              error={errors.windowHeight}
            />
          </SimpleGrid>
        )}

        <Text fw={600} size="sm" id={id('quantities')}>
          {t('configurator.quantities')}
        </Text>
        {errors.decorationsCount && (
          <Text c="red" size="sm" role="alert">
            {errors.decorationsCount}
          </Text>
        )}
        <Stack gap="xs">
          {element.quantities.map((quantity, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the index is the variant's decorationIndex
            <Group key={i} gap="xs" align="flex-start" wrap="wrap" data-testid={`variant-${index}-${i}`}>
              <NumberInput
                label={t('configurator.variant', { n: i + 1 })}
                data-testid={`quantity-${index}-${i}`}
                min={0}
                step={500}
                {...separators()}
                value={quantity}
                error={errors[`quantity.${i}`]}
                onChange={(v) => set({ quantities: element.quantities.map((q, j) => (j === i ? n(v) : q)) })}
                w={140}
              />
              <TextInput
                label={t('configurator.variantName', { n: i + 1 })}
                placeholder={t('configurator.variantNamePlaceholder')}
                data-testid={`variant-name-${index}-${i}`}
                value={element.variantNames[i] ?? ''}
                error={errors[`variantName.${i}`]}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  set({
                    variantNames: element.quantities.map((_, j) =>
                      j === i ? value : (element.variantNames[j] ?? ''),
                    ),
                  });
                }}
                style={{ flex: '1 1 10rem' }}
              />
              <TextInput
                label={t('configurator.artworkReference', { n: i + 1 })}
                placeholder={t('configurator.artworkReferencePlaceholder')}
                data-testid={`artwork-${index}-${i}`}
                value={element.artworkReferences[i] ?? ''}
                error={errors[`artworkReference.${i}`]}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  set({
                    artworkReferences: element.quantities.map((_, j) =>
                      j === i ? value : (element.artworkReferences[j] ?? ''),
                    ),
                  });
                }}
                style={{ flex: '1 1 10rem' }}
              />
              {element.quantities.length > 1 && (
                <ActionIcon
                  variant="subtle"
                  color="red.9"
                  c="red.9"
                  mt={28}
                  aria-label={`${t('common.remove')} ${t('configurator.variant', { n: i + 1 })}`}
                  onClick={() =>
                    set({
                      quantities: element.quantities.filter((_, j) => j !== i),
                      variantNames: element.quantities
                        .map((_, j) => element.variantNames[j] ?? '')
                        .filter((_, j) => j !== i),
                      artworkReferences: element.quantities
                        .map((_, j) => element.artworkReferences[j] ?? '')
                        .filter((_, j) => j !== i),
                    })
                  }
                >
                  ×
                </ActionIcon>
              )}
            </Group>
          ))}
        </Stack>
        <Group>
          {element.quantities.length < 12 && (
            <Button
              variant="subtle"
              size="xs"
              onClick={() =>
                set({
                  quantities: [...element.quantities, 1000],
                  variantNames: [...element.quantities.map((_, j) => element.variantNames[j] ?? ''), ''],
                  artworkReferences: [
                    ...element.quantities.map((_, j) => element.artworkReferences[j] ?? ''),
                    '',
                  ],
                })
              }
            >
              {t('configurator.addVariant')}
            </Button>
          )}
          {onRemove && (
            <Button variant="subtle" color="red.9" c="red.9" size="xs" onClick={onRemove}>
              {t('configurator.removeElement')}
            </Button>
          )}
        </Group>
      </Stack>
    </Fieldset>
  );
}
