import '@mantine/dates/styles.css';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { useTranslation } from 'react-i18next';

/** A clearable YYYY-MM-DD date input whose clear button has a name (axe: button-name). */
export function DateField(props: DateInputProps & { label: string }) {
  const { t } = useTranslation();
  return (
    <DateInput
      valueFormat="YYYY-MM-DD"
      clearable
      clearButtonProps={{ 'aria-label': t('orders.clearDate', { label: props.label }) }}
      {...props}
    />
  );
}
