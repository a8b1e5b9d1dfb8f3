import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dereference } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';
import { BoundedFileError, readBoundedFile, sizeText } from '../profile/index.ts';

/**
 * The vendor's OpenAPI document as `contract import` reads it: a hostile one (a YAML alias bomb,
 * a `$ref` to /etc/hostname or to a credentials file, a remote `$ref`, nesting deep enough to
 * overflow a stack) is refused with a typed error, never followed. The file is read bounded, YAML
 * is parsed with alias expansion limited (the `yaml` package's `maxAliasCount`), and `$ref`s
 * resolve inside the document only (`#/...`); with `allowLocalRefs`, also to files in the
 * document's own directory (and below), read the same way. Nothing is ever fetched.
 */

/** The largest vendor documents seen are a few MiB of JSON; ten times the committed one's. */
export const MAX_CONTRACT_DOCUMENT_BYTES = 8 * 1024 * 1024;
/** Objects and arrays inside one another: OpenAPI documents stay under 30. */
export const MAX_DOCUMENT_DEPTH = 64;
/** A `$ref` whose target is itself a `$ref`, and so on. */
export const MAX_REF_CHAIN = 16;
/** YAML aliases expanded (the `yaml` package's own default, stated). */
export const MAX_YAML_ALIASES = 100;
/** A backstop for dereferencing, whatever the document: it takes milliseconds. */
const DEREFERENCE_TIMEOUT_MS = 10_000;

export class ContractDocumentError extends Error {
  override readonly name = 'ContractDocumentError';
  readonly code = 'CONTRACT_DOCUMENT_INVALID';
  constructor(source: string, reason: string) {
    super(`CONTRACT_DOCUMENT_INVALID: ${source}: ${reason}`);
  }
}

export interface ReadDocumentOptions {
  /** Follow `$ref`s to files in the document's directory (`--allow-local-refs`). */
  readonly allowLocalRefs?: boolean;
}

/** The document, parsed and dereferenced; or a ContractDocumentError naming the rule broken. */
export async function readVendorDocument(
  source: string,
  options: ReadDocumentOptions = {},
): Promise<unknown> {
  const document = await parseFile(source, source);
  const refs = inspect(document, source);
  const external = refs.filter((ref) => !ref.startsWith('#'));
  for (const ref of external) {
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(ref) && !/^file:/i.test(ref))
      throw new ContractDocumentError(
        source,
        `$ref ${quoted(ref)} is remote: contract import fetches nothing (copy what it names into the document)`,
      );
    if (options.allowLocalRefs !== true)
      throw new ContractDocumentError(
        source,
        `$ref ${quoted(ref)} points outside the document: only references inside it (#/...) are followed; --allow-local-refs follows files beside it`,
      );
  }
  checkRefChains(document, refs, source);
  // The parser wraps what its resolver throws in a message of its own: the refusal is kept here.
  let refusal: ContractDocumentError | undefined;
  try {
    if (external.length === 0) {
      return await dereference(document as never, {
        resolve: { external: false },
        timeoutMs: DEREFERENCE_TIMEOUT_MS,
      });
    }
    const root = realpathSync(resolve(source));
    return await dereference(root, {
      resolve: {
        file: besideResolver(source, dirname(root), (error) => (refusal = error)),
        // Never the network, whatever a referenced file says.
        http: { canRead: () => false },
        external: true,
      },
      timeoutMs: DEREFERENCE_TIMEOUT_MS,
    } as never);
  } catch (error) {
    if (refusal !== undefined) throw refusal;
    if (error instanceof ContractDocumentError) throw error;
    throw new ContractDocumentError(source, refusalOf(error));
  }
}

/** The resolver of `--allow-local-refs`: files under the document's directory, read bounded. */
function besideResolver(
  source: string,
  directory: string,
  refused: (error: ContractDocumentError) => void,
) {
  const refuse = (reason: string): never => {
    const error = new ContractDocumentError(source, reason);
    refused(error);
    throw error;
  };
  return {
    order: 1,
    canRead: true,
    async read(file: { url: string }) {
      try {
        return await readBeside(file);
      } catch (error) {
        if (error instanceof ContractDocumentError) {
          refused(error);
          throw error;
        }
        throw error;
      }
    },
  };

  async function readBeside(file: { url: string }): Promise<unknown> {
    const path = resolve(pathOfUrl(file.url));
    const outside = () =>
      refuse(`$ref names ${quoted(path)}, outside the document's directory: not read`);
    // As written first (nothing outside is even looked at), then as it resolves (a symbolic link).
    if (!isWithin(directory, path)) return outside();
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return refuse(`$ref names ${quoted(path)}: no such file`);
    }
    if (!isWithin(directory, real)) return outside();
    const parsed = await parseFile(real, source);
    inspect(parsed, source);
    return parsed;
  }
}

