/** `GET /getMaintenanceNotificationTemplateParameters/{companyKey}/{routeKey}?cultureKey=` */
import type { ApiContext } from '../../http/context';
import { errorOfFields, recordNotFound, validationError } from '../../errors/api-error';
import { jsonResponse } from '../../http/responses';
import { canonicalizeReferenceKey } from '../../reference/kinds';
import { loadStandardList, findReferences } from '../../reference/store';
import type { ReferenceUse } from '../../reference/store';
import { findRouteByKey } from './find-route';
import { listRouteMembers } from './members';
import { buildTemplateParameters } from './template-parameters';
import { message } from '../../messages/catalogue';

async function checkCultureKey(ctx: ApiContext): Promise<string> {
  const cultureKey = ctx.url.searchParams.get('cultureKey');
  if (cultureKey === null || cultureKey.trim() === '') {
    throw validationError([{ path: 'cultureKey', message: message('required', { field: 'cultureKey' }) }]);
  }
  const cultures = await loadStandardList(ctx.db, 'cultures');
  const canonical = canonicalizeReferenceKey('cultures', cultureKey.trim());
  if (!cultures.has(canonical)) {
    throw errorOfFields('UnknownReference', [
      { path: 'cultureKey', message: message('unknownReference', { kind: 'cultures', key: cultureKey }) },
    ]);
  }
  return canonical;
}

export async function handleNotificationParameters(ctx: ApiContext): Promise<Response> {
  const culture = await checkCultureKey(ctx);
  const { db, scope } = ctx;
  const companyKey = ctx.params.companyKey ?? '';
  const routeKey = ctx.params.routeKey ?? '';
  const route = await findRouteByKey(db, scope, companyKey, routeKey);
  if (!route) throw recordNotFound(`Route '${routeKey}' of company '${companyKey}'`, false, ['companyKey', 'routeKey']);
  const uses: ReferenceUse[] = [{ kind: 'companies', key: route.company, path: 'company' }];
  if (route.responsible) uses.push({ kind: 'employees', key: route.responsible, path: 'responsible' });
  const [references, members] = await Promise.all([findReferences(db, scope, uses), listRouteMembers(db, scope, [route.id])]);
  const own = members.get(route.id) ?? { locations: [], equipmentItems: [], tools: [] };
  const company = references.get('companies')?.get(route.company);
  const responsible = route.responsible ? references.get('employees')?.get(route.responsible) : undefined;
  const parameters = buildTemplateParameters(
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
  return jsonResponse(parameters);
}
