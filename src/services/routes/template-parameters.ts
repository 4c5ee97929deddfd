/**
 * The parameters of a route's maintenance notification: `{name, value}` pairs named as the
 * placeholders an email template uses (`{{routeKey}}`, `{{date}}`, ...), values formatted for the culture.
 * Pure: the caller supplies the route, its members, the culture and today's date.
 */
import type { MemberItem } from './members';

export interface TemplateParameter {
  readonly name: (typeof TEMPLATE_PARAMETER_NAMES)[number];
  readonly value: string | null;
}

export interface NotificationInput {
  readonly routeKey: string;
  readonly description: string;
  readonly company: string;
  readonly companyName: string | null;
  readonly responsible: string | null;
  readonly responsibleName: string | null;
  readonly locations: readonly MemberItem[];
  readonly equipmentItems: readonly MemberItem[];
  readonly tools: readonly MemberItem[];
}

/** Every placeholder name, in answer order (documented in the README). */
export const TEMPLATE_PARAMETER_NAMES = [
  'routeKey',
  'description',
  'company',
  'companyName',
  'responsible',
  'responsibleName',
  'locationCount',
  'locations',
  'equipmentItemCount',
  'equipmentItems',
  'toolCount',
  'tools',
  'date',
  'longDate',
] as const;

function formatList(culture: string, items: readonly MemberItem[]): string {
  const labels = items.map((item) => (item.description ? `${item.key} (${item.description})` : item.key));
  return new Intl.ListFormat(culture, { style: 'long', type: 'conjunction' }).format(labels);
}

export function buildTemplateParameters(input: NotificationInput, culture: string, today: Date): TemplateParameter[] {
  const number = new Intl.NumberFormat(culture, { maximumFractionDigits: 0 });
  const values: Record<(typeof TEMPLATE_PARAMETER_NAMES)[number], string | null> = {
    routeKey: input.routeKey,
    description: input.description,
    company: input.company,
    companyName: input.companyName,
    responsible: input.responsible,
    responsibleName: input.responsibleName,
    locationCount: number.format(input.locations.length),
    locations: formatList(culture, input.locations),
    equipmentItemCount: number.format(input.equipmentItems.length),
    equipmentItems: formatList(culture, input.equipmentItems),
    toolCount: number.format(input.tools.length),
    tools: formatList(culture, input.tools),
    date: new Intl.DateTimeFormat(culture, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).format(today),
    longDate: new Intl.DateTimeFormat(culture, { dateStyle: 'long', timeZone: 'UTC' }).format(today),
  };
  return TEMPLATE_PARAMETER_NAMES.map((name) => ({ name, value: values[name] }));
}
