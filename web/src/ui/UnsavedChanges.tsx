import { Button, Group, Text } from '@mantine/core';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { auth } from '../api/auth.ts';
import { Dialog, preloadDialog } from './Dialog.tsx';

/**
 * The unsaved-changes guard of every form (issue 26; docs/web.md "Unsaved changes"): a click that
 * leaves the page (React Router's blocker) asks first, and so does a reload or closing the tab
 * (beforeunload). A form is dirty when
 *
 * - it says so through `useUnsavedChanges` (forms whose state the app holds: the configurator, the
 *   quote lines editor), or
 * - it is a `<form>` the user typed or chose something in since it appeared or was last submitted
 *   (any form of the app, without its own code; `data-unsaved-guard="off"` opts one out). A form
 *   that leaves the page (a closed modal) is no longer counted.
 *
 * Nothing is asked once the session ended (the app goes to the sign-in page; drafts keep the work).
 */
const declared = new Map<string, { dirty: boolean; discard?: () => void }>();
const touchedForms = new Set<HTMLFormElement>();
let passNext = false;

/** The next navigation is not asked about (the form was just saved and the app moves on). */
export function leaveWithoutAsking() {
  passNext = true;
  setTimeout(() => {
    passNext = false;
  }, 0);
}

function isDirty(): boolean {
  for (const form of touchedForms) if (!form.isConnected) touchedForms.delete(form);
  return touchedForms.size > 0 || [...declared.values()].some((entry) => entry.dirty);
}

/** Declares a form's dirtiness; `discard` runs when the user leaves it without saving. */
export function useUnsavedChanges(dirty: boolean, discard?: () => void) {
  const id = useId();
  useEffect(() => {
    declared.set(id, { dirty, discard });
    // The question's code is fetched once there is something to ask about (ui/Dialog.tsx).
    if (dirty) preloadDialog();
  }, [id, dirty, discard]);
  useEffect(() => () => void declared.delete(id), [id]);
}

function onEdit(event: Event) {
  const target = event.target as HTMLElement | null;
  if (!event.isTrusted || !target?.closest) return;
  const form = target.closest('form');
  if (!form || form.dataset.unsavedGuard === 'off') return;
  touchedForms.add(form);
  preloadDialog();
}
function onSubmit(event: Event) {
  const form = event.target as HTMLFormElement;
  touchedForms.delete(form);
}
function onBeforeUnload(event: BeforeUnloadEvent) {
  if (auth.get().status !== 'signed-in' || !isDirty()) return;
  event.preventDefault();
  // Older browsers need a returnValue to ask.
  event.returnValue = '';
}

/** Mounted once in the app's shell. */
export function UnsavedChangesGuard() {
  const { t } = useTranslation();
  useEffect(() => {
    document.addEventListener('input', onEdit, true);
    document.addEventListener('change', onEdit, true);
    document.addEventListener('submit', onSubmit, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('input', onEdit, true);
      document.removeEventListener('change', onEdit, true);
      document.removeEventListener('submit', onSubmit, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, []);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !passNext &&
      auth.get().status === 'signed-in' &&
      currentLocation.pathname !== nextLocation.pathname &&
      isDirty(),
  );
  return (
    <Dialog
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={t('unsaved.title')}
      data-testid="unsaved-guard"
    >
      <Text mb="md">{t('unsaved.body')}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => blocker.reset?.()} data-testid="unsaved-stay">
          {t('unsaved.stay')}
        </Button>
        <Button
          color="red.9"
          data-testid="unsaved-leave"
          onClick={() => {
            for (const entry of declared.values()) if (entry.dirty) entry.discard?.();
            touchedForms.clear();
            blocker.proceed?.();
          }}
        >
          {t('unsaved.leave')}
        </Button>
      </Group>
    </Dialog>
  );
}
