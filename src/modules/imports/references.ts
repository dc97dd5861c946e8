export const unknownCompany = (key: string) => `no company has the external id "${key}"`;
