import { useTranslation } from 'react-i18next';
import { isStaff, useAuth } from '../../api/auth.ts';
import { paths } from '../../paths.ts';
import { useCan } from './useCan.ts';

/**
 * The "Administration" section of the navigation: what the role may at least read (the API's
 * matrix); the pages offer changes only to roles that may make them. Everyone manages their own
 * access tokens; buyers (contacts) see nothing else here.
 */
export function useAdminLinks(): { to: string; label: string }[] {
  const { t } = useTranslation();
  const { me } = useAuth();
  const can = useCan();
  const links = [{ to: paths.adminTokens(), label: t('admin.nav.tokens') }];
  if (!isStaff(me?.role)) return links;
  if (can('users:read')) links.unshift({ to: paths.adminUsers, label: t('admin.nav.users') });
  if (can('organisation_settings:read'))
    links.push({ to: paths.adminOrganisation, label: t('admin.nav.organisation') });
  if (can('settings:read')) links.push({ to: paths.adminSettings, label: t('admin.nav.settings') });
  if (can('catalogue:read')) links.push({ to: paths.adminCatalogue, label: t('admin.nav.catalogue') });
  return links;
}
