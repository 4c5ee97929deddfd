/**
 * The service model of the standard OData v4 root, derived from the resource descriptions alone (pure): an entity type
 * and an entity set per entity and per reference kind, contained entity types for route members and rate lines, enum
 * types for enum and choice fields, and what each set allows (filter, sort, paging, writes). `$metadata` (csdl-xml.ts,
 * csdl-json.ts) and the answers' shaping are read from it, so a resource described later appears with no code of its own.
 */
import type { Field, Fields } from '../model/fields';
import type { EntityResource, LineResource, ReferenceResource } from '../model/resource';
import { AUDIT_FIELDS } from '../resources/entities/audit';

export const NAMESPACE = 'Erp';

export interface EdmProperty {
  readonly name: string;
  /** `Edm.String`, ..., or `Erp.<EnumType>`. */
  readonly type: string;
  readonly collection: boolean;
  readonly nullable: boolean;
  readonly maxLength?: number;
  readonly description?: string;
  /** Set by the server (id, audit stamps, version): clients do not write it. */
  readonly computed: boolean;
  /** An enum type's property: answers carry the member name. */
  readonly enumType?: EdmEnumType;
}

interface EdmNavigation {
  readonly name: string;
  /** The contained entity type's name (without namespace). */
  readonly type: string;
}

export interface EdmEntityType {
  readonly name: string;
  readonly key: readonly string[];
  readonly properties: readonly EdmProperty[];
  readonly navigations: readonly EdmNavigation[];
  /** Records take `custom_<name>` values, which answers carry as dynamic properties. */
  readonly openType: boolean;
}

export interface EdmEnumType {
  readonly name: string;
  readonly members: readonly { readonly name: string; readonly value: number }[];
  /** A choice field: the member name is the stored value (answers carry it as is). */
  readonly fromChoice: boolean;
}

/** What a set allows, as its capability annotations say. */
interface SetCapabilities {
  readonly filterable: boolean;
  readonly sortable: boolean;
  readonly nonFilterable: readonly string[];
  readonly nonSortable: readonly string[];
  readonly insertable: boolean;
  readonly updatable: boolean;
  readonly deletable: boolean;
  /** `Prefer: odata.track-changes` answers a delta link (entities, from the change feed). */
  readonly trackable: boolean;
}

type SetSource =
  | { readonly storage: 'entity'; readonly spec: EntityResource }
  | { readonly storage: 'reference' | 'standard'; readonly spec: ReferenceResource };

export interface EdmEntitySet {
  readonly name: string;
  readonly type: EdmEntityType;
  readonly source: SetSource;
  readonly capabilities: SetCapabilities;
}

export interface ServiceModel {
  readonly entityTypes: readonly EdmEntityType[];
  readonly enumTypes: readonly EdmEnumType[];
  readonly entitySets: readonly EdmEntitySet[];
}

/** What the model is derived from. */
interface ServiceDescriptions {
  readonly entities: readonly EntityResource[];
  readonly lines: readonly LineResource[];
  readonly kinds: readonly ReferenceResource[];
}

const EDM_TYPES = {
  string: 'Edm.String',
  int: 'Edm.Int64',
  bool: 'Edm.Boolean',
  decimal: 'Edm.Decimal',
  datetime: 'Edm.DateTimeOffset',
  guid: 'Edm.Guid',
  enum: 'Edm.Int32',
  choice: 'Edm.String',
  stringList: 'Edm.String',
} as const satisfies Record<Field['kind'], string>;

const COMPUTED_AUDIT = new Set(['createdOn', 'createdBy', 'modifiedOn', 'modifiedBy', 'version']);

