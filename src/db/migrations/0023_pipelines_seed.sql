-- Every existing organisation gets the default opportunity pipeline that new ones are seeded with
-- (src/modules/pipelines/service.ts, DEFAULT_PIPELINE): same name and steps.
INSERT INTO "pipelines" ("id", "organisation_id", "type", "name", "position", "is_default")
SELECT gen_random_uuid(), o."id", 'opportunity', 'Sales', 0, true
FROM "organisations" o
WHERE NOT EXISTS (SELECT 1 FROM "pipelines" p WHERE p."organisation_id" = o."id");
--> statement-breakpoint
INSERT INTO "pipeline_steps" ("id", "organisation_id", "pipeline_id", "name", "position", "probability", "is_won")
SELECT gen_random_uuid(), p."organisation_id", p."id", s."name", s."position", s."probability", s."is_won"
FROM "pipelines" p
CROSS JOIN (VALUES
  ('Lead', 0, 10, NULL::boolean),
  ('Qualified', 1, 25, NULL::boolean),
  ('Proposal', 2, 50, NULL::boolean),
  ('Negotiation', 3, 75, NULL::boolean),
  ('Won', 4, 100, true),
  ('Lost', 5, 0, false)
) AS s("name", "position", "probability", "is_won")
WHERE p."is_default" AND p."type" = 'opportunity'
  AND NOT EXISTS (SELECT 1 FROM "pipeline_steps" x WHERE x."pipeline_id" = p."id");
