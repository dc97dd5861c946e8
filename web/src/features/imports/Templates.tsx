import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../ui/states.tsx';
import { useImportTypes } from './api.ts';
import { downloadText, templateCsv } from './csv.ts';

/**
 * The four CSV templates. The API serves no template file, but GET /api/imports/utils/get-types lists
 * every type's columns and required columns, so each template is that header row, written here.
 */
export function Templates() {
  const { t } = useTranslation();
  const types = useImportTypes();
  return (
    <Stack gap="xs">
      <Title order={3}>{t('imports.templates')}</Title>
      <QueryState query={types} isEmpty={(d) => d.length === 0}>
        {(data) => (
          <>
            <Group gap="xs">
              {data.map((type) => {
                const name = t(`imports.types.${type.name}`, { defaultValue: type.name });
                return (
                  <Button
                    key={type.code}
                    variant="default"
                    size="xs"
                    onClick={() => downloadText(`${type.name}-template.csv`, templateCsv(type))}
                  >
                    {t('imports.template', { name })}
                  </Button>
                );
              })}
            </Group>
            <Text size="sm" c="dimmed">
              {t('imports.templatesHint', {
                required: data
                  .filter((ty) => ty.requiredColumns.length > 0)
                  .map(
                    (ty) =>
                      `${t(`imports.types.${ty.name}`, { defaultValue: ty.name })} ${ty.requiredColumns.join(', ')}`,
                  )
                  .join('; '),
              })}
            </Text>
          </>
        )}
      </QueryState>
    </Stack>
  );
}
