import { z } from 'zod';
import { operationList } from '../api/operations.ts';
import { type RecordKind, recordKinds } from './record-kinds.ts';
import { scanPatternProblem } from './scan-pattern.ts';

/**
 * The integration profile: how this kiosk reads and writes what the specification leaves 'not
 * shown', for one Commerce API service. One JSON file, validated here; `integration-profile.schema.json`
 * (generated from this schema) gives editors completion and checks. The default profile describes
 * the project's sandbox; an integrator derives theirs from the vendor's OpenAPI document
 * (`kioskctl contract import`) and checks it against the live service (`kioskctl contract check`).
 */

/** A dotted field path in a reply (`totals.inclTax`; a digit segment indexes an array). */
export const FieldPath = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^.\s]+(\.[^.\s]+)*$/, { message: 'a dotted field path such as totals.inclTax' })
  .meta({ description: 'A dotted field path in the reply, for example `totals.inclTax`.' });

/**
 * Where a value lives: one path, several to try in order, or null when the service does not
 * provide it (the screen says so). The string `"?"` marks a value a person must still decide.
 */
export const FieldLocation = z.union([FieldPath, z.array(FieldPath).min(1).max(8), z.null()]).meta({
  description:
    'Where the value lives: a dotted path, a list of paths tried in order, or null when the service does not provide it.',
});
export type FieldLocation = z.infer<typeof FieldLocation>;

/** The lists whose parameters the spec does not show: a service may page them, or not. */
const NOT_SHOWN_LISTS = operationList
  .filter((operation) => operation.pagination === 'list')
  .map((operation) => operation.operationId);
const NotShownList = z.enum(NOT_SHOWN_LISTS as [string, ...string[]]);

function recordSchema(kind: RecordKind) {
  const fields = recordKinds[kind].fields as Record<string, { type: string }>;
  const shape = Object.fromEntries(
    Object.entries(fields).map(([name, spec]) => [
      name,
      FieldLocation.optional().meta({ description: `${name} (${spec.type})` }),
    ]),
  );
  return z
    .strictObject(shape)
    .meta({ description: `Where each value of the ${kind} record lives.` });
}

const recordsShape = Object.fromEntries(
  (Object.keys(recordKinds) as RecordKind[]).map((kind) => [kind, recordSchema(kind).optional()]),
) as { [K in RecordKind]: z.ZodOptional<ReturnType<typeof recordSchema>> };

/** Where each of the kiosk's debit values goes in the body, or null when the service takes none. */
export const DebitBodyTemplate = z
  .strictObject({
    amount: FieldPath.meta({ description: 'Where the amount to debit (EUR, a number) goes.' }),
    currency: FieldPath.nullable().meta({
      description: 'Where the currency code `EUR` goes; null when the service takes none.',
    }),
    reference: FieldPath.nullable().meta({
      description:
        "Where the kiosk's unique debit reference goes; null when the service takes none (debits whose reply was lost can then not be found back in the card's usages, and stay held).",
    }),
    shopId: FieldPath.nullable().meta({
      description: "Where the kiosk's shop id goes; null when the service takes none.",
    }),
  })
  .meta({ description: 'The gift-card debit request body, as a template.' });
export type DebitBodyTemplate = z.infer<typeof DebitBodyTemplate>;

const ParameterName = z
  .string()
  .regex(/^[A-Za-z_][\w.-]{0,63}$/, { message: 'a query parameter name' })
  .nullable();

