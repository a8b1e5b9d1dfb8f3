import { z } from 'zod';

/**
 * The spec's error table: the eight stable codes, their HTTP status and generic label.
 * Codes other than these exist ("not shown"), so a parsed error keeps any code as a string.
 */
export const errorTable = {
  INVALID_REQUEST: { status: 400, label: 'Request Error' },
  UNAUTHORIZED: { status: 401, label: 'Request Error' },
  FORBIDDEN: { status: 403, label: 'Request Error' },
  RESOURCE_NOT_FOUND: { status: 404, label: 'Request Error' },
  CONFLICT: { status: 409, label: 'Request Error' },
  RATE_LIMITED: { status: 429, label: 'Request Error' },
  INTERNAL_SERVER_ERROR: { status: 500, label: 'Internal Server Error' },
  SERVICE_UNAVAILABLE: { status: 503, label: 'Internal Server Error' },
} as const;

export type ErrorCode = keyof typeof errorTable;
export type ErrorStatus = (typeof errorTable)[ErrorCode]['status'];

export const errorCodeByStatus: Readonly<Record<ErrorStatus, ErrorCode>> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'RESOURCE_NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** A stable code is upper snake case; `message` starts with it, then ": ". */
const stableCodePrefix = /^([A-Z][A-Z0-9_]*): /;

/** The error object (ApiError). Additional properties are allowed, so the object is loose. */
export const ApiError = z
  .looseObject({
    message: z.string(),
    statusCode: z.number().int().optional(),
    code: z.union([z.string(), z.number().int()]).optional(),
    error: z.string().optional(),
    missingScopes: z.array(z.string()).optional(),
  })
  .meta({
    id: 'ApiError',
    description:
      'Error object. Business errors begin `message` with the stable code, a colon and a space.',
  });
export type ApiError = z.infer<typeof ApiError>;

/** Splits `CODE: explanation`; a message without a stable code keeps it whole as the explanation. */
export function parseErrorMessage(message: string): {
  code: string | undefined;
  explanation: string;
} {
  const match = stableCodePrefix.exec(message);
  if (!match?.[1]) return { code: undefined, explanation: message };
  return { code: match[1], explanation: message.slice(match[0].length) };
}

/** Builds the error body the service sends for a code of the table. */
export function errorBody(
  code: ErrorCode,
  explanation: string,
  extra: Record<string, unknown> = {},
): ApiError {
  const { status, label } = errorTable[code];
  return { message: `${code}: ${explanation}`, statusCode: status, code, error: label, ...extra };
}
