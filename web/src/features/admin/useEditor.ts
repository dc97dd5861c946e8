import { useState } from 'react';

/**
 * A modal editing one item (or a new one): the item stays while the modal closes, so its title and
 * form do not blank out during the closing transition; `key` remounts the form on every opening.
 */
export function useEditor<T>() {
  const [state, setState] = useState<{ opened: boolean; item?: T | 'new'; key: number }>({
    opened: false,
    key: 0,
  });
  return {
    opened: state.opened,
    item: state.item,
    key: state.key,
    isNew: state.item === 'new',
    /** The item being edited, or undefined for a new one. */
    current: state.item === 'new' ? undefined : state.item,
    open: (item: T | 'new') => setState((s) => ({ opened: true, item, key: s.key + 1 })),
    close: () => setState((s) => ({ ...s, opened: false })),
  };
}
