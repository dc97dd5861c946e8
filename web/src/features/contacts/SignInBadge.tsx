import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Whether a contact can sign in: it has a username (given by POST /api/users/{id}/invite). */
export function SignInBadge({ username }: { username?: string | null }) {
  const { t } = useTranslation();
  return username ? (
    <Badge color="teal.9" variant="light">
      {t('contacts.canSignIn')}
    </Badge>
  ) : (
    <Text size="sm" c="dimmed">
      {t('contacts.cannotSignIn')}
    </Text>
  );
}
