// Seeds the demo tenant/org (demo/demo) through the API itself, idempotently: reference data is a
// bulk upsert by key; creates that answer 400 DuplicateKey were seeded by an earlier start.
export const DEMO = { tenant: 'demo', org: 'demo' };

export const demoReferenceData = {};

export const demoRecords = [
  {
    path: '/operations/emailTemplates',
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
    path: '/operations/emailTemplates',
    body: {
      templateKey: 'aviso-manutencao',
      subject: 'Manutenção da rota {{routeKey}}',
      emailTemplateType: 'Text',
      notificationBody: 'A rota {{routeKey}} ({{description}}) tem manutenção marcada para {{date}}.',
      culture: 'pt-PT',
    },
  },
];

async function send(baseUrl, token, method, path, body) {
  const response = await fetch(`${baseUrl}/api/${DEMO.tenant}/${DEMO.org}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text };
}

export async function seedDemo(baseUrl, token) {
  for (const [kind, records] of Object.entries(demoReferenceData)) {
    const result = await send(baseUrl, token, 'PUT', `/referenceData/${kind}`, records);
    if (result.status !== 200) throw new Error(`Seeding ${kind} failed: ${result.status} ${result.text}`);
  }
  let created = 0;
  for (const record of demoRecords) {
    const result = await send(baseUrl, token, record.method ?? 'POST', record.path, record.body);
    if (result.status === 201 || result.status === 200 || result.status === 204) created += 1;
    else if (!(result.status === 400 && result.text.includes('"DuplicateKey"'))) {
      throw new Error(`Seeding ${record.path} failed: ${result.status} ${result.text}`);
    }
  }
  return created;
}
