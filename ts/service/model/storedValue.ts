/**
 * Decoding and encoding a stored value (a database column, a jsonb document) with its model schema:
 * once, where the row is read. A value that does not match its schema is a `StoredValueInvalidError`
 * naming the table, the column and the first offending field — never a crash deep in the solver.
 */
import type { TSchema, StaticDecode, StaticEncode } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import { ServiceError } from "../errors/serviceError.ts";

const compiled = new WeakMap<TSchema, Validator>();

function validator(schema: TSchema): Validator {
  let v = compiled.get(schema);
  if (!v) {
    v = Compile(schema) as unknown as Validator;
    compiled.set(schema, v);
  }
  return v;
}

/** `where` names the value, e.g. `requests.solver_state`; `id` the row (a requestId), for the message. */
export function decodeStored<S extends TSchema>(schema: S, value: unknown, where: string, id: string): StaticDecode<S> {
  const v = validator(schema);
  if (!v.Check(value)) {
    const first = v.Errors(value)[0];
    const field = first?.instancePath ? first.instancePath.slice(1).replaceAll("/", ".") : "";
    throw new StoredValueInvalidError(where, id, field, first?.message ?? "does not match its schema");
  }
  try {
    return v.Decode(value) as StaticDecode<S>;
  } catch (cause) {
    throw new StoredValueInvalidError(where, id, "", (cause as Error).message, cause);
  }
}

/** The stored (JSON) form of a decoded value. */
export function encodeStored<S extends TSchema>(schema: S, value: StaticDecode<S>): StaticEncode<S> {
  return validator(schema).Encode(value) as StaticEncode<S>;
}

export class StoredValueInvalidError extends ServiceError {
  readonly where: string;
  readonly id: string;
  readonly field: string;
  constructor(where: string, id: string, field: string, problem: string, cause?: unknown) {
    super("STORED_VALUE_INVALID", `${where} of ${id}: ${field ? `${field} ` : ""}${problem}`, cause === undefined ? {} : { cause });
    this.where = where;
    this.id = id;
    this.field = field;
  }
}
