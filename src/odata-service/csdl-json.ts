/** `$metadata` as CSDL JSON (OData CSDL JSON, `$Version` 4.0), written from the service model (pure). */
import type { EdmEntitySet, EdmEntityType, EdmEnumType, EdmProperty, ServiceModel } from './model';
import { NAMESPACE } from './model';

type Json = Readonly<Record<string, unknown>>;

const CAPABILITIES_JSON = 'https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Capabilities.V1.json';
const CORE_JSON = 'https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Core.V1.json';

function writeProperty(property: EdmProperty): Json {
  return {
    ...(property.type === 'Edm.String' ? {} : { $Type: property.type }),
    ...(property.collection ? { $Collection: true } : {}),
    ...(property.nullable ? { $Nullable: true } : {}),
    ...(property.maxLength === undefined ? {} : { $MaxLength: property.maxLength }),
    ...(property.type === 'Edm.Decimal' ? { $Scale: 'variable' } : {}),
    ...(property.description === undefined ? {} : { '@Core.Description': property.description }),
    ...(property.computed ? { '@Core.Computed': true } : {}),
  };
}

function writeEntityType(type: EdmEntityType): Json {
  return {
    $Kind: 'EntityType',
    ...(type.openType ? { $OpenType: true } : {}),
    $Key: type.key,
    ...Object.fromEntries(type.properties.map((property) => [property.name, writeProperty(property)])),
    ...Object.fromEntries(
      type.navigations.map((navigation) => [
        navigation.name,
        { $Kind: 'NavigationProperty', $Type: `${NAMESPACE}.${navigation.type}`, $Collection: true, $ContainsTarget: true },
      ]),
    ),
  };
}

function writeEnumType(type: EdmEnumType): Json {
  return { $Kind: 'EnumType', ...Object.fromEntries(type.members.map((member) => [member.name, member.value])) };
}

const paths = (names: readonly string[]) => names.map((name) => ({ $PropertyPath: name }));

function writeEntitySet(set: EdmEntitySet): Json {
  const { capabilities: caps, type } = set;
  return {
    $Collection: true,
    $Type: `${NAMESPACE}.${type.name}`,
    '@Capabilities.FilterRestrictions': {
      Filterable: caps.filterable,
      NonFilterableProperties: paths(caps.nonFilterable),
    },
    '@Capabilities.SortRestrictions': { Sortable: caps.sortable, NonSortableProperties: paths(caps.nonSortable) },
    '@Capabilities.TopSupported': true,
    '@Capabilities.SkipSupported': true,
    '@Capabilities.CountRestrictions': { Countable: true },
    '@Capabilities.ExpandRestrictions': { Expandable: type.navigations.length > 0 },
    '@Capabilities.InsertRestrictions': { Insertable: caps.insertable },
    '@Capabilities.UpdateRestrictions': { Updatable: caps.updatable },
    '@Capabilities.DeleteRestrictions': { Deletable: caps.deletable },
    '@Capabilities.ChangeTracking': { Supported: caps.trackable },
    ...(set.source.storage === 'entity' ? { '@Core.OptimisticConcurrency': [{ $PropertyPath: 'version' }] } : {}),
  };
}

/** The whole `$metadata` document as CSDL JSON. */
export function writeCsdlJson(model: ServiceModel): Json {
  return {
    $Version: '4.0',
    $EntityContainer: `${NAMESPACE}.Container`,
    $Reference: {
      [CAPABILITIES_JSON]: { $Include: [{ $Namespace: 'Org.OData.Capabilities.V1', $Alias: 'Capabilities' }] },
      [CORE_JSON]: { $Include: [{ $Namespace: 'Org.OData.Core.V1', $Alias: 'Core' }] },
    },
    [NAMESPACE]: {
      ...Object.fromEntries(model.enumTypes.map((type) => [type.name, writeEnumType(type)])),
      ...Object.fromEntries(model.entityTypes.map((type) => [type.name, writeEntityType(type)])),
      Container: { $Kind: 'EntityContainer', ...Object.fromEntries(model.entitySets.map((set) => [set.name, writeEntitySet(set)])) },
    },
  };
}
