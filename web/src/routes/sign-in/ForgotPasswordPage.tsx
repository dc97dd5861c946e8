import { Alert, Anchor, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { passwordReset } from '../../api/client.ts';
import { paths } from '../../paths.ts';
import { problemMessage } from '../../ui/problem.ts';

/** "Forgot password?": asks the API to e-mail a reset link; the answer never says whether the account exists. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [login, setLogin] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={420}>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            setBusy(true);
            setError(undefined);
            try {
              await passwordReset.request(login);
              setSent(true);
            } catch (e) {
              setError(e);
            } finally {
              setBusy(false);
            }
          }}
        >
          <Stack>
            <Title order={1} size="h2">
              {t('passwordReset.requestTitle')}
            </Title>
            {sent ? (
              <Alert color="green" role="status">
                {t('passwordReset.sent')}
              </Alert>
            ) : (
              <>
                <Text size="sm">{t('passwordReset.requestIntro')}</Text>
                {error !== undefined && (
                  <Alert color="red" role="alert">
                    {problemMessage(error, t)}
                  </Alert>
                )}
                <TextInput
                  label={t('passwordReset.login')}
                  name="login"
                  autoComplete="username"
                  required
                  value={login}
                  onChange={(e) => setLogin(e.currentTarget.value)}
                />
                <Button type="submit" loading={busy}>
                  {t('passwordReset.send')}
                </Button>
              </>
            )}
            <Anchor component={Link} to={paths.signIn} size="sm">
              {t('passwordReset.backToSignIn')}
            </Anchor>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
