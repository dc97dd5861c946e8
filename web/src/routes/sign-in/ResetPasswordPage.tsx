import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { passwordReset } from '../../api/client.ts';
import { paths } from '../../paths.ts';
import { problemFields, problemMessage } from '../../ui/problem.ts';

/** The page of the reset e-mail's link (/app/reset-password?token=...): a new password, once. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>();
  const fields = problemFields(error, t);
  const mismatch = again.length > 0 && again !== password;
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={420}>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            if (mismatch) return;
            setBusy(true);
            setError(undefined);
            try {
              await passwordReset.complete(token, password);
              setDone(true);
            } catch (e) {
              setError(e);
            } finally {
              setBusy(false);
            }
          }}
        >
          <Stack>
            <Title order={1} size="h2">
              {t('passwordReset.resetTitle')}
            </Title>
            {done ? (
              <Alert color="green" role="status">
                {t('passwordReset.done')}
              </Alert>
            ) : !token ? (
              <Alert color="red" role="alert">
                {t('passwordReset.missingToken')}
              </Alert>
            ) : (
              <>
                {error !== undefined && (
                  <Alert color="red" title={t('passwordReset.failed')} role="alert">
                    {problemMessage(error, t)}
                  </Alert>
                )}
                <PasswordInput
                  label={t('passwordReset.newPassword')}
                  description={t('passwordReset.passwordHint')}
                  name="new-password"
                  autoComplete="new-password"
                  required
                  minLength={8}
                  value={password}
                  error={fields['/password']}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                />
                <PasswordInput
                  label={t('passwordReset.confirmPassword')}
                  name="confirm-password"
                  autoComplete="new-password"
                  required
                  value={again}
                  error={mismatch ? t('passwordReset.mismatch') : undefined}
                  onChange={(e) => setAgain(e.currentTarget.value)}
                />
                <Button type="submit" loading={busy} disabled={mismatch}>
                  {t('passwordReset.save')}
                </Button>
              </>
            )}
            {(done || fields['/token'] || !token) && (
              <Anchor component={Link} to={done ? paths.signIn : paths.forgotPassword} size="sm">
                {done ? t('passwordReset.backToSignIn') : t('passwordReset.askAgain')}
              </Anchor>
            )}
            {!done && token && !fields['/token'] && (
              <Anchor component={Link} to={paths.signIn} size="sm">
                {t('passwordReset.backToSignIn')}
              </Anchor>
            )}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
