import type { TFunction } from 'i18next';
import { paths } from '../../paths.ts';

type Named = {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phoneNumber?: string | null;
};

/** A contact's name ("Jane Doe"), else its e-mail, else its phone: what a user knows it by, never its id. */
export function contactName(contact: Named, t: TFunction): string {
  const name = [contact.firstName, contact.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || contact.email?.trim() || contact.phoneNumber?.trim() || t('contacts.unnamed');
}

/** A contact as a picker lists it: its name and, when it has both, its e-mail ("Jane Doe · jane@shop.fr"). */
export function contactLabel(contact: Named, t: TFunction): string {
  const name = contactName(contact, t);
  const email = contact.email?.trim();
  return email && name !== email ? `${name} · ${email}` : name;
}

/** The contacts page searched for this contact by its name (or e-mail): a link a person can read. */
export function contactLink(contact: Named, t: TFunction): string {
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ').trim();
  const search = name || contact.email?.trim() || contactName(contact, t);
  return paths.contacts({ search });
}
