import { type Static, Type } from '@sinclair/typebox';
import {
  CustomFieldValues,
  DateTime,
  DateTimeInput,
  Nullable,
  NullableInput,
  Uuid,
  type WithCustomFields,
} from '../../platform/schemas.ts';

export const ProjectSchema = Type.Object(
  {
    id: Uuid,
    organisationId: Uuid,
    companyId: Uuid,
    name: Type.String(),
    code: Nullable(Type.String()),
    description: Nullable(Type.String()),
    externalId: Nullable(Type.String()),
    statusId: Nullable(Uuid),
    managerId: Nullable(Uuid),
    dueDate: Nullable(DateTime),
    estimatedValues: Nullable(Type.Number()),
    opportunityPipelineId: Nullable(Type.String()),
    opportunityStepId: Nullable(Type.String()),
    customFields: CustomFieldValues,
    createdById: Nullable(Uuid),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: Nullable(DateTime),
  },
  { $id: 'Project', description: 'A project of a company: groups its briefs, quotes and orders' },
);

const projectFields = {
  name: Type.String({ minLength: 1, maxLength: 300 }),
  companyId: Type.String({ format: 'uuid', description: 'A company of the organisation' }),
  code: NullableInput(Type.String({ maxLength: 100 })),
  description: NullableInput(Type.String({ maxLength: 10_000 })),
  externalId: NullableInput(
    Type.String({ minLength: 1, maxLength: 200, description: 'ERP identifier, unique per organisation' }),
  ),
  statusId: NullableInput(Type.String({ format: 'uuid', description: 'A status of entity `project`' })),
  managerId: NullableInput(
    Type.String({ format: 'uuid', description: 'The user of the organisation (not a contact) managing it' }),
  ),
  dueDate: NullableInput(Type.String({ ...DateTimeInput, description: 'When the project is due' })),
  estimatedValues: NullableInput(
    Type.Number({
      minimum: 0,
      maximum: 1e12,
      description: 'Estimated value of the project, in the organisation’s base currency',
    }),
  ),
  opportunityPipelineId: NullableInput(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'An opportunity pipeline of the organisation (GET /pipelines); unknown: 422',
    }),
  ),
  opportunityStepId: NullableInput(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'A step of that pipeline; sent alone, it brings its pipeline',
    }),
  ),
  customFields: CustomFieldValues,
};

const hipeProjectFields = {
  managerId: Type.Optional(projectFields.managerId),
  dueDate: Type.Optional(projectFields.dueDate),
  estimatedValues: Type.Optional(projectFields.estimatedValues),
  opportunityPipelineId: Type.Optional(projectFields.opportunityPipelineId),
  opportunityStepId: Type.Optional(projectFields.opportunityStepId),
};

export const CreateProjectBody = Type.Object(
  {
    name: projectFields.name,
    companyId: projectFields.companyId,
    code: Type.Optional(projectFields.code),
    description: Type.Optional(projectFields.description),
    externalId: Type.Optional(projectFields.externalId),
    statusId: Type.Optional(projectFields.statusId),
    ...hipeProjectFields,
    customFields: Type.Optional(projectFields.customFields),
  },
  { additionalProperties: false },
);

export const UpdateProjectBody = Type.Object(
  {
    name: Type.Optional(projectFields.name),
    companyId: Type.Optional(projectFields.companyId),
    code: Type.Optional(projectFields.code),
    description: Type.Optional(projectFields.description),
    externalId: Type.Optional(projectFields.externalId),
    statusId: Type.Optional(projectFields.statusId),
    ...hipeProjectFields,
    customFields: Type.Optional(projectFields.customFields),
  },
  {
    additionalProperties: false,
    description: 'Only the properties sent change; `customFields` are merged (a key set to null is removed)',
  },
);

export type CreateProject = WithCustomFields<Static<typeof CreateProjectBody>>;
export type UpdateProject = WithCustomFields<Static<typeof UpdateProjectBody>>;