function isWithin(directory: string, path: string): boolean {
  const inside = relative(directory, path);
  return !(inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside));
}

function pathOfUrl(url: string): string {
  if (/^file:/i.test(url)) return fileURLToPath(url);
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

async function parseFile(path: string, source: string): Promise<unknown> {
  let text: string;
  try {
    const bytes = await readBoundedFile(path, MAX_CONTRACT_DOCUMENT_BYTES);
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    if (error instanceof BoundedFileError)
      throw new ContractDocumentError(
        source,
        error.failure === 'TOO_LARGE'
          ? `${path === source ? '' : `${path}: `}larger than ${sizeText(MAX_CONTRACT_DOCUMENT_BYTES)}: not a contract document`
          : `${path === source ? '' : `${path}: `}${error.reason}`,
      );
    throw new ContractDocumentError(source, 'not UTF-8 text');
  }
  const where = path === source ? '' : `${path}: `;
  // JSON is YAML too, but JSON.parse is quicker on a big document.
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Its message quotes the text; YAML below says where it stopped.
    }
  }
  try {
    return parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, prettyErrors: false }) as unknown;
  } catch (error) {
    if (error instanceof ReferenceError)
      throw new ContractDocumentError(
        source,
        `${where}more than ${MAX_YAML_ALIASES} YAML aliases expanded: refused (an alias bomb)`,
      );
    // The parser's message quotes the line: only the rule and the place are said.
    const { code, linePos } = error as {
      code?: unknown;
      linePos?: { line: number; col: number }[];
    };
    const place =
      linePos?.[0] === undefined ? '' : ` at line ${linePos[0].line}, column ${linePos[0].col}`;
    throw new ContractDocumentError(
      source,
      `${where}neither JSON nor YAML (${typeof code === 'string' ? code : 'a syntax error'}${place})`,
    );
  }
}

/** Every `$ref` of the document; refuses nesting deeper than MAX_DOCUMENT_DEPTH. */
function inspect(document: unknown, source: string): string[] {
  const refs: string[] = [];
  const seen = new Set<object>();
  const stack: [unknown, number][] = [[document, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (depth > MAX_DOCUMENT_DEPTH)
      throw new ContractDocumentError(
        source,
        `nested deeper than ${MAX_DOCUMENT_DEPTH} levels: not a contract document`,
      );
    if (!Array.isArray(node)) {
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === 'string') refs.push(ref);
    }
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return refs;
}

/** Refuses a chain of `$ref`s to `$ref`s longer than MAX_REF_CHAIN (a missing target is the parser's). */
function checkRefChains(document: unknown, refs: readonly string[], source: string): void {
  for (const start of new Set(refs.filter((ref) => ref.startsWith('#')))) {
    let ref: string | undefined = start;
    for (let hops = 0; ref !== undefined; hops++) {
      if (hops >= MAX_REF_CHAIN)
        throw new ContractDocumentError(
          source,
          `$ref ${quoted(start)} leads through more than ${MAX_REF_CHAIN} references: refused`,
        );
      const target = pointerTarget(document, ref);
      const next = (target as { $ref?: unknown } | undefined)?.$ref;
      ref = typeof next === 'string' && next.startsWith('#') ? next : undefined;
    }
  }
}

/** The value a `#/a/b~1c` pointer names in the document, if any. */
function pointerTarget(document: unknown, ref: string): unknown {
  let node = document;
  const pointer = ref.slice(1);
  if (pointer === '') return node;
  for (const raw of pointer.split('/').slice(1)) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment))
      return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function quoted(ref: string): string {
  return JSON.stringify(ref.length > 120 ? `${ref.slice(0, 120)}…` : ref);
}

function refusalOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The parser's messages name pointers and files, not content; one line is enough.
  return message.split('\n')[0]!.slice(0, 300);
}
