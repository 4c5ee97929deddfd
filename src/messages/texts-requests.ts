/**
 * Messages about the request itself (its target, headers and the encoding of its body) and the operator API, in
 * en-US, pt-PT and es-ES. Header and parameter names are the protocol's own in every language.
 */
export const REQUEST_TEXTS = {
  dotSegment: [
    "The path has a '.' or '..' segment (raw or percent-encoded): send the resolved path",
    "O caminho tem um segmento '.' ou '..' (literal ou com codificação percentual): envie o caminho resolvido",
    "La ruta tiene un segmento '.' o '..' (literal o con codificación porcentual): envíe la ruta resuelta",
  ],
  queryEncoding: [
    'The query parameter {field} is not valid percent-encoded UTF-8',
    'O parâmetro de consulta {field} não é UTF-8 com codificação percentual válida',
    'El parámetro de consulta {field} no es UTF-8 con codificación porcentual válida',
  ],
  unknownQueryParameter: [
    '{field} is not a query parameter of this request: remove it or correct its name',
    '{field} não é um parâmetro de consulta deste pedido: remova-o ou corrija o nome',
    '{field} no es un parámetro de consulta de esta solicitud: elimínelo o corrija su nombre',
  ],
  nestedTooDeep: [
    '{field} is nested deeper than {max} levels of arrays and objects',
    '{field} está aninhado a mais de {max} níveis de listas e objetos',
    '{field} está anidado a más de {max} niveles de listas y objetos',
  ],
  invalidUtf8: [
    '{field} is not valid UTF-8 (byte {offset}): send the body in UTF-8',
    '{field} não é UTF-8 válido (byte {offset}): envie o corpo em UTF-8',
    '{field} no es UTF-8 válido (byte {offset}): envíe el cuerpo en UTF-8',
  ],
  loneSurrogate: [
    '{field} holds a lone UTF-16 surrogate (\\uD800-\\uDFFF): send well-formed Unicode',
    '{field} contém um substituto UTF-16 isolado (\\uD800-\\uDFFF): envie Unicode bem formado',
    '{field} contiene un sustituto UTF-16 aislado (\\uD800-\\uDFFF): envíe Unicode bien formado',
  ],
  loneSurrogateName: [
    'The property name {name} holds a lone UTF-16 surrogate: send well-formed Unicode',
    'O nome de propriedade {name} contém um substituto UTF-16 isolado: envie Unicode bem formado',
    'El nombre de propiedad {name} contiene un sustituto UTF-16 aislado: envíe Unicode bien formado',
  ],
  noRecordWithField: ['No record has this {field}', 'Nenhum registo tem este {field}', 'Ningún registro tiene este {field}'],
  badIdempotencyKey: [
    '{field} must be 1 to 255 printable ASCII characters (a UUID is best), optionally in double quotes',
    '{field} tem de ter 1 a 255 caracteres ASCII imprimíveis (de preferência um UUID), opcionalmente entre aspas',
    '{field} debe tener de 1 a 255 caracteres ASCII imprimibles (mejor un UUID), opcionalmente entre comillas dobles',
  ],
  idempotencyKeyReused: [
    '{field} was already used with another request: send a new key for a new request',
    '{field} já foi usada com outro pedido: envie uma nova chave para um novo pedido',
    '{field} ya se usó con otra solicitud: envíe una clave nueva para una solicitud nueva',
  ],
  badBookmark: [
    '{field} must be a bookmark this API answered (<database>:<bookmark>): send it back as it came',
    '{field} tem de ser um marcador devolvido por esta API (<base de dados>:<marcador>): reenvie-o tal como veio',
    '{field} debe ser un marcador devuelto por esta API (<base de datos>:<marcador>): reenvíelo tal como llegó',
  ],
  notTenantDatabase: [
    '{field} must be one of the tenant databases {choices}',
    '{field} tem de ser uma das bases de dados de tenants {choices}',
    '{field} debe ser una de las bases de datos de tenants {choices}',
  ],
  restoreMoment: [
    'Give either {field} (a moment of the last {days} days) or snapshot (a snapshot id), not both',
    'Indique {field} (um momento dos últimos {days} dias) ou snapshot (o id de um snapshot), não ambos',
    'Indique {field} (un momento de los últimos {days} días) o snapshot (el id de un snapshot), no ambos',
  ],
  outsideRetention: [
    '{field} must be a moment of the last {days} days, not in the future',
    '{field} tem de ser um momento dos últimos {days} dias, não no futuro',
    '{field} debe ser un momento de los últimos {days} días, no en el futuro',
  ],
} as const;
