/** `$metadata` as CSDL XML (OData v4.0), written from the service model (pure). */
import type { EdmEntitySet, EdmEntityType, EdmEnumType, EdmProperty, ServiceModel } from './model';
import { NAMESPACE } from './model';

const CAPABILITIES_XML = 'https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Capabilities.V1.xml';
const CORE_XML = 'https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Core.V1.xml';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function describeAnnotation(description: string | undefined, indent: string): string[] {
  return description === undefined ? [] : [`${indent}<Annotation Term="Core.Description" String="${escapeXml(description)}"/>`];
}

function writeProperty(property: EdmProperty): string[] {
  const type = property.collection ? `Collection(${property.type})` : property.type;
  const attributes = [
    `Name="${property.name}"`,
    `Type="${type}"`,
    ...(property.nullable ? [] : ['Nullable="false"']),
    ...(property.maxLength === undefined ? [] : [`MaxLength="${property.maxLength}"`]),
    ...(property.type === 'Edm.Decimal' ? ['Scale="variable"'] : []),
  ].join(' ');
  const annotations = [
    ...describeAnnotation(property.description, '        '),
    ...(property.computed ? ['        <Annotation Term="Core.Computed" Bool="true"/>'] : []),
  ];
  if (annotations.length === 0) return [`      <Property ${attributes}/>`];
  return [`      <Property ${attributes}>`, ...annotations, '      </Property>'];
}

function writeEntityType(type: EdmEntityType): string[] {
  return [
    `    <EntityType Name="${type.name}"${type.openType ? ' OpenType="true"' : ''}>`,
    '      <Key>',
    ...type.key.map((name) => `        <PropertyRef Name="${name}"/>`),
    '      </Key>',
    ...type.properties.flatMap(writeProperty),
    ...type.navigations.map(
      (navigation) =>
        `      <NavigationProperty Name="${navigation.name}" Type="Collection(${NAMESPACE}.${navigation.type})" ContainsTarget="true"/>`,
    ),
    '    </EntityType>',
  ];
}

function writeEnumType(type: EdmEnumType): string[] {
  return [
    `    <EnumType Name="${type.name}">`,
    ...type.members.map((member) => `      <Member Name="${escapeXml(member.name)}" Value="${member.value}"/>`),
    '    </EnumType>',
  ];
}

function writePaths(property: string, paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  return [
    `            <PropertyValue Property="${property}">`,
    '              <Collection>',
    ...paths.map((path) => `                <PropertyPath>${path}</PropertyPath>`),
    '              </Collection>',
    '            </PropertyValue>',
  ];
}

function writeRecord(term: string, values: string[]): string[] {
  return [
    `        <Annotation Term="Capabilities.${term}">`,
    '          <Record>',
    ...values,
    '          </Record>',
    '        </Annotation>',
  ];
}

function boolValue(property: string, value: boolean): string {
  return `            <PropertyValue Property="${property}" Bool="${value}"/>`;
}

function writeEntitySet(set: EdmEntitySet): string[] {
  const { capabilities: caps, type } = set;
  const paged = set.source.storage === 'entity';
  return [
    `      <EntitySet Name="${set.name}" EntityType="${NAMESPACE}.${type.name}">`,
    ...writeRecord('FilterRestrictions', [
      boolValue('Filterable', caps.filterable),
      ...writePaths('NonFilterableProperties', caps.nonFilterable),
    ]),
    ...writeRecord('SortRestrictions', [boolValue('Sortable', caps.sortable), ...writePaths('NonSortableProperties', caps.nonSortable)]),
    `        <Annotation Term="Capabilities.TopSupported" Bool="true"/>`,
    `        <Annotation Term="Capabilities.SkipSupported" Bool="true"/>`,
    ...writeRecord('CountRestrictions', [boolValue('Countable', true)]),
    ...writeRecord('ExpandRestrictions', [boolValue('Expandable', type.navigations.length > 0)]),
    ...writeRecord('InsertRestrictions', [boolValue('Insertable', caps.insertable)]),
    ...writeRecord('UpdateRestrictions', [boolValue('Updatable', caps.updatable)]),
    ...writeRecord('DeleteRestrictions', [boolValue('Deletable', caps.deletable)]),
    ...writeRecord('ChangeTracking', [boolValue('Supported', caps.trackable)]),
    ...(paged
      ? [
          '        <Annotation Term="Core.OptimisticConcurrency">',
          '          <Collection>',
          '            <PropertyPath>version</PropertyPath>',
          '          </Collection>',
          '        </Annotation>',
        ]
      : []),
    '      </EntitySet>',
  ];
}

/** The whole `$metadata` document. */
export function writeCsdlXml(model: ServiceModel): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">',
    `  <edmx:Reference Uri="${CAPABILITIES_XML}">`,
    '    <edmx:Include Namespace="Org.OData.Capabilities.V1" Alias="Capabilities"/>',
    '  </edmx:Reference>',
    `  <edmx:Reference Uri="${CORE_XML}">`,
    '    <edmx:Include Namespace="Org.OData.Core.V1" Alias="Core"/>',
    '  </edmx:Reference>',
    '  <edmx:DataServices>',
    `  <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="${NAMESPACE}">`,
    ...model.enumTypes.flatMap(writeEnumType),
    ...model.entityTypes.flatMap(writeEntityType),
    '    <EntityContainer Name="Container">',
    ...model.entitySets.flatMap(writeEntitySet),
    '    </EntityContainer>',
    '  </Schema>',
    '  </edmx:DataServices>',
    '</edmx:Edmx>',
    '',
  ].join('\n');
}
