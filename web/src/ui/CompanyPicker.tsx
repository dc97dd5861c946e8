import { useState } from 'react';
import { useCompanyOptions } from '../api/queries.ts';
import { Select } from './Select.tsx';

/** A searchable company select backed by the API's search (never the whole list). */
export function CompanyPicker({
  label,
  value,
  selectedName,
  onChange,
  error,
  clearable,
  required,
}: {
  label: string;
  value: string | null;
  selectedName?: string;
  onChange: (id: string | null, name?: string) => void;
  error?: string;
  clearable?: boolean;
  required?: boolean;
}) {
  const [search, setSearch] = useState('');
  const { options } = useCompanyOptions(
    search,
    value && selectedName ? { id: value, name: selectedName } : null,
  );
  return (
    <Select
      label={label}
      searchable
      clearable={clearable}
      allowDeselect={!!clearable}
      required={required}
      data={options}
      value={value}
      onSearchChange={setSearch}
      searchValue={search}
      onChange={(id) => onChange(id, options.find((o) => o.value === id)?.label)}
      error={error}
      nothingFoundMessage="—"
      filter={({ options }) => options}
    />
  );
}
