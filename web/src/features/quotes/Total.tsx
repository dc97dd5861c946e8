import { Text } from '@mantine/core';

/** One amount of a quote's totals (tooling, delivery, total), right-aligned under its label. */
export function Total({
  label,
  value,
  strong,
  testId,
}: {
  label: string;
  value: string;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <div>
      <Text size="xs" c="dimmed" ta="right">
        {label}
      </Text>
      <Text ta="right" fw={strong ? 700 : 500} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
