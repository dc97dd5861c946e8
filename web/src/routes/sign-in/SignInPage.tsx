import {
  Alert,
  Anchor,
  Button,
  Center,
  NativeSelect,
  Paper,
  PasswordInput,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../api/auth.ts';
import { signIn } from '../../api/client.ts';
import { LANGUAGES } from '../../i18n/index.ts';
import { paths } from '../../paths.ts';
import { problemMessage } from '../../ui/problem.ts';

export default function SignInPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const state = useAuth();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const from = (location.state as { from?: string } | null)?.from ?? '/';
  if (state.status === 'signed-in' && state.me) return <Navigate to={from} replace />;

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={380}>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            setBusy(true);
            setError(undefined);
            try {
              await signIn(username, password);
              navigate(from, { replace: true });
            } catch (e) {
              setError(e);
            } finally {
              setBusy(false);
            }
          }}
        >
          <Stack>
            <Title order={1} size="h2">
              {t('signIn.title')}
            </Title>
            {error === undefined && state.reason ? (
              <Alert color="yellow" role="status" data-testid="signed-out-reason">
                {t(`common.problems.${state.reason}`, { defaultValue: t('session.ended') })}
              </Alert>
            ) : null}
            {error !== undefined && (
              <Alert color="red" title={t('signIn.failed')} role="alert">
                {problemMessage(error, t)}
              </Alert>
            )}
            <TextInput
              label={t('signIn.username')}
              name="username"
              autoComplete="username"
              required
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
            />
            <PasswordInput
              label={t('signIn.password')}
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              {t('signIn.submit')}
            </Button>
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              {t('signIn.forgot')}
            </Anchor>
            {/* The browser's own select: Mantine's Select (Combobox, ScrollArea, Popover) would
                add ~35 KB gzipped to the sign-in screen's budget (bench/web.ts). */}
            <NativeSelect
              label={t('nav.language')}
              data={LANGUAGES.map((l) => ({ ...l }))}
              value={i18n.language}
              onChange={(event) => void i18n.changeLanguage(event.currentTarget.value)}
            />
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
