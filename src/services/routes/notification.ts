/** `GET /getMaintenanceNotificationTemplateParameters/{companyKey}/{routeKey}?cultureKey=` */
import type { ApiContext } from '../../http/context';
import { errorOfFields, recordNotFound, validationError } from '../../errors/api-error';
import { jsonResponse } from '../../http/responses';
import { notificationDoc } from './docs';
import { canonicalizeReferenceKey } from '../../resources/reference/kinds';
import { loadStandardList, findReferences } from '../../resources/reference/store';
import type { ReferenceUse } from '../../resources/reference/store';
import { findRouteByKey } from './find-route';
import { listRouteMembers } from './members';
import { buildTemplateParameters } from './template-parameters';
import type { TemplateParameter } from './template-parameters';
import { message } from '../../messages/catalogue';

async function checkCultureKey(ctx: ApiContext): Promise<string> {
  const cultureKey = ctx.url.searchParams.get('cultureKey');
  if (cultureKey === null || cultureKey.trim() === '') {
    throw validationError([{ path: 'cultureKey', message: message('required', { field: 'cultureKey' }) }]);
  }
  const cultures = await loadStandardList(ctx.tenant, 'cultures');
  const canonical = canonicalizeReferenceKey('cultures', cultureKey.trim());
  if (!cultures.has(canonical)) {
    throw errorOfFields('UnknownReference', [
      { path: 'cultureKey', message: message('unknownReference', { kind: 'cultures', key: cultureKey }) },
    ]);
  }
  return canonical;
}

/** A route by its key: company and routeKey. */
interface RouteAddress {
  readonly companyKey: string;
  readonly routeKey: string;
}

/**
 * The maintenance notification parameters of a route, formatted for `culture` (a known, canonical culture key), or
 * undefined when the tenant/org has no such route. The email templates service renders with them (wired in the registry).
 */
export async function loadNotificationParameters(
  ctx: ApiContext,
  address: RouteAddress,
  culture: string,
): Promise<TemplateParameter[] | undefined> {
  const { tenant } = ctx;
  const route = await findRouteByKey(tenant, address.companyKey, address.routeKey);
  if (!route) return undefined;
  const uses: ReferenceUse[] = [{ kind: 'companies', key: route.company, path: 'company' }];
  if (route.responsible) uses.push({ kind: 'employees', key: route.responsible, path: 'responsible' });
  const [references, members] = await Promise.all([findReferences(tenant, uses), listRouteMembers(tenant, [route.id])]);
  const own = members.get(route.id) ?? { locations: [], equipmentItems: [], tools: [] };
  const company = references.get('companies')?.get(route.company);
  const responsible = route.responsible ? references.get('employees')?.get(route.responsible) : undefined;
  return buildTemplateParameters(
    {
      routeKey: route.routeKey,
      description: route.description,
      company: route.company,
      companyName: company ? String(company.name) : null,
      responsible: route.responsible,
      responsibleName: responsible ? String(responsible.name) : null,
      ...own,
    },
    culture,
    ctx.platform.now(),
  );
}

export async function handleNotificationParameters(ctx: ApiContext) {
  const culture = await checkCultureKey(ctx);
  const companyKey = ctx.params.companyKey ?? '';
  const routeKey = ctx.params.routeKey ?? '';
  const parameters = await loadNotificationParameters(ctx, { companyKey, routeKey }, culture);
  if (!parameters) throw recordNotFound(`Route '${routeKey}' of company '${companyKey}'`, false, ['companyKey', 'routeKey']);
  return jsonResponse(notificationDoc.responses[200].schema, parameters);
}
