// Demo data of the email templates service.
import { findPath } from './apply.mjs';

const TEMPLATES = '/operations/emailTemplates';
export const referenceData = {};

export const records = [
  {
    path: TEMPLATES,
    findPath: findPath(TEMPLATES, "templateKey eq 'maintenance-notification'"),
    body: {
      templateKey: 'maintenance-notification',
      subject: 'Maintenance on route {{routeKey}} ({{date}})',
      emailTemplateType: 'HTML',
      notificationBody: '<p>Route <b>{{routeKey}}</b> ({{description}}) of {{company}} is due for maintenance on {{date}}.</p>',
      culture: 'en-US',
      description: 'Sent to the responsible employee before a route is maintained',
    },
  },
  {
    path: TEMPLATES,
    findPath: findPath(TEMPLATES, "templateKey eq 'aviso-manutencao'"),
    body: {
      templateKey: 'aviso-manutencao',
      subject: 'Manutenção da rota {{routeKey}}',
      emailTemplateType: 'Text',
      notificationBody: 'A rota {{routeKey}} ({{description}}) tem manutenção marcada para {{date}}.',
      culture: 'pt-PT',
    },
  },
];
