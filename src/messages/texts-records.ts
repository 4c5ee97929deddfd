/** Messages about references, custom attributes and the services' own rules, in en-US, pt-PT and es-ES. */
export const RECORD_TEXTS = {
  unknownReference: [
    "There is no {kind} record with key '{key}'",
    "Não existe nenhum registo de {kind} com a chave '{key}'",
    "No existe ningún registro de {kind} con la clave '{key}'",
  ],
  referenceInUse: ['It is used by {user}', 'É usado por {user}', 'Lo usa {user}'],
  noCustomAttributes: [
    '{entity} records have no custom attributes: remove {field}',
    'Os registos de {entity} não têm atributos personalizados: remova {field}',
    'Los registros de {entity} no tienen atributos personalizados: elimine {field}',
  ],
  customAttributeName: [
    '{field} is not a custom attribute name: use custom_ followed by letters, digits and _ (at most 64)',
    '{field} não é um nome de atributo personalizado: use custom_ seguido de letras, algarismos e _ (no máximo 64)',
    '{field} no es un nombre de atributo personalizado: use custom_ seguido de letras, dígitos y _ (como máximo 64)',
  ],
  unknownCustomAttribute: [
    '{field} is not a defined custom attribute; the defined ones are {names}',
    '{field} não é um atributo personalizado definido; os definidos são {names}',
    '{field} no es un atributo personalizado definido; los definidos son {names}',
  ],
  customAttributeKey: [
    "key must be '{expected}' (<entity>.<name>)",
    "key tem de ser '{expected}' (<entidade>.<nome>)",
    "key debe ser '{expected}' (<entidad>.<nombre>)",
  ],
  pathMismatch: [
    "{field} must be the path's {segment} '{value}'",
    "{field} tem de ser o {segment} do caminho, '{value}'",
    "{field} debe ser el {segment} de la ruta, '{value}'",
  ],
  serverField: [
    '{field} is set by the server or by changeDataImport: remove it from the registration',
    '{field} é definido pelo servidor ou por changeDataImport: remova-o do registo',
    '{field} lo fija el servidor o changeDataImport: elimínelo del registro',
  ],
  stateTransition: [
    'An import in state {from} cannot change to {to}',
    'Uma importação no estado {from} não pode passar a {to}',
    'Una importación en estado {from} no puede pasar a {to}',
  ],
  unknownWorkerConfiguration: [
    "There is no worker configuration '{key}'",
    "Não existe a configuração de trabalho '{key}'",
    "No existe la configuración de trabajo '{key}'",
  ],
  decimalPlaces: [
    '{field} may have at most {max} decimal places',
    '{field} pode ter no máximo {max} casas decimais',
    '{field} puede tener como máximo {max} decimales',
  ],
  magnitude: [
    '{field} must be less than 10^12 in magnitude',
    '{field} tem de ser inferior a 10^12 em valor absoluto',
    '{field} debe ser menor que 10^12 en valor absoluto',
  ],
  mustBePositive: ['{field} must be greater than 0', '{field} tem de ser maior que 0', '{field} debe ser mayor que 0'],
  currenciesDiffer: [
    'toCurrency must differ from fromCurrency',
    'toCurrency tem de ser diferente de fromCurrency',
    'toCurrency debe ser distinta de fromCurrency',
  ],
  mustBeLineList: [
    '{field} must be an array of rate lines',
    '{field} tem de ser uma lista de linhas de câmbio',
    '{field} debe ser una lista de líneas de cambio',
  ],
  pairRepeated: [
    'The pair {from} -> {to} is already line {first} of this body: send one line per pair',
    'O par {from} -> {to} já é a linha {first} deste corpo: envie uma linha por par',
    'El par {from} -> {to} ya es la línea {first} de este cuerpo: envíe una línea por par',
  ],
  pairExists: [
    'The document already has a line for this fromCurrency and toCurrency: change that line instead',
    'O documento já tem uma linha com este fromCurrency e toCurrency: altere essa linha',
    'El documento ya tiene una línea con este fromCurrency y toCurrency: modifique esa línea',
  ],
  unknownMember: [
    "There is no {kind} with {by} '{value}'",
    "Não existe nenhum registo de {kind} com {by} '{value}'",
    "No existe ningún registro de {kind} con {by} '{value}'",
  ],
  memberOfOtherCompany: [
    "The {kind} '{key}' belongs to company '{company}', not to the route's company '{routeCompany}'",
    "O registo de {kind} '{key}' pertence à empresa '{company}', não à empresa da rota, '{routeCompany}'",
    "El registro de {kind} '{key}' pertenece a la empresa '{company}', no a la empresa de la ruta, '{routeCompany}'",
  ],
  companyHasMembers: [
    "The route has {locations} location(s) and {equipmentItems} equipment item(s) of company '{company}': remove them before changing the company",
    "A rota tem {locations} local(is) e {equipmentItems} equipamento(s) da empresa '{company}': remova-os antes de mudar a empresa",
    "La ruta tiene {locations} ubicación(es) y {equipmentItems} equipo(s) de la empresa '{company}': elimínelos antes de cambiar la empresa",
  ],
  brandModelNeedsBrand: [
    "The brand model '{model}' needs the route's brand to be '{brand}' (the route has no brand)",
    "O modelo '{model}' exige que a marca da rota seja '{brand}' (a rota não tem marca)",
    "El modelo '{model}' exige que la marca de la ruta sea '{brand}' (la ruta no tiene marca)",
  ],
  brandModelOtherBrand: [
    "The brand model '{model}' belongs to brand '{modelBrand}', not to '{brand}'",
    "O modelo '{model}' pertence à marca '{modelBrand}', não a '{brand}'",
    "El modelo '{model}' pertenece a la marca '{modelBrand}', no a '{brand}'",
  ],
  keyList: ['{field} must be an array of keys', '{field} tem de ser uma lista de chaves', '{field} debe ser una lista de claves'],
  idList: [
    '{field} must be an array of ids (GUIDs)',
    '{field} tem de ser uma lista de ids (GUID)',
    '{field} debe ser una lista de ids (GUID)',
  ],
  toolList: [
    '{field} must be a comma-separated string of tool keys or an array of tool keys',
    '{field} tem de ser um texto com chaves de ferramentas separadas por vírgulas ou uma lista de chaves',
    '{field} debe ser un texto con claves de herramientas separadas por comas o una lista de claves',
  ],
  routeKeyAmbiguous: [
    "routeKey '{routeKey}' exists in companies {companies}: add ?companyKey= to choose one",
    "routeKey '{routeKey}' existe nas empresas {companies}: acrescente ?companyKey= para escolher uma",
    "routeKey '{routeKey}' existe en las empresas {companies}: añada ?companyKey= para elegir una",
  ],
  referenceRule: [
    "The {title} '{key}' is used by route {route} with {field} '{value}'",
    "O registo de {title} '{key}' é usado pela rota {route} com {field} '{value}'",
    "El registro de {title} '{key}' lo usa la ruta {route} con {field} '{value}'",
  ],
  orgNotGrantable: [
    'The token may not use org {org}, so it cannot grant it',
    'O token não pode usar a organização {org}, por isso não a pode conceder',
    'El token no puede usar la organización {org}, así que no puede concederla',
  ],
  clientRevoked: [
    'The client is revoked: register a new one',
    'O cliente está revogado: registe um novo',
    'El cliente está revocado: registre uno nuevo',
  ],
} as const;
