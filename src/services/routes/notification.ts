/** `GET /getMaintenanceNotificationTemplateParameters/{companyKey}/{routeKey}?cultureKey=` */
import { readDatabase } from '../../db/client';
import { scopeOf } from '../../entities/handlers';
import type { ApiContext } from '../../http/context';
import { ApiError, recordNotFound, validationError } from '../../http/errors';
import { jsonResponse } from '../../http/responses';
import { canonicalizeReferenceKey } from '../../reference/kinds';
import { readStandardList, resolveReferences } from '../../reference/store';
import type { ReferenceUse } from '../../reference/store';
import { readRouteByKey } from './find-route';
import { readRouteMembers } from './members';
import { buildTemplateParameters } from './template-parameters';

async function readCulture(ctx: ApiContext): Promise<string> {
  const cultureKey = ctx.url.searchParams.get('cultureKey');
  if (cultureKey === null || cultureKey.trim() === '') {
    throw validationError([{ path: 'cultureKey', message: 'cultureKey is required (a culture key such as en-US).' }]);
  }
  const cultures = await readStandardList(readDatabase(ctx.platform.db), 'cultures');
  const canonical = canonicalizeReferenceKey('cultures', cultureKey.trim());
  if (!cultures.has(canonical)) {
    throw new ApiError('UnknownReference', `Unknown cultures key '${cultureKey}'.`, {
      errors: [{ path: 'cultureKey', message: `Unknown cultures key '${cultureKey}'.` }],
    });
  }
  return canonical;
}

export async function readNotificationParameters(ctx: ApiContext): Promise<Response> {
  const culture = await readCulture(ctx);
  const db = readDatabase(ctx.platform.db);
  const scope = scopeOf(ctx);
  const companyKey = ctx.params.companyKey ?? '';
  const routeKey = ctx.params.routeKey ?? '';
  const route = await readRouteByKey(db, scope, companyKey, routeKey);
  if (!route) throw recordNotFound(`Route '${routeKey}' of company '${companyKey}'`, false);
  const uses: ReferenceUse[] = [{ kind: 'companies', key: route.company, path: 'company' }];
  if (route.responsible) uses.push({ kind: 'employees', key: route.responsible, path: 'responsible' });
  const [references, members] = await Promise.all([resolveReferences(db, scope, uses), readRouteMembers(db, scope, [route.id])]);
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
