/**
 * Bodies and queries for the API's endpoints made from each endpoint's own zod schema, with a
 * payload in their strings: the security suites send them to every endpoint of the registry.
 */
import { z } from "zod";

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
};

/** A value of `schema` with the payload in its strings: every string (`all`), or only free text (the others valid, to reach the handler). */
export function fill(schema: JsonSchema, payload: string, all: boolean, depth = 0): unknown {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fill(options.find((option) => option.type !== "null") ?? options[0]!, payload, all, depth);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return all ? payload : schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== "null") : schema.type;
  if (type === "string") {
    if (all || (!schema.format && !schema.pattern)) return payload;
    return (
      { email: "maria@example.it", date: "2030-06-01", uuid: "00000000-0000-4000-8000-000000000000", "date-time": "2030-06-01T10:00:00Z" }[
        schema.format ?? ""
      ] ?? payload
    );
  }
  if (type === "number" || type === "integer") return 1;
  if (type === "boolean") return true;
  if (type === "array") return depth > 4 || !schema.items ? [] : [fill(schema.items, payload, all, depth + 1)];
  if (type === "object" || schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, inner]) => [name, depth > 4 ? payload : fill(inner, payload, all, depth + 1)]),
    );
  }
  return payload;
}

export const jsonSchemaOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
