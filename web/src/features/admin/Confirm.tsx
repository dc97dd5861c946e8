import { Button, type ButtonProps, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A button that asks before an action that cannot simply be undone (revoke, archive, delete). */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  loading,
  ...props
}: ButtonProps & { label: string; question: ReactNode; onConfirm: () => unknown }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure();
  return (
    <>
      <Button size="xs" variant="subtle" color="red" onClick={open} loading={loading} {...props}>
        {label}
      </Button>
      <Modal opened={opened} onClose={close} title={label}>
        <Stack>
          <Text>{question}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red"
              onClick={() => {
                close();
                void onConfirm();
              }}
            >
              {label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
