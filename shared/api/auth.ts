import { z } from 'zod';

export const AuthRequest = z
  .strictObject({ email: z.string().min(1), password: z.string().min(1) })
  .meta({ id: 'AuthRequest' });
export type AuthRequest = z.infer<typeof AuthRequest>;

export const AuthReply = z.object({ token: z.string().min(1) }).meta({
  id: 'AuthReply',
  'x-assumption':
    'Only token is shown. Other fields are tolerated and ignored; the lifetime is read from the JWT exp claim when present.',
});
export type AuthReply = z.infer<typeof AuthReply>;

export const Ping = z.object({ version: z.string() }).meta({
  id: 'Ping',
  'x-assumption': 'The body is not shown; we assume the V1 API version as a string, e.g. 1.0.0.',
});
export type Ping = z.infer<typeof Ping>;

/** `GET /health`: outside the contract, no business data. */
export const Health = z.object({ status: z.enum(['ok']) });
export type Health = z.infer<typeof Health>;
