/**
 * Entities are resources of storage `entity` (src/model/resource.ts): described once, as data. Routes, valibot
 * schemas, the OData allow-list, the SQL table and the OpenAPI description are derived from the description.
 */
import type { Field, Fields } from '../../model/fields';
import type { EntityResource, MemberList, Members } from '../../model/resource';

export type FieldSpec = Field;
export type FieldSpecs = Fields;
export type MemberTableSpec = MemberList;
export type MembersSpec = Members;
export type EntitySpec = EntityResource;

/** Field values of a record, by field name. */
export type Values = Record<string, unknown>;

/**
 * What the input of a description is parsed with (entities, rate lines, an operation's described inputs): its fields,
 * its title, whether it takes custom attribute values.
 */
export interface InputDescription {
  readonly title: string;
  readonly fields: FieldSpecs;
  readonly customAttributes: boolean;
}

/** The field of `spec` named `name`, if it has one (for names that come from requests). */
export function findField(spec: { readonly fields: FieldSpecs }, name: string): FieldSpec | undefined {
  return Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined;
}
