import type { MailLanguage } from './templates.ts';

/** The password-reset e-mail (src/modules/password-reset), in the user's language. Plain text. */
export type ResetFacts = { name: string; organisationName: string; link: string; validMinutes: number };

type Text = { subject: string; text: string };

export const passwordResetMail: Record<MailLanguage, (f: ResetFacts) => Text> = {
  en: (f) => ({
    subject: `Reset your password for ${f.organisationName}`,
    text: [
      `Hello ${f.name},`,
      '',
      'Someone (hopefully you) asked to reset the password of your account.',
      `Choose a new password with this link, valid for ${f.validMinutes} minutes and usable once:`,
      f.link,
      '',
      'If you did not ask for it, ignore this message: your password stays as it is.',
    ].join('\n'),
  }),
  fr: (f) => ({
    subject: `Réinitialisez votre mot de passe pour ${f.organisationName}`,
    text: [
      `Bonjour ${f.name},`,
      '',
      'Quelqu’un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte.',
      `Choisissez un nouveau mot de passe avec ce lien, valable ${f.validMinutes} minutes et utilisable une seule fois :`,
      f.link,
      '',
      'Si vous ne l’avez pas demandé, ignorez ce message : votre mot de passe ne change pas.',
    ].join('\n'),
  }),
  de: (f) => ({
    subject: `Passwort für ${f.organisationName} zurücksetzen`,
    text: [
      `Hallo ${f.name},`,
      '',
      'Jemand (hoffentlich Sie) hat verlangt, das Passwort Ihres Kontos zurückzusetzen.',
      `Wählen Sie mit diesem Link ein neues Passwort; er gilt ${f.validMinutes} Minuten und nur einmal:`,
      f.link,
      '',
      'Wenn Sie das nicht verlangt haben, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.',
    ].join('\n'),
  }),
};
