import { Burger, Button, Group, Image, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { isStaff, useAuth } from '../api/auth.ts';
import { signOut } from '../api/client.ts';
import { useAdminLinks } from '../features/admin/nav.ts';
import { useBrand, useImageUrl } from '../features/portal/brand.ts';
import { LANGUAGES } from '../i18n/index.ts';
import { isLanguage, languageOf } from '../i18n/languages.ts';
import { paths } from '../paths.ts';
import { Select } from './Select.tsx';
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
  const buyer = me?.role === 'contact';
  const phone = useMediaQuery('(max-width: 30em)');
  // A buyer's portal carries the seller's brand (name and logo), not the desk's title.
  const brand = useBrand(buyer);
  const logo = useImageUrl(buyer ? brand.data?.logoUrl : undefined);
  // A buyer reads in their own language (their user's setting) until they choose another.
  useEffect(() => {
    const own = me?.language ? languageOf(me.language) : undefined;
    if (!buyer || !own || !isLanguage(own) || sessionStorage.getItem('pqs.language.applied')) return;
    sessionStorage.setItem('pqs.language.applied', '1');
    if (i18n.language !== own) void i18n.changeLanguage(own);
  }, [buyer, me?.language, i18n]);
  const links = staff
    ? [
        { to: paths.briefs(), label: t('nav.briefs') },
        { to: paths.newBrief(), label: t('nav.newBrief') },
        { to: paths.quotes, label: t('nav.quotes') },
        { to: paths.companies, label: t('nav.companies') },
        { to: paths.contacts(), label: t('nav.contacts') },
        { to: paths.orders, label: t('orders.nav') },
        { to: paths.articles, label: t('articles.nav') },
      ]
    : [
        ...(buyer ? [{ to: paths.portal, label: t('portal.nav') }] : []),
        { to: paths.quotes, label: t('nav.myQuotes') },
        { to: paths.orders, label: t('orders.nav') },
      ];
  // A buyer manages nothing of the seller's: no administration section (issue 25).
  const allAdminLinks = useAdminLinks();
  const adminLinks = buyer ? [] : allAdminLinks;
  // Imports, webhooks and the event log need imports:manage, webhooks:manage, events:read (admins).
  if (me?.role === 'admin' || me?.role === 'superadmin')
    links.push(
      { to: paths.imports, label: t('nav.imports') },
      { to: paths.webhooks, label: t('nav.webhooks') },
      { to: paths.events, label: t('nav.events') },
    );
  const who = [me?.firstName, me?.lastName].filter(Boolean).join(' ') || me?.email || me?.username;
  const active = (to: string) =>
    to === paths.briefs()
      ? location.pathname === paths.briefs() ||
        (/^\/briefs\/(?!new)/.test(location.pathname) && to === paths.briefs())
      : location.pathname === to || (to !== paths.newBrief() && location.pathname.startsWith(`${to}/`));

  return (
    <>
      <a href="#main" className="skip-link">
        {t('app.skip')}
      </a>
      {/* Scroll locks (a modal's) keep fixed elements with this class clear of the scrollbar. */}
      <header className="frame-header right-scroll-bar-position">
        <Group h="100%" px={phone ? 'xs' : 'md'} justify="space-between" wrap="nowrap" gap="xs">
          <Group wrap="nowrap" gap="xs" style={{ minWidth: 0 }}>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Menu"
              aria-controls="frame-navbar"
              aria-expanded={opened}
            />
            {buyer && logo ? <Image src={logo} alt="" h={32} w="auto" maw={96} fit="contain" /> : null}
            <Title
              order={1}
              size="h4"
              data-testid="app-title"
              style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
            >
              {buyer ? (brand.data?.name ?? '') : t('app.title')}
            </Title>
          </Group>
          <Group wrap="nowrap" gap="xs" style={{ flexShrink: 0 }}>
            <Select
              aria-label={t('nav.language')}
              data={LANGUAGES.map((l) =>
                phone ? { value: l.value, label: l.value.toUpperCase() } : { ...l },
              )}
              value={i18n.language}
              onChange={(value) => value && void i18n.changeLanguage(value)}
              w={phone ? 72 : 120}
              allowDeselect={false}
            />
            <Text size="sm" data-testid="signed-in-user" visibleFrom="sm">
              {who} · {me?.role ? t(`admin.roles.${me.role}`) : ''}
            </Text>
            <Button
              variant="default"
              px={phone ? 'xs' : undefined}
              onClick={async () => {
                await signOut();
                navigate(paths.signIn);
              }}
            >
              {t('nav.signOut')}
            </Button>
          </Group>
        </Group>
      </header>
      <nav id="frame-navbar" className="frame-navbar" aria-label="Main" data-opened={opened || undefined}>
        {links.map((link) => (
          <FrameLink key={link.to} to={link.to} label={link.label} active={active(link.to)} />
        ))}
        {adminLinks.length > 0 && (
          <Text size="xs" fw={700} tt="uppercase" mt="md" mb={4} px="sm">
            {t('admin.nav.title')}
          </Text>
        )}
        {adminLinks.map((link) => (
          <FrameLink key={link.to} to={link.to} label={link.label} active={active(link.to)} />
        ))}
      </nav>
      <SessionWarning />
      <UnsavedChangesGuard />
      <main id="main" className="frame-main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}

/** A link of the navbar (index.css `.frame-link`: Mantine's filled NavLink look). */
function FrameLink({ to, label, active }: { to: string; label: string; active: boolean }) {
  return (
    <Link to={to} className="frame-link mantine-focus-auto" data-active={active || undefined}>
      <span>{label}</span>
    </Link>
  );
}
