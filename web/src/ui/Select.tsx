import {
  ComboboxChevron,
  type ComboboxItem,
  getOptionsLockup,
  getParsedComboboxData,
  Input,
  InputBase,
  type SelectProps,
  useProps,
} from '@mantine/core';
import { type ComponentType, type Ref, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

type MantineSelect = ComponentType<SelectProps & { ref?: Ref<HTMLInputElement> }>;

let loaded: MantineSelect | null = null;
let loading: Promise<void> | null = null;
const waiting = new Set<() => void>();

/** Fetches Mantine's Select once for the whole app; a failed fetch is tried again on the next use. */
function loadSelect() {
  loading ??= import('./SelectCode.tsx').then(
    (module) => {
      loaded = module.default as MantineSelect;
      for (const wake of waiting) wake();
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

function useLoadedSelect() {
  return useSyncExternalStore(
    (wake) => {
      waiting.add(wake);
      return () => waiting.delete(wake);
    },
    () => loaded,
  );
}

/** What the user did to the stand-in while the Select's code was on its way. */
type Pending = { focused: boolean; open: boolean; typed: string | null };

/**
 * The app's select (issue 31): Mantine's Select, with the same props, whose code (combobox,
 * dropdown positioning, scroll area) is fetched when a select is first pointed at, touched or
 * focused, not with every page: the frame's language picker and most forms show their selects
 * long before anyone opens one. Until then a stand-in is drawn with Mantine's own input, label,
 * chevron and clear button, so nothing moves when the real select takes its place; every select
 * of the app swaps at once when the code arrives. Nothing the user does meanwhile is lost: the
 * focus stays in the field, a click or an arrow key opens the list on arrival, text typed into a
 * searchable select is typed into the real one, and the clear button clears. If the code cannot be
 * fetched, the field says so and the next use tries again.
 */
export function Select(props: SelectProps) {
  const Loaded = useLoadedSelect();
  const pending = useRef<Pending>({ focused: false, open: false, typed: null });
  const input = useRef<HTMLInputElement>(null);
  const arrival = useRef<Pending | null>(null);
  if (Loaded && !arrival.current) arrival.current = { ...pending.current };

  useEffect(() => {
    // Runs after the real Select's own mount effects (a child's effects run first), which set its
    // search text from its value: what was typed is typed again, as a user's input event.
    const typed = arrival.current?.typed;
    if (Loaded && typed && input.current && document.activeElement === input.current) {
      typeInto(input.current, typed);
    }
  }, [Loaded]);

  if (Loaded) {
    const now = arrival.current;
    return (
      <Loaded
        {...props}
        ref={input}
        onFocus={(event) => {
          selectSearchText(event.currentTarget, props.searchable);
          props.onFocus?.(event);
        }}
        autoFocus={props.autoFocus || now?.focused}
        // The list asked for opens if the field still has the focus (typed text opens it itself).
        defaultDropdownOpened={props.defaultDropdownOpened || (now?.open && now.focused && !now.typed)}
      />
    );
  }
  return <StandIn {...props} pending={pending.current} />;
}

function StandIn({ pending, ...props }: SelectProps & { pending: Pending }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const [asked, setAsked] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const {
    data,
    value,
    defaultValue,
    onChange,
    searchable,
    clearable,
    clearButtonProps,
    onClear,
    searchValue,
    onSearchChange,
    allowDeselect: _allowDeselect,
    nothingFoundMessage: _nothingFoundMessage,
    defaultSearchValue: _defaultSearchValue,
    filter: _filter,
    limit: _limit,
    comboboxProps: _comboboxProps,
    maxDropdownHeight: _maxDropdownHeight,
    withScrollArea: _withScrollArea,
    checkIconPosition: _checkIconPosition,
    withCheckIcon: _withCheckIcon,
    withAlignedLabels: _withAlignedLabels,
    renderOption: _renderOption,
    onOptionSubmit: _onOptionSubmit,
    dropdownOpened: _dropdownOpened,
    defaultDropdownOpened: _defaultDropdownOpened,
    onDropdownOpen: _onDropdownOpen,
    onDropdownClose: _onDropdownClose,
    selectFirstOptionOnChange: _selectFirstOptionOnChange,
    selectFirstOptionOnDropdownOpen: _selectFirstOptionOnDropdownOpen,
    hiddenInputProps: _hiddenInputProps,
    scrollAreaProps: _scrollAreaProps,
    autoSelectOnBlur: _autoSelectOnBlur,
    openOnFocus: _openOnFocus,
    chevronColor,
    clearSectionMode,
    name,
    form,
    error,
    disabled,
    readOnly,
    size,
    ...input
  } = useProps('Select', {}, props);
  const options = getOptionsLockup(getParsedComboboxData(data));
  const selected = value ?? defaultValue ?? null;
  const label = selected != null ? ((options[selected] as ComboboxItem | undefined)?.label ?? '') : '';
  const load = () => {
    if (disabled) return;
    loadSelect().catch(() => {
      pending.open = false;
      setAsked(false);
      setFailed(true);
    });
  };
  const open = () => {
    pending.open = true;
    setAsked(true);
    setFailed(false);
    load();
  };
  return (
    <>
      <InputBase
        {...input}
        size={size}
        disabled={disabled}
        readOnly={readOnly || !searchable}
        pointer={!searchable}
        role="combobox"
        aria-haspopup="listbox"
        aria-expanded={false}
        aria-busy={asked || undefined}
        // A searchable select whose caller keeps the search text starts it empty: the label shows.
        value={text ?? (searchValue || label)}
        error={failed ? t('common.listNotLoaded') : error}
        onPointerEnter={load}
        // A press asks for the list, not only the click that ends it: the real select can take
        // the stand-in's place between the two, and the click is then lost with the stand-in.
        onPointerDown={(event) => {
          open();
          input.onPointerDown?.(event);
        }}
        onFocus={(event) => {
          selectSearchText(event.currentTarget, searchable);
          pending.focused = true;
          load();
          input.onFocus?.(event);
        }}
        onBlur={(event) => {
          pending.focused = false;
          input.onBlur?.(event);
        }}
        // A click on the field's label reaches the input as a click without a press.
        onClick={(event) => {
          open();
          input.onClick?.(event);
        }}
        onKeyDown={(event) => {
          if (
            ['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(event.key) &&
            !(searchable && event.key === ' ')
          ) {
            event.preventDefault();
            open();
          }
          input.onKeyDown?.(event);
        }}
        onChange={(event) => {
          const typed = event.currentTarget.value;
          pending.typed = typed;
          setText(typed);
          onSearchChange?.(typed);
          open();
        }}
        __defaultRightSection={<ComboboxChevron size={size} error={error} color={chevronColor} />}
        __clearable={!!clearable && selected != null && !disabled && !readOnly}
        __clearSectionMode={clearSectionMode}
        __clearSection={
          <Input.ClearButton
            {...clearButtonProps}
            tabIndex={-1}
            aria-hidden
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              onChange?.(null, null as unknown as ComboboxItem);
              onSearchChange?.('');
              setText(null);
              onClear?.();
            }}
          />
        }
      />
      {name ? (
        <input type="hidden" name={name} form={form} value={selected ?? ''} disabled={disabled} />
      ) : null}
    </>
  );
}

/**
 * A searchable select shows its choice's label as text: on focus the text is selected, so what is
 * typed replaces it and searches (appended to the label, it would match nothing).
 */
function selectSearchText(input: HTMLInputElement, searchable: boolean | undefined) {
  if (searchable) input.select();
}

/** Puts text into a React-controlled input as typing would (the input event React listens to). */
function typeInto(element: HTMLInputElement, text: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setValue?.call(element, text);
  element.dispatchEvent(new Event('input', { bubbles: true }));
}
