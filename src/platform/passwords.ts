import { hash, verify } from '@node-rs/argon2';

// Argon2id (the library's default algorithm) at the OWASP-recommended minimum: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against this hash when the account does not exist keeps response times alike,
// so sign-in does not reveal which usernames exist.
let decoyHash: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword('decoy-password-never-matches');
  await verifyPassword(await decoyHash, password);
  return false;
}
