import type { Operation, ScopeTrigger } from '../../shared/api/operation.ts';
import type { Scope } from '../../shared/api/scopes.ts';
import { forbidden } from './errors.ts';

/**
 * The scope rules of an operation, enforced as the contract table states them. The account's
 * scopes are read on every request (the caller passes the current set), so a scope removed
 * mid-session takes effect at once.
 */

/** `all` and `anyOf`: they do not depend on the request, so they are checked before validation. */
export function checkBaseScopes(operation: Operation, granted: ReadonlySet<Scope>): void {
  const missing = operation.scopes.all.filter((scope) => !granted.has(scope));
  if (missing.length > 0)
    throw forbidden(missing, `${operation.operationId} needs ${operation.scopes.all.join(', ')}`);
  const anyOf = operation.scopes.anyOf;
  if (anyOf && anyOf.length > 0 && !anyOf.some((scope) => granted.has(scope))) {
    throw forbidden(anyOf, `${operation.operationId} needs at least one of ${anyOf.join(', ')}`);
  }
}

function listIncludes(value: string | undefined, values: readonly string[]): boolean {
  if (value === undefined) return false;
  const elements = value.split(',');
  return values.some((wanted) => elements.includes(wanted));
}

/** Whether a conditional rule applies to this (already validated) query. */
export function triggered(trigger: ScopeTrigger, query: Readonly<Record<string, string>>): boolean {
  if ('always' in trigger) return true;
  if ('queryPresent' in trigger) return query[trigger.queryPresent] !== undefined;
  if ('queryEquals' in trigger)
    return query[trigger.queryEquals.param] === trigger.queryEquals.value;
  if ('queryIncludes' in trigger)
    return listIncludes(query[trigger.queryIncludes.param], trigger.queryIncludes.values);
  const { param, values } = trigger.queryAbsentOrIncludes;
  return query[param] === undefined || listIncludes(query[param], values);
}

/**
 * The conditional rules: a triggered `forbid` rule whose scopes are missing refuses the request
 * with 403 and the missing scopes; a triggered `omit` rule returns its block, to be left out of the
 * reply. Every forbidding rule is checked so the 403 lists all the scopes missing at once.
 */
export function conditionalBlocks(
  operation: Operation,
  granted: ReadonlySet<Scope>,
  query: Readonly<Record<string, string>>,
): ReadonlySet<string> {
  const omit = new Set<string>();
  const missing: Scope[] = [];
  const reasons: string[] = [];
  for (const rule of operation.scopes.conditional ?? []) {
    if (!triggered(rule.when, query)) continue;
    const absent = rule.scopes.filter((scope) => !granted.has(scope));
    if (absent.length === 0) continue;
    if (rule.effect === 'forbid') {
      missing.push(...absent);
      reasons.push(rule.note);
    } else if (rule.block !== undefined) {
      omit.add(rule.block);
    }
  }
  if (missing.length > 0) throw forbidden(missing, reasons.join('; '));
  return omit;
}
