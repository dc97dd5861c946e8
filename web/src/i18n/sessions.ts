/**
 * The words of sliding sessions, drafts, the unsaved-changes guard and the stale estimate (issue
 * 26), in English, French and German (spread into en.ts, fr.ts and de.ts).
 */
export const sessionsEn = {
  session: {
    warningTitle: 'Still there?',
    warning: 'Without activity you will be signed out in {{time}}. Your unsaved work is kept as a draft.',
    stay: 'Stay signed in',
    signOut: 'Sign out',
    ended: 'You were signed out.',
  },
  unsaved: {
    title: 'Leave without saving?',
    body: 'Your changes on this page are not saved. If you leave, they are lost.',
    stay: 'Stay on this page',
    leave: 'Leave without saving',
  },
  drafts: {
    restored: 'Your unsaved changes of {{time}} were restored.',
    discard: 'Discard them',
  },
  stale: {
    badge: 'Not up to date',
    price: 'This price is for the form before your last change. Correct the marked fields to price it again.',
    drawing: 'Not up to date',
    saveBlocked: 'Correct the marked fields to save.',
  },
};
export type SessionsMessages = typeof sessionsEn;

export const sessionsFr: SessionsMessages = {
  session: {
    warningTitle: 'Toujours là ?',
    warning:
      'Sans activité, vous serez déconnecté dans {{time}}. Votre travail non enregistré est conservé comme brouillon.',
    stay: 'Rester connecté',
    signOut: 'Se déconnecter',
    ended: 'Vous avez été déconnecté.',
  },
  unsaved: {
    title: 'Quitter sans enregistrer ?',
    body: 'Vos modifications sur cette page ne sont pas enregistrées. Si vous quittez, elles seront perdues.',
    stay: 'Rester sur cette page',
    leave: 'Quitter sans enregistrer',
  },
  drafts: {
    restored: 'Vos modifications non enregistrées de {{time}} ont été restaurées.',
    discard: 'Les abandonner',
  },
  stale: {
    badge: 'Pas à jour',
    price:
      'Ce prix correspond au formulaire avant votre dernière modification. Corrigez les champs signalés pour recalculer le prix.',
    drawing: 'Pas à jour',
    saveBlocked: 'Corrigez les champs signalés pour enregistrer.',
  },
};

export const sessionsDe: SessionsMessages = {
  session: {
    warningTitle: 'Noch da?',
    warning:
      'Ohne Aktivität werden Sie in {{time}} abgemeldet. Ihre ungespeicherte Arbeit wird als Entwurf aufbewahrt.',
    stay: 'Angemeldet bleiben',
    signOut: 'Abmelden',
    ended: 'Sie wurden abgemeldet.',
  },
  unsaved: {
    title: 'Ohne Speichern verlassen?',
    body: 'Ihre Änderungen auf dieser Seite sind nicht gespeichert. Wenn Sie die Seite verlassen, gehen sie verloren.',
    stay: 'Auf dieser Seite bleiben',
    leave: 'Ohne Speichern verlassen',
  },
  drafts: {
    restored: 'Ihre ungespeicherten Änderungen von {{time}} wurden wiederhergestellt.',
    discard: 'Verwerfen',
  },
  stale: {
    badge: 'Nicht aktuell',
    price:
      'Dieser Preis gilt für das Formular vor Ihrer letzten Änderung. Korrigieren Sie die markierten Felder, um neu zu kalkulieren.',
    drawing: 'Nicht aktuell',
    saveBlocked: 'Korrigieren Sie die markierten Felder, um zu speichern.',
  },
};
