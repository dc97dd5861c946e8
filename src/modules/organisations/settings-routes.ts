import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { contentDisposition } from '../../platform/content-disposition.ts';
import { actorOf } from '../../platform/route-security.ts';
import { Nullable, problemResponses } from '../../platform/schemas.ts';
import { LogoUploadBody, OrganisationSettingsSchema, UpdateOrganisationSettingsBody } from './schemas.ts';
import type { OrganisationSettingsService } from './settings-service.ts';

const tags = ['organisations'];

/** The caller's organisation: its identity and commercial settings, and its logo. */
export const organisationSettingsRoutes =
  (service: OrganisationSettingsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/organisation/settings',
      {
        config: { permission: 'organisation_settings:read' },
        schema: {
          tags,
          operationId: 'getOrganisationSettings',
          summary: 'The seller’s identity and commercial settings',
          response: { 200: OrganisationSettingsSchema, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request)),
    );

    app.patch(
      '/organisation/settings',
      {
        config: { permission: 'organisation_settings:manage' },
        schema: {
          tags,
          operationId: 'updateOrganisationSettings',
          summary: 'Change the seller’s identity and commercial settings',
          description:
            'Only the properties sent change; null (or a blank text) clears one. The IBAN is checked ' +
            '(length of its country and mod-97 checksum), the BIC by its shape, an EU VAT number ' +
            'against its country’s format (400 with a pointer otherwise).',
          body: UpdateOrganisationSettingsBody,
          response: { 200: OrganisationSettingsSchema, ...problemResponses() },
        },
      },
      async (request) => service.update(actorOf(request), request.body),
    );

    app.put(
      '/organisation/settings/logo',
      {
        config: { permission: 'organisation_settings:manage' },
        schema: {
          tags,
          operationId: 'uploadOrganisationLogo',
          summary: 'Replace the logo printed on the quote PDFs',
          description:
            'multipart/form-data with a PNG or JPEG in the field `file`, at most 1 MiB (413) and 4096 ' +
            'pixels a side; anything else answers 415 `unsupported_image`.',
          body: LogoUploadBody,
          response: { 200: OrganisationSettingsSchema, ...problemResponses(413, 415) },
        },
      },
      async (request) => service.setLogo(actorOf(request), request),
    );

    app.delete(
      '/organisation/settings/logo',
      {
        config: { permission: 'organisation_settings:manage' },
        schema: {
          tags,
          operationId: 'deleteOrganisationLogo',
          summary: 'Remove the logo',
          response: { 200: OrganisationSettingsSchema, ...problemResponses() },
        },
      },
      async (request) => service.removeLogo(actorOf(request)),
    );

    app.get(
      '/organisation/settings/logo',
      {
        config: { permission: 'organisation_settings:read' },
        schema: {
          tags,
          operationId: 'downloadOrganisationLogo',
          summary: 'The logo image',
          response: {
            200: {
              description: 'The PNG or JPEG image',
              content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
            },
            ...problemResponses(),
          },
        },
      },
      async (request, reply) => {
        const { file, content } = await service.readLogo(actorOf(request));
        return reply
          .header('content-type', file.mimeType)
          .header('content-length', String(content.length))
          .header('content-disposition', contentDisposition(file.filename, 'inline'))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-cache')
          .header('etag', `"${file.sha256}"`)
          .send(content);
      },
    );

    // The seller's brand for the buyer portal: the name and logo every quote PDF already prints,
    // nothing of the commercial settings (bank details, rates) that organisation_settings:read opens.
    app.get(
      '/organisation/brand',
      {
        config: { permission: 'brand:read' },
        schema: {
          tags,
          operationId: 'getOrganisationBrand',
          summary: 'The seller’s name and logo, as the buyer portal shows them',
          response: {
            200: Type.Object({
              name: Type.String({
                description: 'Trading name, else legal name, else the organisation’s name',
              }),
              logoUrl: Nullable(Type.String({ description: 'GET path of the logo; null without one' })),
              email: Nullable(Type.String()),
              phoneNumber: Nullable(Type.String()),
              website: Nullable(Type.String()),
            }),
            ...problemResponses(),
          },
        },
      },
      async (request) => service.brandOf(actorOf(request).organisationId),
    );

    app.get(
      '/organisation/brand/logo',
      {
        config: { permission: 'brand:read' },
        schema: {
          tags,
          operationId: 'downloadOrganisationBrandLogo',
          summary: 'The seller’s logo (the buyer portal’s header)',
          response: {
            200: {
              description: 'The PNG or JPEG image',
              content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
            },
            ...problemResponses(),
          },
        },
      },
      async (request, reply) => {
        const { file, content } = await service.readLogo(actorOf(request));
        return reply
          .header('content-type', file.mimeType)
          .header('content-length', String(content.length))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-cache')
          .header('etag', `"${file.sha256}"`)
          .send(content);
      },
    );
  };
