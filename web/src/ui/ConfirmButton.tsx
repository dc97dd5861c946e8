import { Button, type ButtonProps, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A button that asks first (a modal with the consequence), for actions that cannot be undone. */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  children,
  ...props
}: ButtonProps & { label: string; question: string; onConfirm: () => unknown; children?: ReactNode }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure();
  return (
    <>
      <Button {...props} onClick={open}>
        {children ?? label}
      </Button>
      <Modal opened={opened} onClose={close} title={label}>
        <Stack>
          <Text size="sm">{question}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button
              color={props.color}
              onClick={async () => {
                close();
                await onConfirm();
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
