import { AppShell, Burger, Button, Group, NavLink, Select, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { isStaff, useAuth } from '../api/auth.ts';
import { signOut } from '../api/client.ts';
import { useAdminLinks } from '../features/admin/nav.ts';
import { LANGUAGES } from '../i18n/index.ts';
import { SessionWarning } from './SessionWarning.tsx';
import { Loading } from './states.tsx';
import { UnsavedChangesGuard } from './UnsavedChanges.tsx';

/** The shell: navigation by role, language switch, the signed-in user and sign-out. */
export function AppLayout() {
  const { t, i18n } = useTranslation();
  const { me } = useAuth();
  const [opened, { toggle }] = useDisclosure();
  const location = useLocation();
  const navigate = useNavigate();
  const staff = isStaff(me?.role);
  const links = staff
    ? [
        { to: '/briefs', label: t('nav.briefs') },
        { to: '/briefs/new', label: t('nav.newBrief') },
        { to: '/quotes', label: t('nav.quotes') },
        { to: '/companies', label: t('nav.companies') },
        { to: '/contacts', label: t('nav.contacts') },
        { to: '/orders', label: t('orders.nav') },
        { to: '/articles', label: t('articles.nav') },
      ]
    : [
        { to: '/quotes', label: t('nav.myQuotes') },
        { to: '/orders', label: t('orders.nav') },
      ];
  const adminLinks = useAdminLinks();
  // Imports, webhooks and the event log need imports:manage, webhooks:manage, events:read (admins).
  if (me?.role === 'admin' || me?.role === 'superadmin')
    links.push(
      { to: '/imports', label: t('imports.nav') },
      { to: '/webhooks', label: t('webhooks.nav') },
      { to: '/events', label: t('webhooks.eventsNav') },
    );
  const who = [me?.firstName, me?.lastName].filter(Boolean).join(' ') || me?.email || me?.username;
  const active = (to: string) =>
    to === '/briefs'
      ? location.pathname === '/briefs' || (/^\/briefs\/(?!new)/.test(location.pathname) && to === '/briefs')
      : location.pathname === to || (to !== '/briefs/new' && location.pathname.startsWith(`${to}/`));

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a href="#main" className="skip-link">
        {t('app.skip')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Title order={1} size="h4">
              {t('app.title')}
            </Title>
          </Group>
          <Group wrap="nowrap" gap="sm">
            <Select
              aria-label={t('nav.language')}
              data={LANGUAGES.map((l) => ({ ...l }))}
              value={i18n.language}
              onChange={(value) => value && void i18n.changeLanguage(value)}
              w={120}
              allowDeselect={false}
            />
            <Text size="sm" data-testid="signed-in-user" visibleFrom="sm">
              {who} · {me?.role ? t(`admin.roles.${me.role}`) : ''}
            </Text>
            <Button
              variant="default"
              onClick={async () => {
                await signOut();
                navigate('/sign-in');
              }}
            >
              {t('nav.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        {links.map((link) => (
          <NavLink
            key={link.to}
            component={Link}
            to={link.to}
            label={link.label}
            active={active(link.to)}
            variant="filled"
          />
        ))}
        <Text size="xs" fw={700} tt="uppercase" mt="md" mb={4} px="sm">
          {t('admin.nav.title')}
        </Text>
        {adminLinks.map((link) => (
          <NavLink
            key={link.to}
            component={Link}
            to={link.to}
            label={link.label}
            active={active(link.to)}
            variant="filled"
          />
        ))}
      </AppShell.Navbar>
      <SessionWarning />
      <UnsavedChangesGuard />
      <AppShell.Main id="main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
