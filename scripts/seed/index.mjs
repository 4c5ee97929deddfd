// Every service's demo data, applied in this order (reference data of a module before its records).
import * as emailTemplates from './email-templates.mjs';
import * as imports from './imports.mjs';
import * as routes from './routes.mjs';
import * as indicators from './indicators.mjs';
import * as exchangeRates from './exchange-rates.mjs';

export const seedModules = [emailTemplates, imports, routes, indicators, exchangeRates];