export const IntegrationProfile = z
  .strictObject({
    $schema: z.string().optional(),
    profileVersion: z.literal(1).meta({ description: 'The profile format version: 1.' }),
    name: z
      .string()
      .min(1)
      .max(120)
      .meta({ description: 'What this profile is for, shown in diagnostics.' }),
    records: z.strictObject(recordsShape).meta({
      description:
        'For each record kind the kiosk reads, where each value lives. A value left out uses the field of the same name.',
    }),
    statuses: z
      .strictObject({
        giftCardDebitable: z.array(z.string().min(1)).min(1).meta({
          description: 'The gift-card status values that allow a debit. Any other value blocks it.',
        }),
        creditIsGiftCard: z.array(z.string().min(1)).meta({
          description:
            'The credit `type` values that mean a gift card (offered as "Use this card").',
        }),
        customerIsCompany: z.array(z.string().min(1)).meta({
          description: 'The customer type values that mean a company.',
        }),
      })
      .meta({ description: 'Which status words mean what.' }),
    giftCardDebit: z
      .strictObject({ body: DebitBodyTemplate })
      .meta({ description: 'How a debit is written.' }),
    parameters: z
      .strictObject({
        page: ParameterName.meta({
          description:
            'Page number on the lists whose parameters are not shown; null when the service does not page them.',
        }),
        limit: ParameterName.meta({
          description: 'Page size on those lists; null when not taken.',
        }),
        unpaged: z.array(NotShownList).max(NOT_SHOWN_LISTS.length).default([]).meta({
          description:
            'The lists among those that take no paging parameter at all on this service (the kiosk then reads their first page only).',
        }),
        giftCardUsages: z
          .strictObject({ name: z.string().min(1), value: z.string().min(1) })
          .nullable()
          .meta({
            description:
              'The query parameter that asks a gift card for its usages (`include=usages`); null when they always come.',
          }),
        customerContact: z
          .strictObject({ name: z.string().min(1), value: z.string().min(1) })
          .nullable()
          .default({ name: 'include', value: 'contact' })
          .meta({
            description:
              "The query parameter that asks a customer for its contact data (the sandbox's `include=contact`; not shown); null when the service takes none (it is then never sent, and contact data is whatever the service returns).",
          }),
        customerHistory: z
          .strictObject({
            name: z.string().min(1),
            families: z.strictObject({
              sales: z.string().min(1).nullable(),
              orders: z.string().min(1).nullable(),
              sav: z.string().min(1).nullable(),
              credits: z.string().min(1).nullable(),
            }),
          })
          .nullable()
          .default({
            name: 'include',
            families: { sales: 'sales', orders: 'orders', sav: 'sav', credits: 'credits' },
          })
          .meta({
            description:
              "The query parameter that chooses the families of a customer's history, and each family's value (the spec names the `include` of history but not its values); null when the service takes none (the history is then asked without it). A family whose value is null is never asked for.",
          }),
        customerSearch: z
          .strictObject({
            lastName: ParameterName,
            firstName: ParameterName,
            phone: ParameterName,
            postalCode: ParameterName,
          })
          .meta({
            description:
              'Names of the customer search criteria other than `email` (not shown); null when not taken.',
          }),
      })
      .meta({ description: 'Query parameter names where the specification does not show them.' }),
    scan: z
      .strictObject({
        pattern: z
          .string()
          .max(200)
          .nullable()
          .superRefine((pattern, context) => {
            const problem = pattern === null ? null : scanPatternProblem(pattern);
            if (problem !== null) context.addIssue({ code: 'custom', message: problem });
          })
          .meta({
            description:
              'A regular expression a scanned code must match; its group named `id` (or the whole match) is the gift-card id. Null: the code is the id. Refused when it could backtrack catastrophically: no repetition of something that itself repeats or has alternatives, no look-arounds or back-references; codes longer than 128 characters match nothing.',
          }),
        prefix: z
          .string()
          .max(64)
          .default('')
          .meta({ description: 'Put before the extracted id.' }),
      })
      .meta({ description: 'How a scanned code becomes a gift-card id.' }),
  })
  .meta({ id: 'IntegrationProfile', title: 'commerce-kiosk integration profile' });
export type IntegrationProfile = z.infer<typeof IntegrationProfile>;
export type IntegrationProfileInput = z.input<typeof IntegrationProfile>;