function capitalize(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** `Custom attribute definition` -> `CustomAttributeDefinition`. */
function toTypeName(title: string): string {
  return title
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map(capitalize)
    .join('');
}

/** The enum type of an enum field (its EnumSpec) or a choice field (`<Type><Field>`, members numbered from 0). */
function describeEnumType(owner: string, name: string, field: Field): EdmEnumType | undefined {
  if (field.kind === 'enum' && field.enum) {
    const members = Object.entries(field.enum.members).map(([member, value]) => ({ name: member, value }));
    return { name: field.enum.name, members, fromChoice: false };
  }
  if (field.kind === 'choice' && field.choices) {
    return {
      name: `${owner}${capitalize(name)}`,
      members: field.choices.map((choice, value) => ({ name: choice, value })),
      fromChoice: true,
    };
  }
  return undefined;
}

class ModelBuilder {
  readonly enums = new Map<string, EdmEnumType>();

  property(owner: string, name: string, field: Field, computed = false): EdmProperty {
    const enumType = describeEnumType(owner, name, field);
    if (enumType && !this.enums.has(enumType.name)) this.enums.set(enumType.name, enumType);
    return {
      name,
      type: enumType ? `${NAMESPACE}.${enumType.name}` : EDM_TYPES[field.kind],
      collection: field.kind === 'stringList',
      nullable: !(field.required === true || field.defaulted === true),
      ...(field.maxLength === undefined ? {} : { maxLength: field.maxLength }),
      ...(field.description === undefined ? {} : { description: field.description }),
      computed,
      ...(enumType ? { enumType } : {}),
    };
  }

  properties(owner: string, fields: Fields): EdmProperty[] {
    return Object.entries(fields).map(([name, field]) => this.property(owner, name, field));
  }
}

const ID: EdmProperty = { name: 'id', type: 'Edm.Guid', collection: false, nullable: false, computed: true, description: 'Identifier' };

function describeEntity(builder: ModelBuilder, spec: EntityResource, lines: readonly LineResource[]): EdmEntityType {
  const name = spec.resourceName;
  const audit = Object.entries(AUDIT_FIELDS).map(([field, value]) => builder.property(name, field, value, COMPUTED_AUDIT.has(field)));
  const members = (spec.members?.lists ?? []).map((list) => ({ name: list.property, type: `${name}Member` }));
  const owned = lines
    .filter((line) => line.parent.resource === spec.name)
    .map((line) => ({ name: line.parent.property, type: line.resourceName }));
  return {
    name,
    key: spec.key,
    properties: [ID, ...builder.properties(name, spec.fields), ...audit],
    navigations: [...members, ...owned],
    openType: spec.customAttributes,
  };
}

/** A member of an entity's member list, as reads list it: `{id, key, description}` (key unique within its list). */
function describeMember(owner: EntityResource): EdmEntityType {
  const text = (name: string, description: string): EdmProperty => ({
    name,
    type: 'Edm.String',
    collection: false,
    nullable: false,
    computed: false,
    description,
  });
  return {
    name: `${owner.resourceName}Member`,
    key: ['key'],
    properties: [
      { ...ID, description: 'Identifier of the member record' },
      text('key', 'Key of the member record'),
      text('description', 'Its description'),
    ],
    navigations: [],
    openType: false,
  };
}

function describeLine(builder: ModelBuilder, line: LineResource): EdmEntityType {
  return {
    name: line.resourceName,
    key: line.key,
    properties: [ID, ...builder.properties(line.resourceName, line.fields)],
    navigations: [],
    openType: line.customAttributes,
  };
}

function describeKind(builder: ModelBuilder, kind: ReferenceResource): EdmEntityType {
  const name = toTypeName(kind.title);
  const key: EdmProperty = {
    name: 'key',
    type: 'Edm.String',
    collection: false,
    nullable: false,
    computed: false,
    description: kind.keyDescription ?? 'Natural key',
  };
  return { name, key: ['key'], properties: [ID, key, ...builder.properties(name, kind.fields)], navigations: [], openType: false };
}

function entityCapabilities(spec: EntityResource): SetCapabilities {
  const hidden = Object.entries(spec.fields)
    .filter(([, field]) => field.notQueryable || field.kind === 'stringList')
    .map(([name]) => name);
  return {
    filterable: true,
    sortable: true,
    nonFilterable: hidden,
    nonSortable: hidden,
    insertable: true,
    updatable: true,
    deletable: true,
    trackable: true,
  };
}

function referenceCapabilities(kind: ReferenceResource): SetCapabilities {
  const writable = kind.storage === 'reference';
  return {
    filterable: false,
    sortable: false,
    nonFilterable: [],
    nonSortable: [],
    insertable: false,
    updatable: writable,
    deletable: writable,
    trackable: writable,
  };
}

/** The service model of these descriptions. */
export function buildServiceModel(descriptions: ServiceDescriptions): ServiceModel {
  const builder = new ModelBuilder();
  const entityTypes: EdmEntityType[] = [];
  const entitySets: EdmEntitySet[] = [];
  for (const spec of descriptions.entities) {
    const type = describeEntity(builder, spec, descriptions.lines);
    entityTypes.push(type);
    if (spec.members) entityTypes.push(describeMember(spec));
    entitySets.push({ name: spec.name, type, source: { storage: 'entity', spec }, capabilities: entityCapabilities(spec) });
  }
  for (const line of descriptions.lines) entityTypes.push(describeLine(builder, line));
  for (const kind of descriptions.kinds) {
    const type = describeKind(builder, kind);
    entityTypes.push(type);
    entitySets.push({ name: kind.name, type, source: { storage: kind.storage, spec: kind }, capabilities: referenceCapabilities(kind) });
  }
  return { entityTypes, enumTypes: [...builder.enums.values()], entitySets };
}

/** The entity type named `name` (a navigation's target). */
export function findEntityType(model: ServiceModel, name: string): EdmEntityType | undefined {
  return model.entityTypes.find((type) => type.name === name);
}
