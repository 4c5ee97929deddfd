/** The pure parts of the standard OData v4 root: resource paths and key predicates, the model and CSDL, answer shaping, errors. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error';
import { defineResource } from '../../src/model/resource';
import { writeCsdlJson } from '../../src/odata-service/csdl-json';
import { writeCsdlXml } from '../../src/odata-service/csdl-xml';
import { toODataError } from '../../src/odata-service/errors';
import { buildServiceModel, findEntityType } from '../../src/odata-service/model';
import { buildListQuery, buildNextLink, parseProjection, readPageSize, rewriteEnumLiterals } from '../../src/odata-service/query';
import { parseKeyPredicate, parseResourcePath } from '../../src/odata-service/resource-path';
import { buildContextUrl, formatKeyPredicate, parseMetadataLevel, shapeEntity } from '../../src/odata-service/shape';

const widgetSpec = defineResource({
  storage: 'entity',
  name: 'widgets',
  title: 'Widget',
  resourceName: 'Widget',
  basePath: '/stock/widgets',
  table: 'widgets',
  key: ['company', 'code'],
  customAttributes: true,
  fields: {
    company: { kind: 'string', column: 'company', required: true, maxLength: 100, description: 'Company & co' },
    code: { kind: 'string', column: 'code', required: true, maxLength: 20 },
    size: { kind: 'int', column: 'size' },
    notes: { kind: 'string', column: 'notes', notQueryable: true },
    shape: { kind: 'enum', column: 'shape', required: true, enum: { name: 'WidgetShape', members: { Round: 1, Square: 2 } } },
    price: { kind: 'decimal', column: 'price' },
  },
  members: {
    ownerColumn: 'widget_id',
    lists: [{ property: 'places', table: 'widget_places', column: 'place', reference: 'places' }],
    rules: { memberMismatch: 'route_member_company', ownerChange: 'route_company_members' },
  },
});

const partSpec = defineResource({
  storage: 'line',
  name: 'parts',
  title: 'Part',
  resourceName: 'WidgetPart',
  table: 'widget_parts',
  parent: { resource: 'widgets', column: 'widget_id', order: 'line_no', property: 'parts' },
  key: ['partCode'],
  customAttributes: false,
  fields: {
    partCode: { kind: 'string', column: 'part_code', required: true },
    quantity: { kind: 'int', column: 'quantity', required: true },
  },
});

const colorKind = defineResource({
  storage: 'reference',
  name: 'colors',
  title: 'Paint color',
  key: ['key'],
  table: 'ref_colors',
  fields: {
    description: { kind: 'string', column: 'description', required: true },
    finish: { kind: 'choice', column: 'finish', required: true, choices: ['matte', 'gloss'] },
    tags: { kind: 'stringList', column: 'tags' },
  },
});

const model = buildServiceModel({ entities: [widgetSpec], lines: [partSpec], kinds: [colorKind] });

describe('resource paths and key predicates', () => {
  it('reads sets, $count, single and composite keys, navigation', () => {
    expect(parseResourcePath('widgets')).toEqual({ kind: 'collection', set: 'widgets', count: false });
    expect(parseResourcePath('widgets/$count')).toEqual({ kind: 'collection', set: 'widgets', count: true });
    expect(parseResourcePath("emailTemplates('welcome')")).toEqual({
      kind: 'entity',
      set: 'emailTemplates',
      key: { values: [{ value: { type: 'string', value: 'welcome' } }] },
    });
    expect(parseResourcePath("routes(company='C1',routeKey='R1')/locations/$count")).toEqual({
      kind: 'navigation',
      set: 'routes',
      key: {
        values: [
          { name: 'company', value: { type: 'string', value: 'C1' } },
          { name: 'routeKey', value: { type: 'string', value: 'R1' } },
        ],
      },
      navigation: 'locations',
      count: true,
    });
    expect(parseResourcePath('exchangeRatesDocuments(7)/')).toMatchObject({
      kind: 'entity',
      key: { values: [{ value: { type: 'number', value: '7' } }] },
    });
  });

  it('decodes percent-encoding first, then doubled quotes; an unquoted GUID is a GUID (lower case)', () => {
    expect(parseKeyPredicate("'It''s'")).toEqual({ values: [{ value: { type: 'string', value: "It's" } }] });
    expect(parseResourcePath('emailTemplates(%27a%2Fb%27%27c%27)')).toMatchObject({ key: { values: [{ value: { value: "a/b'c" } }] } });
    expect(parseKeyPredicate('0F8FAD5B-D9CB-469F-A165-70867728950E')).toEqual({
      values: [{ value: { type: 'guid', value: '0f8fad5b-d9cb-469f-a165-70867728950e' } }],
    });
    expect(parseKeyPredicate("templateKey='x'")).toEqual({ values: [{ name: 'templateKey', value: { type: 'string', value: 'x' } }] });
  });

  it('refuses bad predicates and paths with 400 InvalidODataQuery naming the key or path', () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof ApiError
          ? { code: error.code, status: error.status, path: error.errors[0]?.path, detail: error.message }
          : error;
      }
      return undefined;
    };
    expect(refusal(() => parseKeyPredicate("'open"))).toMatchObject({
      code: 'InvalidODataQuery',
      status: 400,
      path: 'key',
      detail: /unterminated/,
    });
    expect(refusal(() => parseKeyPredicate("'a','b'"))).toMatchObject({ path: 'key', detail: /names each one/ });
    expect(refusal(() => parseKeyPredicate('abc'))).toMatchObject({ path: 'key', detail: /expected a key value/ });
    expect(refusal(() => parseKeyPredicate("'a';"))).toMatchObject({ path: 'key', detail: /expected ','/ });
    expect(refusal(() => parseResourcePath("widgets('a'"))).toMatchObject({ path: 'key' });
    expect(refusal(() => parseResourcePath('widgets/other'))).toMatchObject({ path: 'path' });
    expect(refusal(() => parseResourcePath("widgets('a')/$count"))).toMatchObject({ path: 'path' });
    expect(refusal(() => parseResourcePath("widgets('a')/places/x"))).toMatchObject({ path: 'path' });
    expect(refusal(() => parseResourcePath('widgets(%zz)'))).toMatchObject({ path: 'path' });
  });
});

describe('the service model and its CSDL', () => {
  it('derives types, keys, nullability, lengths, enums, navigation and capabilities from the descriptions', () => {
    const widget = findEntityType(model, 'Widget');
    expect(widget).toMatchObject({
      key: ['company', 'code'],
      openType: true,
      navigations: [
        { name: 'places', type: 'WidgetMember' },
        { name: 'parts', type: 'WidgetPart' },
      ],
    });
    const byName = Object.fromEntries((widget?.properties ?? []).map((property) => [property.name, property]));
    expect(byName.id).toMatchObject({ type: 'Edm.Guid', nullable: false, computed: true });
    expect(byName.company).toMatchObject({ type: 'Edm.String', nullable: false, maxLength: 100 });
    expect(byName.size).toMatchObject({ type: 'Edm.Int64', nullable: true });
    expect(byName.shape).toMatchObject({ type: 'Erp.WidgetShape', nullable: false });
    expect(byName.price?.type).toBe('Edm.Decimal');
    expect(byName.isActive).toMatchObject({ type: 'Edm.Boolean', computed: false });
    expect(byName.version).toMatchObject({ type: 'Edm.Int64', computed: true });
    expect(findEntityType(model, 'PaintColor')?.properties.map((property) => [property.name, property.type, property.collection])).toEqual([
      ['id', 'Edm.Guid', false],
      ['key', 'Edm.String', false],
      ['description', 'Edm.String', false],
      ['finish', 'Erp.PaintColorFinish', false],
      ['tags', 'Edm.String', true],
    ]);
    expect(model.enumTypes.map((type) => [type.name, type.members.map((member) => `${member.name}=${member.value}`)])).toEqual([
      ['WidgetShape', ['Round=1', 'Square=2']],
      ['PaintColorFinish', ['matte=0', 'gloss=1']],
    ]);
    const [widgets, colors] = model.entitySets;
    expect(widgets?.capabilities).toEqual({
      filterable: true,
      sortable: true,
      nonFilterable: ['notes'],
      nonSortable: ['notes'],
      insertable: true,
      updatable: true,
      deletable: true,
      trackable: true,
    });
    expect(colors?.capabilities).toMatchObject({
      filterable: false,
      sortable: false,
      insertable: false,
      updatable: true,
      deletable: true,
      trackable: true,
    });
  });

  it('writes CSDL XML with keys, facets, enums, contained navigation and capability annotations', () => {
    const xml = writeCsdlXml(model);
    expect(xml).toContain('<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">');
    expect(xml).toContain('<Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="Erp">');
    expect(xml).toContain(
      '<EntityType Name="Widget" OpenType="true">\n      <Key>\n        <PropertyRef Name="company"/>\n        <PropertyRef Name="code"/>\n      </Key>',
    );
    expect(xml).toContain('<Property Name="company" Type="Edm.String" Nullable="false" MaxLength="100">');
    expect(xml).toContain('<Annotation Term="Core.Description" String="Company &amp; co"/>');
    expect(xml).toContain('<Property Name="price" Type="Edm.Decimal" Scale="variable"/>');
    expect(xml).toContain('<Property Name="tags" Type="Collection(Edm.String)"/>');
    expect(xml).toContain('<Member Name="Square" Value="2"/>');
    expect(xml).toContain('<NavigationProperty Name="parts" Type="Collection(Erp.WidgetPart)" ContainsTarget="true"/>');
    expect(xml).toContain('<EntityContainer Name="Container">');
    expect(xml).toContain('<EntitySet Name="widgets" EntityType="Erp.Widget">');
    expect(xml).toMatch(
      /Capabilities\.FilterRestrictions">\s*<Record>\s*<PropertyValue Property="Filterable" Bool="true"\/>\s*<PropertyValue Property="NonFilterableProperties">\s*<Collection>\s*<PropertyPath>notes<\/PropertyPath>/,
    );
    expect(xml).toContain('<Annotation Term="Capabilities.TopSupported" Bool="true"/>');
    expect(xml).toMatch(/<EntitySet Name="colors"[^]*?Property="Insertable" Bool="false"/);
    // Balanced: every element opened is closed.
    const opened = [...xml.matchAll(/<([A-Za-z:]+)[^>]*[^/]>/g)].filter((match) => !match[0].startsWith('<?')).length;
    expect([...xml.matchAll(/<\/[A-Za-z:]+>/g)].length).toBe(opened);
  });

  it('writes CSDL JSON of the same model', () => {
    const json = writeCsdlJson(model) as Record<string, Record<string, Record<string, unknown>>>;
    expect(json.$Version).toBe('4.0');
    expect(json.$EntityContainer).toBe('Erp.Container');
    expect(json.Erp?.Widget).toMatchObject({
      $Kind: 'EntityType',
      $OpenType: true,
      $Key: ['company', 'code'],
      id: { $Type: 'Edm.Guid', '@Core.Computed': true },
      company: { $MaxLength: 100 },
      size: { $Type: 'Edm.Int64', $Nullable: true },
      parts: { $Kind: 'NavigationProperty', $Type: 'Erp.WidgetPart', $Collection: true, $ContainsTarget: true },
    });
    expect(json.Erp?.WidgetShape).toEqual({ $Kind: 'EnumType', Round: 1, Square: 2 });
    expect(json.Erp?.Container?.widgets).toMatchObject({
      $Collection: true,
      $Type: 'Erp.Widget',
      '@Capabilities.SortRestrictions': {
        Sortable: true,
        NonSortableProperties: [{ $PropertyPath: 'notes' }],
      },
    });
  });
});

describe('answer shaping', () => {
  const widget = findEntityType(model, 'Widget');
  if (!widget) throw new Error('no Widget type');
  const record = {
    id: 'i1',
    company: "O'Neil",
    code: 'W 1',
    shape: 2,
    version: 3,
    custom_color: 'red',
    places: [{ id: 'p', key: 'L1', description: 'x' }],
  };
  const root = 'https://h/odata/t/o/';

  it('names enum members, carries the ETag, keeps navigation only when expanded, applies $select', () => {
    expect(shapeEntity(record, { type: widget, level: 'minimal', root, set: 'widgets', projection: { expand: [] } })).toEqual({
      '@odata.etag': '"3"',
      id: 'i1',
      company: "O'Neil",
      code: 'W 1',
      shape: 'Square',
      version: 3,
      custom_color: 'red',
    });
    expect(
      shapeEntity(record, { type: widget, level: 'none', root, projection: { select: ['code', 'custom_color'], expand: ['places'] } }),
    ).toEqual({
      code: 'W 1',
      custom_color: 'red',
      places: record.places,
    });
    expect(
      shapeEntity(record, { type: widget, level: 'full', root, set: 'widgets', projection: { select: ['code'], expand: [] } }),
    ).toEqual({
      '@odata.type': '#Erp.Widget',
      '@odata.id': "https://h/odata/t/o/widgets(company='O''Neil',code='W%201')",
      '@odata.editLink': "https://h/odata/t/o/widgets(company='O''Neil',code='W%201')",
      '@odata.etag': '"3"',
      code: 'W 1',
    });
  });

  it('writes key predicates, context URLs and metadata levels', () => {
    const single = { ...widget, key: ['code'] };
    expect(formatKeyPredicate(single, { code: 'a b' })).toBe("('a%20b')");
    expect(formatKeyPredicate({ ...widget, key: ['size'] }, { size: 7 })).toBe('(7)');
    expect(buildContextUrl(root, 'widgets', { expand: [] })).toBe('https://h/odata/t/o/$metadata#widgets');
    expect(buildContextUrl(root, 'widgets', { select: ['code'], expand: ['places'] }, '/$entity')).toBe(
      'https://h/odata/t/o/$metadata#widgets(code,places)/$entity',
    );
    expect(parseMetadataLevel(null, null)).toBe('minimal');
    expect(parseMetadataLevel('application/json;odata.metadata=none', null)).toBe('none');
    expect(parseMetadataLevel('text/html, application/json; odata.metadata=full; q=0.9', null)).toBe('full');
    expect(parseMetadataLevel('application/json;odata.metadata=full', 'application/json;odata.metadata=none')).toBe('none');
    expect(parseMetadataLevel(null, 'JSON')).toBe('minimal');
    expect(() => parseMetadataLevel(null, 'atom')).toThrow(/\$format atom is not served/);
  });
});

describe('query options', () => {
  const widget = findEntityType(model, 'Widget');
  if (!widget) throw new Error('no Widget type');

  it('reads $select and $expand against the type', () => {
    const params = (text: string) => new URLSearchParams(text);
    expect(parseProjection(params('$select=code,custom_x&$expand=*'), widget)).toEqual({
      select: ['code', 'custom_x'],
      expand: ['places', 'parts'],
    });
    expect(parseProjection(params('$expand=parts,parts'), widget)).toEqual({ expand: ['parts'] });
    expect(() => parseProjection(params('$select=code,nope'), widget)).toThrow(/\$select at position 6: unknown property 'nope'/);
    expect(parseProjection(params('$expand=places($select=key),parts'), widget)).toEqual({
      expand: ['places', 'parts'],
      nested: { places: ['key'] },
    });
    expect(() => parseProjection(params('$expand=places($top=1)'), widget)).toThrow(/only \$select is supported inside \$expand/);
    expect(() => parseProjection(params('$expand=places($select=key'), widget)).toThrow(/expected '\)'/);
    expect(() => parseProjection(params('$expand=code'), widget)).toThrow(/unknown navigation property 'code'; expandable: places, parts/);
  });

  it('pages by the server: $top is the total, the page at most the preferred size (1000 at most)', () => {
    expect(readPageSize(null)).toEqual({ size: 100, applied: false });
    expect(readPageSize('odata.maxpagesize=20')).toEqual({ size: 20, applied: true });
    expect(readPageSize('return=minimal, odata.maxpagesize=5000')).toEqual({ size: 1000, applied: true });
    const inner = buildListQuery(
      new URLSearchParams("$top=250&$filter=shape eq Erp.WidgetShape'Round'&$select=code&$expand=parts&other=1&$Count=true"),
      100,
    );
    expect([...inner]).toEqual([
      ['$filter', "shape eq 'Round'"],
      ['$Count', 'true'],
      ['$top', '100'],
    ]);
    expect(buildListQuery(new URLSearchParams('$top=x'), 100).get('$top')).toBe('x');
    const params = new URLSearchParams('$top=250&$skip=10&$filter=a eq 1');
    expect(buildNextLink('https://h/odata/t/o/widgets', params, 'https://h/api/t/o/w/odata?$top=100&$skiptoken=abc', 100)).toBe(
      'https://h/odata/t/o/widgets?%24filter=a+eq+1&%24top=150&%24skiptoken=abc',
    );
    expect(
      buildNextLink('https://h/odata/t/o/widgets', new URLSearchParams('$top=100'), 'https://h/x?$skiptoken=abc', 100),
    ).toBeUndefined();
    expect(buildNextLink('https://h/odata/t/o/widgets', new URLSearchParams(), undefined, 100)).toBeUndefined();
  });

  it('rewrites standard enum literals outside string literals only', () => {
    expect(rewriteEnumLiterals("shape eq Erp.WidgetShape'Round' and code eq 'Erp.X''y'")).toBe("shape eq 'Round' and code eq 'Erp.X''y'");
    expect(rewriteEnumLiterals("x eq MyErp.T'a'")).toBe("x eq MyErp.T'a'");
  });
});

describe('OData errors', () => {
  it('carry the problem code, its detail, the first field as target and every field as a detail', () => {
    expect(
      toODataError({
        title: 'Validation failed',
        detail: 'Invalid fields: subject, culture',
        code: 'ValidationFailed',
        errors: [
          { path: 'subject', message: 'subject is required' },
          { path: 'culture', message: 'culture is not a known culture' },
        ],
      }),
    ).toEqual({
      error: {
        code: 'ValidationFailed',
        message: 'Invalid fields: subject, culture',
        target: 'subject',
        details: [
          { code: 'ValidationFailed', message: 'subject is required', target: 'subject' },
          { code: 'ValidationFailed', message: 'culture is not a known culture', target: 'culture' },
        ],
      },
    });
    expect(toODataError({ title: 'Not found', code: 'NotFound' })).toEqual({
      error: { code: 'NotFound', message: 'Not found', details: [] },
    });
  });
});
