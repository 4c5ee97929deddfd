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
  readOnlyProperty: [
    '{field} cannot be changed: send it as stored ({stored}) or leave it out',
    '{field} não pode ser alterado: envie-o como está guardado ({stored}) ou omita-o',
    '{field} no se puede cambiar: envíelo como está guardado ({stored}) u omítalo',
  ],
  relatedNotUpdatable: [
    '{field} cannot be changed by this request: send it as read or leave it out, and change it with its own operations',
    '{field} não pode ser alterado por este pedido: envie-o como foi lido ou omita-o, e altere-o com as operações próprias',
    '{field} no se puede cambiar con esta solicitud: envíelo como se leyó u omítalo, y cámbielo con sus propias operaciones',
  ],
  memberItem: [
    '{field} must be a key, or an object with the key as key',
    '{field} tem de ser uma chave, ou um objeto com a chave em key',
    '{field} debe ser una clave, o un objeto con la clave en key',
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
  ruleUnknownReference: [
    'A referenced record no longer exists (a concurrent request deleted it)',
    'Um registo referido já não existe (um pedido concorrente apagou-o)',
    'Un registro referido ya no existe (una solicitud concurrente lo eliminó)',
  ],
  ruleReferenceInUse: [
    'The record is now used by another record (a concurrent request made it so)',
    'O registo passou a ser usado por outro registo (por um pedido concorrente)',
    'El registro pasó a ser usado por otro registro (por una solicitud concurrente)',
  ],
  ruleMemberCompany: [
    "Members must belong to the route's company",
    'Os membros têm de pertencer à empresa da rota',
    'Los miembros deben pertenecer a la empresa de la ruta',
  ],
  ruleCompanyMembers: [
    'The route has members of its company: remove them before changing the company',
    'A rota tem membros da sua empresa: remova-os antes de mudar a empresa',
    'La ruta tiene miembros de su empresa: elimínelos antes de cambiar la empresa',
  ],
  ruleBrandModel: [
    "The route's brand model must be a model of the route's brand",
    'O modelo da rota tem de ser um modelo da marca da rota',
    'El modelo de la ruta debe ser un modelo de la marca de la ruta',
  ],
  placeholderUnclosed: [
    '{field} opens a placeholder with {{ that is never closed with }}',
    '{field} abre um marcador com {{ que nunca é fechado com }}',
    '{field} abre un marcador con {{ que nunca se cierra con }}',
  ],
  placeholderUnsupported: [
    '{field} has {tag} at character {position}: only placeholders of letters, digits and _ (such as {{routeKey}}) are supported',
    '{field} tem {tag} no carácter {position}: só são suportados marcadores de letras, algarismos e _ (como {{routeKey}})',
    '{field} tiene {tag} en el carácter {position}: solo se admiten marcadores de letras, dígitos y _ (como {{routeKey}})',
  ],
  placeholderSyntax: [
    '{field} is not a valid template ({reason}): use only placeholders such as {{routeKey}}',
    '{field} não é um modelo válido ({reason}): use só marcadores como {{routeKey}}',
    '{field} no es una plantilla válida ({reason}): use solo marcadores como {{routeKey}}',
  ],
  placeholderMissing: [
    'The template uses {placeholder} and no value was given for it',
    'O modelo usa {placeholder} e não foi dado nenhum valor para ele',
    'La plantilla usa {placeholder} y no se dio ningún valor para él',
  ],
  parameterRepeated: [
    "{field}: the parameter '{parameter}' is given more than once (names are case-insensitive): send it once",
    "{field}: o parâmetro '{parameter}' é dado mais de uma vez (os nomes não distinguem maiúsculas): envie-o uma só vez",
    "{field}: el parámetro '{parameter}' se da más de una vez (los nombres no distinguen mayúsculas): envíelo una sola vez",
  ],
  renderSource: ['Send either parameters or route, not both', 'Envie parameters ou route, não ambos', 'Envíe parameters o route, no ambos'],
  renderSourceMissing: [
    'Send parameters ([{"name", "value"}]) or route ({"companyKey", "routeKey"})',
    'Envie parameters ([{"name", "value"}]) ou route ({"companyKey", "routeKey"})',
    'Envíe parameters ([{"name", "value"}]) o route ({"companyKey", "routeKey"})',
  ],
  renderValue: [
    '{field} must be a string, a number or null',
    '{field} tem de ser um texto, um número ou null',
    '{field} debe ser un texto, un número o null',
  ],
  renderTooLarge: [
    'With these values the rendered subject and body would hold more than {max} characters: send shorter values in {field}',
    'Com estes valores o assunto e o corpo gerados teriam mais de {max} caracteres: envie valores mais curtos em {field}',
    'Con estos valores el asunto y el cuerpo generados tendrían más de {max} caracteres: envíe valores más cortos en {field}',
  ],
  renderParameterList: [
    '{field} must be an array of {"name", "value"} objects',
    '{field} tem de ser uma lista de objetos {"name", "value"}',
    '{field} debe ser una lista de objetos {"name", "value"}',
  ],
} as const;
