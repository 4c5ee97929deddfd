/** fast-check generators of valid `$filter` expressions over the email template fields, and of literals. */
import fc from 'fast-check';
import { listSortOrders } from '../../src/resources/entities/odata-fields';
import { emailTemplateSpec } from '../../src/services/email-templates/entity';

/** An OData string literal: quotes doubled. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

const anyCase = (name: string) =>
  fc.constantFrom(name, name.toLowerCase(), name.toUpperCase(), name.charAt(0).toUpperCase() + name.slice(1));

const stringProperty = fc.oneof(
  ...['templateKey', 'subject', 'culture', 'description', 'notificationBody', 'createdBy', 'modifiedBy'].map(anyCase),
);
const dateProperty = fc.oneof(anyCase('createdOn'), anyCase('modifiedOn'));

export const stringLiteral = fc.string({ maxLength: 20, unit: 'grapheme' }).map(quote);

const stringExpression = fc.oneof(
  { weight: 3, arbitrary: stringProperty },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('tolower', 'toupper'), stringProperty).map(([name, property]) => `${name}(${property})`),
  },
);

const numberExpression = fc.oneof(
  fc.constantFrom('version', 'Version', 'emailTemplateType'),
  stringProperty.map((property) => `length(${property})`),
  fc.tuple(fc.constantFrom('year', 'month', 'day'), dateProperty).map(([name, property]) => `${name}(${property})`),
);

const numberLiteral = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).map((value) => String(value)),
);

const dateLiteral = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .chain((date) => {
    const iso = date.toISOString();
    return fc.constantFrom(iso, iso.slice(0, 10), `'${iso}'`, `datetime'${iso.slice(0, 19)}'`);
  });

const operator = fc.constantFrom('eq', 'ne', 'gt', 'ge', 'lt', 'le', 'EQ');

const comparison = fc.oneof(
  fc.tuple(stringExpression, operator, stringLiteral).map(([left, op, right]) => `${left} ${op} ${right}`),
  fc.tuple(stringLiteral, operator, stringExpression).map(([left, op, right]) => `${left} ${op} ${right}`),
  fc.tuple(numberExpression, operator, numberLiteral).map(([left, op, right]) => `${left} ${op} ${right}`),
  fc.tuple(dateProperty, operator, dateLiteral).map(([left, op, right]) => `${left} ${op} ${right}`),
  fc.tuple(dateProperty, operator, dateProperty).map(([left, op, right]) => `${left} ${op} ${right}`),
  fc.tuple(fc.constantFrom('eq', 'ne'), fc.boolean()).map(([op, value]) => `isActive ${op} ${value}`),
  fc.tuple(fc.constantFrom('eq', 'ne'), fc.uuid()).map(([op, id]) => `id ${op} ${id}`),
  fc
    .tuple(fc.constantFrom('eq', 'ne'), fc.constantFrom("'HTML'", "'text'", '1', '2'))
    .map(([op, value]) => `emailTemplateType ${op} ${value}`),
  fc.tuple(fc.constantFrom('description', 'Description'), fc.constantFrom('eq', 'ne')).map(([property, op]) => `${property} ${op} null`),
);

const predicate = fc.oneof(
  { weight: 6, arbitrary: comparison },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('contains', 'startswith', 'endswith'), stringExpression, stringLiteral)
      .map(([name, target, search]) => `${name}(${target}, ${search})`),
  },
  { weight: 1, arbitrary: fc.tuple(stringLiteral, stringProperty).map(([search, target]) => `substringof(${search},${target})`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(stringProperty, fc.array(fc.oneof(stringLiteral, fc.constant('null')), { minLength: 1, maxLength: 5 }))
      .map(([property, values]) => `${property} in (${values.join(', ')})`),
  },
  { weight: 1, arbitrary: fc.constantFrom('isActive', 'true', 'false') },
);

/** A valid `$filter`: predicates combined with and/or/not and parentheses, a few levels deep. */
export const validFilter: fc.Arbitrary<string> = fc.letrec<{ filter: string }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    { weight: 4, arbitrary: predicate },
    {
      weight: 1,
      arbitrary: fc.tuple(tie('filter'), fc.constantFrom('and', 'or', 'AND', 'Or'), tie('filter')).map(([l, op, r]) => `${l} ${op} ${r}`),
    },
    { weight: 1, arbitrary: tie('filter').map((inner) => `not (${inner})`) },
    { weight: 1, arbitrary: tie('filter').map((inner) => `(${inner})`) },
  ),
})).filter;

/** An `$orderby` an email templates index serves: a prefix of one of its sort orders, every key in one direction. */
export const sortableOrderBy = fc
  .constantFrom(...listSortOrders(emailTemplateSpec))
  .chain((order) =>
    fc.tuple(
      fc.constant(order),
      fc.integer({ min: order.required, max: order.fields.length }),
      fc.constantFrom('', ' asc', ' desc', ' DESC'),
    ),
  )
  .map(([order, length, direction]) =>
    order.fields
      .slice(0, length)
      .map((name) => `${name}${direction}`)
      .join(', '),
  );

export const validOrderBy = fc
  .uniqueArray(
    fc.constantFrom(
      'templateKey',
      'subject',
      'culture',
      'description',
      'emailTemplateType',
      'isActive',
      'createdOn',
      'modifiedOn',
      'version',
      'id',
    ),
    {
      maxLength: 3,
    },
  )
  .chain((names) => fc.tuple(...names.map((name) => fc.constantFrom(name, `${name} asc`, `${name} desc`))))
  .map((terms) => terms.join(', '));
