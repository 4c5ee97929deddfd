// Every service's demo data, applied in this order (reference data of a module before its records).
import * as emailTemplates from './email-templates.mjs';

export const seedModules = [emailTemplates];
