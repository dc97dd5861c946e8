/**
 * PAdES B-B signatures of accepted quotes (ETSI EN 319 142-1): the organisation's certificate,
 * made on first use, and a CMS (CAdES) detached signature of the exact PDF the buyer was shown,
 * appended to it as an incremental update, so the signed file starts with the very bytes whose
 * SHA-256 the acceptance evidence records.
 */
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, webcrypto } from 'node:crypto';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const crypto = webcrypto as unknown as Crypto;
const engine = new pkijs.CryptoEngine({ name: 'node', crypto });

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  /** id-aa-signingCertificateV2 (RFC 5035): required by PAdES B-B. */
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
};

/** How long an organisation's signing certificate is valid. */
export const CERTIFICATE_YEARS = 10;

export type SigningIdentity = { certificatePem: string; privateKeyPem: string; notAfter: Date };

const RSA_SIGN = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

const pemBody = (pem: string) =>
  Buffer.from(pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');

/**
 * A new self-signed document-signing certificate for an organisation (RSA 2048, SHA-256,
 * digitalSignature + nonRepudiation), its subject the organisation's name.
 */
export async function createSigningIdentity(
  organisationName: string,
  now = new Date(),
): Promise<SigningIdentity> {
  // Node's key generation (native) rather than WebCrypto's, then imported: same key, PKCS#8 PEM.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKey = await crypto.subtle.importKey(
    'spki',
    createPublicKey(privateKey).export({ type: 'spki', format: 'der' }),
    RSA_SIGN,
    true,
    ['verify'],
  );
  const signingKey = await crypto.subtle.importKey('pkcs8', pemBody(privateKeyPem), RSA_SIGN, false, [
    'sign',
  ]);
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + CERTIFICATE_YEARS);
  const cn = organisationName.trim().slice(0, 64) || 'Organisation';
  const name = () =>
    new pkijs.RelativeDistinguishedNames({
      typesAndValues: [
        new pkijs.AttributeTypeAndValue({
          type: OID.commonName,
          value: new asn1js.Utf8String({ value: cn }),
        }),
      ],
    });
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  // A positive serial of 16 random bytes (the high bit cleared).
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  certificate.serialNumber = new asn1js.Integer({ valueHex: serial });
  certificate.issuer = name();
  certificate.subject = name();
  certificate.notBefore.value = now;
  certificate.notAfter.value = notAfter;
  // digitalSignature (bit 0) and nonRepudiation (bit 1): a document-signing certificate.
  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([0xc0]).buffer, unusedBits: 6 });
  certificate.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false),
      parsedValue: new pkijs.BasicConstraints({ cA: false }),
    }),
    new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: keyUsage.toBER(false) }),
  ];
  await certificate.subjectPublicKeyInfo.importKey(publicKey, engine);
  await certificate.sign(signingKey, 'SHA-256', engine);
  const der = Buffer.from(certificate.toSchema(true).toBER(false));
  const certificatePem = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim()}\n-----END CERTIFICATE-----\n`;
  return { certificatePem, privateKeyPem, notAfter };
}

/** A signer of @signpdf that makes a CAdES detached CMS (PAdES B-B attributes, no signing-time). */
class CadesSigner extends Signer {
  constructor(private readonly identity: SigningIdentity) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    const certDer = pemBody(this.identity.certificatePem);
    const certificate = pkijs.Certificate.fromBER(certDer);
    const key = await crypto.subtle.importKey(
      'pkcs8',
      pemBody(this.identity.privateKeyPem),
      RSA_SIGN,
      false,
      ['sign'],
    );
    const digest = createHash('sha256').update(pdfBuffer).digest();
    const certHash = createHash('sha256').update(certDer).digest();
    // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }; ESSCertIDv2 with the
    // default hash algorithm (SHA-256) is SEQUENCE { certHash OCTET STRING }.
    const signingCertificateV2 = new asn1js.Sequence({
      value: [
        new asn1js.Sequence({
          value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certHash })] })],
        }),
      ],
    });
    const signedData = new pkijs.SignedData({
      version: 1,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({
            issuer: certificate.issuer,
            serialNumber: certificate.serialNumber,
          }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 0,
            attributes: [
              new pkijs.Attribute({
                type: OID.contentType,
                values: [new asn1js.ObjectIdentifier({ value: OID.data })],
              }),
              new pkijs.Attribute({
                type: OID.messageDigest,
                values: [new asn1js.OctetString({ valueHex: digest })],
              }),
              new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2] }),
            ],
          }),
        }),
      ],
      certificates: [certificate],
    });
    await signedData.sign(key, 0, 'SHA-256', undefined, engine);
    const contentInfo = new pkijs.ContentInfo({
      contentType: OID.signedData,
      content: signedData.toSchema(true),
    });
    return Buffer.from(contentInfo.toSchema().toBER(false));
  }
}

export type SignatureDetails = {
  /** Who signs: the organisation (the certificate's subject). */
  name: string;
  reason: string;
  contactInfo: string;
  location: string;
  signingTime: Date;
};

/**
 * The PDF signed (PAdES B-B, SubFilter ETSI.CAdES.detached), the original bytes kept as they are
 * at the start of the result.
 */
export async function signPdf(
  pdf: Buffer,
  identity: SigningIdentity,
  details: SignatureDetails,
): Promise<Buffer> {
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: details.reason,
    contactInfo: details.contactInfo,
    name: details.name,
    location: details.location,
    signingTime: details.signingTime,
    signatureLength: 8192,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    // Written as a PDF name: no spaces.
    appName: 'PackagingQuotationService',
  });
  return new SignPdf().sign(withPlaceholder, new CadesSigner(identity), details.signingTime);
}
