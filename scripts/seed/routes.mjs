// Demo data of the routes service (and the reference data it needs). Company keys are stable: other services'
// demo data (exchange rates, KPIs) use ACME-PT (base currency EUR) and ACME-US (base currency USD) too.
import { findPath } from './apply.mjs';
export const referenceData = {
  companies: [
    { key: 'ACME-PT', name: 'Acme Portugal, Lda.', baseCurrency: 'EUR' },
    { key: 'ACME-US', name: 'Acme Inc.', baseCurrency: 'USD' },
  ],
  employees: [
    { key: 'EMP-ANA', name: 'Ana Costa', company: 'ACME-PT' },
    { key: 'EMP-JOHN', name: 'John Miller', company: 'ACME-US' },
  ],
  locations: [
    { key: 'LOC-LIS-BOILER', description: 'Lisbon plant, boiler room', company: 'ACME-PT' },
    { key: 'LOC-LIS-ROOF', description: 'Lisbon plant, roof', company: 'ACME-PT' },
    { key: 'LOC-OPO-WH', description: 'Porto warehouse', company: 'ACME-PT' },
    { key: 'LOC-NY-HALL', description: 'New York assembly hall', company: 'ACME-US' },
  ],
  equipmentItems: [
    { key: 'EQ-BOILER-01', description: 'Gas boiler 300 kW', company: 'ACME-PT' },
    { key: 'EQ-CHILLER-01', description: 'Rooftop chiller', company: 'ACME-PT' },
    { key: 'EQ-PUMP-01', description: 'Circulation pump', company: 'ACME-PT' },
    { key: 'EQ-FORKLIFT-01', description: 'Electric forklift', company: 'ACME-US' },
  ],
  tools: [
    { key: 'TOOL-WRENCH', description: 'Torque wrench' },
    { key: 'TOOL-METER', description: 'Multimeter' },
    { key: 'TOOL-LADDER', description: 'Extension ladder' },
  ],
  locationFunctions: [
    { key: 'LF-TECH', description: 'Technical area' },
    { key: 'LF-STORE', description: 'Storage' },
  ],
  families: [
    { key: 'FAM-HVAC', description: 'Heating, ventilation and air conditioning' },
    { key: 'FAM-LIFT', description: 'Lifting equipment' },
  ],
  brands: [
    { key: 'BR-THERMA', description: 'Therma' },
    { key: 'BR-LIFTCO', description: 'LiftCo' },
  ],
  brandModels: [
    { key: 'BM-THERMA-300', description: 'Therma 300', brand: 'BR-THERMA' },
    { key: 'BM-LIFTCO-X2', description: 'LiftCo X2', brand: 'BR-LIFTCO' },
  ],
};

const ROUTES = '/assetManagementCore/routes';

// Routes (created only when the list filtered to them is empty) and their members (adding twice is a no-op).
// ROUTE-01 exists in both companies, so its membership operations need ?companyKey=.
export const records = [
  {
    path: ROUTES,
    findPath: findPath(ROUTES, "company eq 'ACME-PT' and routeKey eq 'ROUTE-01'"),
    body: {
      routeKey: 'ROUTE-01',
      description: 'Lisbon plant weekly HVAC round',
      company: 'ACME-PT',
      locationFunction: 'LF-TECH',
      family: 'FAM-HVAC',
      brand: 'BR-THERMA',
      brandModel: 'BM-THERMA-300',
      tools: 'TOOL-WRENCH,TOOL-METER',
      remarks: 'Check the boiler pressure before the chiller.',
      responsible: 'EMP-ANA',
      custom_shift: 'morning',
    },
  },
  {
    path: ROUTES,
    findPath: findPath(ROUTES, "company eq 'ACME-PT' and routeKey eq 'ROUTE-02'"),
    body: {
      routeKey: 'ROUTE-02',
      description: 'Porto warehouse monthly check',
      company: 'ACME-PT',
      tools: ['TOOL-LADDER'],
      responsible: 'EMP-ANA',
    },
  },
  {
    path: ROUTES,
    findPath: findPath(ROUTES, "company eq 'ACME-US' and routeKey eq 'ROUTE-01'"),
    body: {
      routeKey: 'ROUTE-01',
      description: 'New York hall forklift round',
      company: 'ACME-US',
      family: 'FAM-LIFT',
      brand: 'BR-LIFTCO',
      responsible: 'EMP-JOHN',
    },
  },
  { path: `${ROUTES}/ROUTE-01/locations/add?companyKey=ACME-PT`, body: ['LOC-LIS-BOILER', 'LOC-LIS-ROOF'] },
  { path: `${ROUTES}/ROUTE-01/equipmentitems/add?companyKey=ACME-PT`, body: ['EQ-BOILER-01', 'EQ-CHILLER-01'] },
  { path: `${ROUTES}/ROUTE-02/locations/add`, body: ['LOC-OPO-WH'] },
  { path: `${ROUTES}/ROUTE-01/locations/add?companyKey=ACME-US`, body: ['LOC-NY-HALL'] },
  { path: `${ROUTES}/ROUTE-01/equipmentitems/add?companyKey=ACME-US`, body: ['EQ-FORKLIFT-01'] },
];
