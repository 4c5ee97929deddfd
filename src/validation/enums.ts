/** Enums: written as numbers, read by number or by member name (any case). */

export interface EnumSpec {
  /** Name of the enum as the interface calls it (ExchangeRateType, ...). */
  readonly name: string;
  /** Member name -> wire number. */
  readonly members: Readonly<Record<string, number>>;
}

/** Metadata key marking an enum's schema with its EnumSpec (the OpenAPI document names the members). */
export const ENUM_METADATA = 'enumSpec';

/** Enum input by number or case-insensitive name -> number. */
export function parseEnumValue(spec: EnumSpec, input: unknown): number | undefined {
  if (typeof input === 'number') return Object.values(spec.members).includes(input) ? input : undefined;
  if (typeof input === 'string') {
    const wanted = input.trim().toLowerCase();
    for (const [name, value] of Object.entries(spec.members)) {
      if (name.toLowerCase() === wanted || String(value) === wanted) return value;
    }
  }
  return undefined;
}

/** `HTML (1), Text (2)`: each member name with its number. */
export function describeEnum(spec: EnumSpec): string {
  return Object.entries(spec.members)
    .map(([name, value]) => `${name} (${value})`)
    .join(', ');
}

/** True when `spec` looks like an EnumSpec (schema metadata is untyped). */
export function isEnumSpec(value: unknown): value is EnumSpec {
  return typeof value === 'object' && value !== null && 'name' in value && 'members' in value;
}
