/**
 * Typed answers: a route documents its answer schema per status (the valibot schema the OpenAPI document is built
 * from), and its handler may only answer what those schemas describe (src/http/responses.ts builds every answer).
 */
import type { GenericSchema, InferOutput } from 'valibot';

declare const ANSWER: unique symbol;

/** A Response built by src/http/responses.ts (the only place that serializes answers). */
export interface Answered extends Response {
  readonly [ANSWER]: unknown;
}

/** A Response of `Status` whose JSON body is `Body` (null: no body). Invariant in `Body`: answers match exactly. */
export interface Answer<Status extends number, Body> extends Answered {
  readonly [ANSWER]: { readonly status: Status; readonly body: (body: Body) => Body };
}

/** Statuses a handler answers (errors are thrown as ApiError and documented apart); 101: a WebSocket upgrade. */
type SuccessStatus = 101 | 200 | 201 | 202 | 204;

/** A schema an answer is typed by. */
export type AnswerSchema = GenericSchema<unknown, unknown>;

type KeysOf<T> = T extends unknown ? keyof T : never;
type ValueOf<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
type ExcessOfObject<T, B> = { [K in keyof B]: K extends KeysOf<T> ? Excess<ValueOf<T, K>, B[K]> : never };

/**
 * `B` with every property that `T` does not have (at any depth) typed `never`: `B & Excess<T, B>` accepts a value of
 * type `B` only when it has no property outside `T`, even when it is not a fresh object literal.
 */
type Excess<T, B> = unknown extends T
  ? B
  : B extends readonly (infer Item)[]
    ? readonly Excess<NonNullable<T> extends readonly (infer Allowed)[] ? Allowed : never, Item>[]
    : B extends object
      ? ExcessOfObject<Exclude<NonNullable<T>, readonly unknown[]>, B>
      : B;

/** The body a schema answers; `B` (what the handler gives) must have nothing more. */
export type ExactBody<S extends AnswerSchema, B> = B & Excess<InferOutput<S>, B>;

/** A response doc as far as typing goes: the schema of its body, if any. */
interface TypedResponseDoc {
  readonly description: string;
  readonly schema?: unknown;
}

/**
 * What a route documenting `R` (responses by status) may answer: a status documenting a schema answers exactly its
 * output (an error status only when it documents a body of its own, as the OAuth2 token endpoint's); a success status
 * documenting no schema answers an empty body. Other errors are thrown as ApiError (problem+json).
 */
export type AnswerOf<R> = {
  [K in keyof R]: K extends number
    ? R[K] extends { readonly schema: infer S }
      ? S extends AnswerSchema
        ? Answer<K, InferOutput<S>>
        : never
      : K extends SuccessStatus
        ? Answer<K, null>
        : never
    : never;
}[keyof R];

/** Responses by status, as routes document them. */
export type ResponseDocs = Readonly<Record<number, TypedResponseDoc>>;
