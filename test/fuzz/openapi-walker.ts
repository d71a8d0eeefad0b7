// Reads the OpenAPI document the API serves into the list of operations the fuzzer drives: each with
// its parameters, its request body (schema and media types), the media types and schemas of its
// answers, and its targets: every parameter, every body field (nested ones too) and the parts of a
// request that are not fields (credentials, Content-Type, headers, method, path, query, body shape).
// $refs are inlined, so the generators see plain schemas.

export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  example?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  description?: string;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Answer {
  contentTypes: string[];
  /** The schema of its JSON media type, if it has one. */
  schema?: Schema;
}

export interface Operation {
  id: string;
  method: string;
  /** The OpenAPI path template: /v1/articles/{id}. */
  path: string;
  parameters: Parameter[];
  body?: { contentTypes: string[]; schema: Schema; required: boolean };
  /** False when the operation takes no credential (OAuth, signed audio URLs, the public documents). */
  authenticated: boolean;
  /** Answers by status ("200", "4XX"…). */
  answers: Record<string, Answer>;
  /** What a request can aim a mutation at: `query:limit`, `body:filter.words`, `auth`, `content-type`… */
  targets: string[];
}

export type OpenApiDocument = {
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, Schema> };
};

interface RawOperation {
  operationId?: string;
  parameters?: (Parameter & { $ref?: string })[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  security?: Record<string, string[]>[];
}

const methods = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** Request parts that are not fields of the operation; every operation has them. */
export const requestTargets = [
  'valid',
  'auth',
  'content-type',
  'headers',
  'method',
  'path',
  'query',
] as const;

export function walkOpenApi(document: OpenApiDocument): Operation[] {
  const resolve = refResolver(document);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!methods.includes(method)) continue;
      const parameters = (raw.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required === true || p.in === 'path',
        schema: resolve(p.schema ?? {}),
      }));
      const content = raw.requestBody?.content ?? {};
      const bodyTypes = Object.keys(content);
      const body = bodyTypes.length
        ? {
            contentTypes: bodyTypes,
            schema: resolve(content['application/json']?.schema ?? content[bodyTypes[0]!]?.schema ?? {}),
            required: raw.requestBody?.required === true,
          }
        : undefined;
      const answers: Record<string, Answer> = {};
      for (const [status, response] of Object.entries(raw.responses ?? {})) {
        const types = Object.keys(response.content ?? {});
        const json = types.find((t) => t.startsWith('application/json'));
        const schema = json ? response.content![json]!.schema : undefined;
        answers[status] = { contentTypes: types, ...(schema ? { schema: resolve(schema) } : {}) };
      }
      const security = raw.security ?? [];
      const authenticated = security.length > 0 && !security.some((s) => Object.keys(s).length === 0);
      const operation: Operation = {
        id: raw.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters,
        ...(body ? { body } : {}),
        authenticated: authenticated && !security.some((s) => 'clientBasic' in s),
        answers,
        targets: [],
      };
      operation.targets = [
        ...requestTargets,
        ...parameters.map((p) => `${p.in}:${p.name}`),
        ...(body ? ['body', ...bodyFields(body.schema).map((f) => `body:${f}`)] : []),
      ];
      operations.push(operation);
    }
  }
  return operations;
}

/** Dotted paths of an object schema's fields, nested objects' fields included (two levels down). */
export function bodyFields(schema: Schema, prefix = '', depth = 0): string[] {
  const fields: string[] = [];
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    fields.push(path);
    if (depth < 2 && field.properties) fields.push(...bodyFields(field, `${path}.`, depth + 1));
  }
  return fields;
}

/** The schema at a dotted field path of an object schema. */
export function fieldSchema(schema: Schema, path: string): Schema | undefined {
  let at: Schema | undefined = schema;
  for (const name of path.split('.')) at = at?.properties?.[name];
  return at;
}

function refResolver(document: OpenApiDocument) {
  const components = document.components?.schemas ?? {};
  const resolve = (schema: Schema, seen: readonly string[] = []): Schema => {
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      if (seen.includes(name)) return {};
      return resolve(components[name] ?? {}, [...seen, name]);
    }
    const out: Schema = { ...schema };
    if (schema.properties)
      out.properties = Object.fromEntries(
        Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, seen)]),
      );
    if (schema.items) out.items = resolve(schema.items, seen);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      if (schema[key]) out[key] = schema[key].map((s) => resolve(s, seen));
    }
    return out;
  };
  return resolve;
}
