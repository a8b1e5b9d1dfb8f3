import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { ApiError, errorCodeByStatus, errorTable } from '../shared/api/errors.ts';
import type { Operation } from '../shared/api/operation.ts';
import { operationList } from '../shared/api/operations.ts';

/**
 * The generator of the contract document, shared/api/openapi.json: build scripts and tests only.
 * zod-to-openapi is a devDependency, so nothing the kiosk or the sandbox runs may reach this file;
 * they read the committed document instead (`npm run openapi` rewrites it, a test fails when it is
 * stale).
 */

export const contractVersion = '1.0.0';

const errorDescriptions: Record<number, string> = {
  400: 'Invalid parameter, header or body; unknown parameters are refused. Do not retry identically.',
  401: 'Token absent, expired, invalid or revoked: renew the token.',
  403: 'At least one required scope is missing; `missingScopes` may be added.',
  404: 'Public resource unknown or outside the authorized organization.',
  409: 'A business, financial, availability or idempotency rule refuses the operation.',
  429: 'Request limit reached; honour `Retry-After` when present.',
  500: 'Unexpected internal error; retry with increasing delays.',
  503: 'Temporarily unavailable (maintenance); retry with increasing delays.',
};

function parameterAssumption(operation: Operation): string | undefined {
  const note = operation.query?.meta()?.['x-assumption'];
  return typeof note === 'string' ? `Parameters: ${note}` : undefined;
}

/** Human-readable scope requirements, so the document says what the table enforces. */
function describeScopes(operation: Operation): string {
  const { all, anyOf, conditional = [] } = operation.scopes;
  const lines: string[] = [];
  if (operation.auth === 'none') lines.push('No JWT.');
  else if (all.length === 0 && !anyOf) lines.push('JWT only, no business scope.');
  if (all.length > 0) lines.push(`Required scopes: ${all.join(', ')}.`);
  if (anyOf) lines.push(`At least one of: ${anyOf.join(', ')}.`);
  for (const rule of conditional) {
    const effect =
      rule.effect === 'forbid' ? 'otherwise 403' : `otherwise \`${rule.block ?? ''}\` is omitted`;
    lines.push(`Also ${rule.scopes.join(', ')} when ${rule.note} (${effect}).`);
  }
  return lines.join(' ');
}

function registerOperation(registry: OpenAPIRegistry, operation: Operation): void {
  const responses: Record<number, unknown> = {
    200:
      'json' in operation.reply
        ? {
            description: 'Success.',
            content: { 'application/json': { schema: operation.reply.json } },
          }
        : {
            description: 'The PDF document.',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
  };
  for (const status of operation.errors) {
    responses[status] = {
      description:
        `${errorCodeByStatus[status]} (${errorTable[errorCodeByStatus[status]].label}). ${errorDescriptions[status] ?? ''}`.trim(),
      content: { 'application/json': { schema: ApiError } },
    };
  }
  registry.registerPath({
    method: operation.method.toLowerCase() as 'get' | 'put' | 'post',
    path: operation.path,
    operationId: operation.operationId,
    summary: operation.summary,
    description: describeScopes(operation),
    tags: [operation.path.split('/')[operation.path.startsWith('/v1/') ? 2 : 1] ?? 'auth'],
    security: operation.auth === 'none' ? [] : [{ bearerAuth: [] }],
    'x-scopes': operation.scopes,
    'x-pagination': operation.pagination,
    // Query objects are expanded into parameters, so their assumption is carried by the operation.
    ...(parameterAssumption(operation) ? { 'x-assumption': parameterAssumption(operation) } : {}),
    request: {
      ...(operation.params ? { params: operation.params } : {}),
      ...(operation.query ? { query: operation.query as never } : {}),
      ...(operation.headers ? { headers: operation.headers } : {}),
      ...(operation.body
        ? { body: { required: true, content: { 'application/json': { schema: operation.body } } } }
        : {}),
    },
    responses: responses as never,
  });
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV3['generateDocument']>;

/** The OpenAPI 3.0.3 document of the contract, generated from the zod schemas in shared/api/. */
export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  for (const operation of operationList) registerOperation(registry, operation);
  const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Commerce External API V1',
      version: contractVersion,
      license: { name: 'Proprietary' },
      description:
        'Contract of the Commerce External API V1 as the kiosk implements it: 30 operations (28 business routes, POST /auth, GET /v1/ping). Generated from the zod schemas in shared/api; do not edit by hand. Decisions on points the specification leaves "not shown" are marked `x-assumption`. `GET /health` is outside the contract.',
    },
    servers: [{ url: '{baseUrl}', variables: { baseUrl: { default: 'http://127.0.0.1:4010' } } }],
    security: [{ bearerAuth: [] }],
  });
  return nullableReferences(document);
}

/**
 * OpenAPI 3.0 cannot mark a `$ref` nullable. The generator writes `allOf: [$ref, {nullable: true}]`,
 * which validators reject (`nullable` needs a sibling `type`); rewrite it as a typed nullable object.
 */
function nullableReferences<T>(node: T): T {
  if (Array.isArray(node)) return node.map((element: unknown) => nullableReferences(element)) as T;
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>).map(([key, value]) => [
    key,
    nullableReferences(value),
  ]);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  // A loose zod object comes out as `additionalProperties: { nullable: true }`; OpenAPI means `true`.
  if (isNullableMarker(object['additionalProperties'])) object['additionalProperties'] = true;
  const allOf = object['allOf'];
  if (Array.isArray(allOf) && allOf.length === 2 && isRef(allOf[0]) && isNullableMarker(allOf[1])) {
    const { allOf: _dropped, ...rest } = object;
    return { type: 'object', nullable: true, ...rest, allOf: [allOf[0]] } as T;
  }
  return object as T;
}

const isRef = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && '$ref' in value;
const isNullableMarker = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).length === 1 &&
  (value as { nullable?: unknown }).nullable === true;
