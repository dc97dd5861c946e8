// The code of Mantine's Select (its Combobox, Popover, floating-ui positioning, ScrollArea: ~25 KB
// gzipped), a chunk of its own loaded by ui/Select.tsx on first use.
export { Select as default } from '@mantine/core';
