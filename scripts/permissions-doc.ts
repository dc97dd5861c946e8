import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ROLES } from '../src/db/schema/platform.ts';
import { isAllowed, PERMISSIONS, type Permission } from '../src/platform/permissions.ts';

/** Renders docs/permissions.md from the permission matrix, so the document cannot drift from the code. */
export function renderPermissionsDoc(): string {
  const header = `| operation | ${ROLES.join(' | ')} | what it covers |\n|---|${ROLES.map(() => ':-:').join('|')}|---|\n`;
  const rows = (Object.keys(PERMISSIONS) as Permission[])
    .map(
      (permission) =>
        `| \`${permission}\` | ${ROLES.map((role) => (isAllowed(role, permission) ? 'yes' : '-')).join(' | ')} | ${PERMISSIONS[permission].description} |`,
    )
    .join('\n');
  return `# Roles and permissions

<!-- Generated from src/platform/permissions.ts by \`npm run docs:permissions\`; do not edit by hand. -->

Every route declares the operation it performs; one hook authenticates the caller, checks this
matrix before the request body is even read (401 without a valid credential, 403 when the role
may not perform the operation), and writes the operation and its roles into the route's OpenAPI
description. \`GET /api/roles\` returns the same table.

${header}${rows}

## Rules beyond the matrix

- **Tenancy**: every user belongs to one organisation and sees only its rows; another tenant's ids
  answer 404, exactly like missing ones.
- **external_sales** and **contact** are limited to the companies they are linked to (a contact's
  \`collaborationIds\`, an external sales user's \`companyIds\`): lists only show those companies'
  rows, single reads of other rows answer 404, writes into other companies answer 403.
- **contact** is a client: it reads its companies' data, may create briefs for them, attach files
  and comments, and accepts or declines published quotes; it cannot change orders or quotes.
- **guest** reads only.
- **Costs** (\`costs:read\`: superadmin, admin, sales) are the seller's: every other role (contact,
  guest, external_sales) gets the buyer's view of each answer, built from an allowlist: prices, unit
  prices, tooling, delivery, lead time, specification and drawings; never cost lines or shares,
  margins, operations' times or costs, machine and material rates, supplier prices or the ranking of
  process variants (src/modules/briefs/buyer-views.ts, src/modules/catalogue/audience.ts). They may
  not set a commercial margin (403 \`cost_field_forbidden\`); corrugated suppliers and composition
  prices need \`costs:read\`. \`test/security/costs-audience.test.ts\` walks every read operation of
  the OpenAPI document as each role.
- **Role hierarchy** (superadmin > admin > sales > external_sales > contact > guest): nobody acts
  as a stronger or equal user. Access tokens (mint, list, revoke) and passwords of others follow
  it: every user manages their own; an admin those of users below admin; a superadmin those of any
  user of the organisation (403 otherwise). Only a superadmin creates, changes, archives or
  promotes to superadmin. \`test/platform/permissions.test.ts\` ("the role hierarchy") sweeps
  every such path.
- **superadmin** is an admin of the first organisation who may also create organisations.

## Contracts generated from the route table

\`test/security/route-contract.test.ts\` reads the routes the app itself registered
(\`app.protectedRoutes\` with their permission, \`app.publicRoutes\`; recorded by
\`src/platform/route-security.ts\`), so a new route is covered without being listed anywhere:

- the routes served without a credential are exactly the documented public ones (sign-in and
  session, password reset, health, the API document, the web app's entry, guest quote links);
- every protected method and path answers 401 problem+json without a credential or with a
  malformed one, and 403 problem+json to each role this matrix does not allow, with unknown ids
  and a query and body no schema accepts (authorization comes before validation and before the
  id is looked up);
- every route of a row (\`/{id}\` and its sub-paths, their further ids being the same tenant's:
  a comment, a file, an item of that row) answers 404 to another tenant's superadmin, and the row
  reads the same afterwards. The rows are made from a small table per collection in that file; a
  collection or a path parameter missing from it fails the test with what to add.
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('../docs/permissions.md', import.meta.url), renderPermissionsDoc());
  console.log('docs/permissions.md written');
}
